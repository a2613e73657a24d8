"""Hit points (004 l.83-116): damage, healing, Bonus HP, rests, and death by
other means than the Down and Out table."""

from __future__ import annotations

from typing import Optional, Sequence

from ledger import settings
from commands.base import acting, character_stream, clean_text, find_character, record
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from commands.boons import pool_of
from commands.inventory import depletion_check
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.coeac import BonusHpExpired, BonusHpGained, HpDamaged, HpHealed, RestTaken
from ledger.events.stable import CharacterDied
from ledger.store import Store
from ledger.text import LABEL_LIMIT
from ledger.names import key
from projections.stable import Character


def _tracked(state: State, name: str) -> Character:
    character = acting(state, name)
    if character.hp is None:
        raise RuleRefused(f"{character.name} has no maximum HP on record, so no HP to track")
    return character


def _at_least_one(amount: int, what: str) -> None:
    if amount < 1:
        raise BadInput(f"{what} is at least 1")


def damage_taken(state: State, name: str, amount: int, why: str) -> list[NewEvent]:
    """l.88: Bonus HP take damage first; l.100: at 0 HP the character is down and out."""
    _at_least_one(amount, "damage")
    c = _tracked(state, name)
    from_bonus = min(amount, c.bonus_hp)
    from_hp = min(amount - from_bonus, c.hp)
    return [NewEvent(character_stream(c.name), HpDamaged(
        character=c.name, damage=amount, from_bonus=from_bonus, from_hp=from_hp, hp_before=c.hp, why=why),
        game_time=state.today)]


def damage(store: Store, campaign: Optional[str], name: str, amount: int, *, why: str, actor: str,
           game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: damage_taken(state_of(ctx), name, amount, why),
                  game_date=game_date, ruling=ruling)[0]


def healing(state: State, name: str, amount: int, why: str) -> list[NewEvent]:
    """HP regained up to the maximum; Bonus HP are never regained (l.89)."""
    _at_least_one(amount, "healing")
    c = _tracked(state, name)
    if c.hp >= c.max_hp:
        raise RuleRefused(f"{c.name} is at full HP ({c.hp} of {c.max_hp})")
    return [NewEvent(character_stream(c.name), HpHealed(
        character=c.name, requested=amount, healed=min(amount, c.max_hp - c.hp), why=why), game_time=state.today)]


def heal(store: Store, campaign: Optional[str], name: str, amount: int, *, why: str, actor: str,
         game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: healing(state_of(ctx), name, amount, why),
                  game_date=game_date, ruling=ruling)[0]


def bonus_gained(state: State, name: str, amount: int, why: str) -> list[NewEvent]:
    """l.88: Bonus HP from any source stack into one temporary pool."""
    _at_least_one(amount, "a Bonus HP grant")
    c = _tracked(state, name)
    return [NewEvent(character_stream(c.name), BonusHpGained(character=c.name, amount=amount, why=why),
                     game_time=state.today)]


def gain_bonus(store: Store, campaign: Optional[str], name: str, amount: int, *, why: str, actor: str,
               game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: bonus_gained(state_of(ctx), name, amount, why),
                  game_date=game_date, ruling=ruling)[0]


def bonus_expired(state: State, name: str, why: str) -> list[NewEvent]:
    """l.88: "at the end of the established period, any remaining bonus HP in the pool are lost"."""
    c = _tracked(state, name)
    if not c.bonus_hp:
        raise RuleRefused(f"{c.name} has no Bonus HP to lose")
    return [NewEvent(character_stream(c.name), BonusHpExpired(character=c.name, lost=c.bonus_hp, why=why),
                     game_time=state.today)]


def expire_bonus(store: Store, campaign: Optional[str], name: str, *, why: str, actor: str,
                 game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: bonus_expired(state_of(ctx), name, why),
                  game_date=game_date, ruling=ruling)[0]


def death(state: State, name: str, why: str) -> list[NewEvent]:
    """A death the Down and Out table did not roll: a coup de grace (l.75), no
    medical aid by the end of the Turn (l.100), a fatal mutation (l.312)…"""
    c = find_character(state, name)
    return [NewEvent(character_stream(c.name), CharacterDied(character=c.name, cause=why), game_time=state.today)]


def die(store: Store, campaign: Optional[str], name: str, *, why: str, actor: str,
        game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: death(state_of(ctx), name, why),
                  game_date=game_date, ruling=ruling)[0]


def resting(state: State, names: Sequence[str]) -> list[Character]:
    """Who rests: the characters named, or everyone activated in the open session."""
    state.require("coeac")
    if not names:
        if state.session is None:
            raise BadInput("name the characters who rest (between sessions no party is out together)")
        names = [n for n in state.session.activated.values() if state.world.stable.character(n).status == "active"]
    party = [_tracked(state, n) for n in names]
    if len({c.name for c in party}) != len(party):
        raise BadInput("a character is named twice")
    return party


RATIONS = "Rations"  # the item a rest spends when --rations names none (rest_rations required)
SHORT_REST_HP = 3  # l.115: "everyone in the party regains up to three Hit Points"


def rest_taken(state: State, kind: str, names: Sequence[str], dice: Dice, *, rations: Optional[str] = None,
               chosen: Optional[dict[str, str]] = None) -> list[NewEvent]:
    """A short rest (l.115: up to three HP and a point of the Class Resource of
    each character's choice, ``chosen`` by name key, by default the core class's) or a
    long rest (l.116: every lost HP; Class Resources under long_rest_resources)
    for each character of the party. The Rations each carries (``rations``, or
    under rest_rations ``required`` the item called Rations) are spent and
    checked for Depletion: a short rest needs a majority of the party to spend
    them, a long rest everyone who recovers."""
    chosen = chosen or {}
    batch = Batch(state, dice)
    party = resting(state, names)
    unknown = set(chosen) - {key(c.name) for c in party}
    if unknown:
        raise BadInput(f"--resource names {sorted(unknown)[0]}, who is not resting")
    if rations is None and settings.in_force(state.campaign.settings, "rest_rations") == "required":
        rations = RATIONS
    spenders = _spending(state, party, rations, kind)
    rule = settings.in_force(state.campaign.settings, "long_rest_resources") if kind == "long" else None
    for c in party:
        healed = c.max_hp - c.hp if kind == "long" else min(SHORT_REST_HP, c.max_hp - c.hp)
        resource, gained = None, 0
        if kind == "short" and (c.resource_max or key(c.name) in chosen):
            resource = pool_of(c, chosen.get(key(c.name)))
            gained = 1 if c.resources[resource] < c.resource_max[resource] else 0
        item = spenders.get(c.name)
        rested = batch.add(character_stream(c.name), RestTaken(
            character=c.name, kind=kind, healed=healed, resource=resource, resource_gained=gained,
            resources_rule=rule, rations=item.name if item else None))
        if item is not None and item.depletion is not None:  # l.115-116: then checked for Depletion
            depletion_check(batch, c, item, why=f"{kind} rest", cause=rested)
    return batch.done()


def rest(store: Store, campaign: Optional[str], kind: str, names: Sequence[str], *, actor: str,
         rations: Optional[str] = None, resources: Optional[dict[str, str]] = None,
         hand: Optional[Sequence[int]] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None) -> list[Envelope]:
    """``resources``: the Class Resource each character regains on a short rest, by name."""
    if kind not in ("short", "long"):
        raise BadInput("a rest is short or long")
    rations = clean_text(rations, "--rations", LABEL_LIMIT) if rations is not None else None
    chosen = {key(k): v for k, v in (resources or {}).items()}
    if chosen and kind == "long":
        raise BadInput("--resource is a short rest's choice (004 l.115); a long rest follows long_rest_resources")
    return record(store, campaign, actor, lambda ctx: rest_taken(
        state_of(ctx), kind, names, dice_of(ctx, hand), rations=rations, chosen=chosen),
        game_date=game_date, ruling=ruling)


_OTHERWISE = " (--rations ITEM names what they eat; `campaign set rest_rations optional` rests without)"


def _spending(state: State, party: list[Character], rations: Optional[str], kind: str) -> dict:
    """Who of the party spends the Rations named, each with the item spent."""
    if not rations:
        return {}
    carried = {c.name: state.world.inventory.item(c.name, rations) for c in party}
    spenders = {name: item for name, item in carried.items() if item is not None}
    without = [c.name for c in party if c.name not in spenders]
    if kind == "long" and without:
        raise RuleRefused(f"{without[0]} carries no {rations}: a long rest is taken spending Rations "
                          f"(004 l.116); leave them out of it{_OTHERWISE}")
    if kind == "short" and 2 * len(spenders) <= len(party):
        raise RuleRefused(f"only {len(spenders)} of the {len(party)} resting carry {rations}: a short rest "
                          f"needs the majority of the party to spend Rations (004 l.115){_OTHERWISE}")
    return spenders
