"""XP, levels and vows (seed 002 l.97-114, l.195)."""

from __future__ import annotations

import re
from typing import Optional

from commands.base import character_stream, clean_text, find_character, record
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from ledger.envelope import NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.xp import HitDiceRestored, LevelAttained, LevelLost, VowAbandoned, VowFulfilled, VowSworn, XpAwarded
from ledger.events.wolves import LevelHitDieRolled
from ledger.names import key
from ledger.rules import wolves as wolves_rules, xp as rules
from ledger.settings import in_force


def in_safe_time(state: State, character: str) -> bool:
    """l.195: levels are attained in safe time; a character out on this
    session's expedition is not in it until the session closes."""
    return state.session is None or not state.session.is_activated(character)


def attain(state: State, batch: Batch, character: str, xp_after: int) -> None:
    """A level.attained event for every level the XP now reaches."""
    level = state.world.xp.of(character).level
    for new in range(level + 1, rules.level_for(xp_after) + 1):
        attained = batch.add(character_stream(character), LevelAttained(character=character, level=new,
                                                                        benefit=rules.level_benefit(new)))
        if state.campaign.runs("wolves") and key(character) in state.world.wolves.raiders:
            # 002 l.103: "how many hit dice she has – one per level"; 000 l.49: each "rolled to
            # determine how many HP they have. All Hit Dice are d6s." One count, the Wolves sheet's.
            roll, _, hp = batch.roll(f"1{wolves_rules.HIT_DIE}", character=character,
                                     why=f"level {new}'s Hit Die: HP")
            batch.add(character_stream(character), LevelHitDieRolled(character=character, level=new, hp=hp),
                      cause=roll)


def safe_time(state: State, batch: Batch, character: str) -> None:
    """l.195: in safe time "expended hit dice are restored; levels from acquired XP are attained"."""
    progress = state.world.xp.of(character)
    if progress.hd_spent:
        batch.add(character_stream(character), HitDiceRestored(character=character, count=progress.hd_spent,
                                                               how="safe_time"))
    attain(state, batch, character, progress.xp)


def award_into(state: State, batch: Batch, character: str, amount: int, *, source: str, why: str,
               treasure: Optional[int] = None, treasure_rule: Optional[str] = None) -> None:
    progress = state.world.xp.of(character)
    rounding = state.campaign.settings["vow_rounding"] if treasure is not None else None
    batch.add(character_stream(character), XpAwarded(
        character=character, amount=amount, source=source, why=why, treasure=treasure,
        vow_open=progress.vow is not None, rounding=rounding, treasure_rule=treasure_rule))
    after = progress.xp + amount
    if after < rules.threshold(progress.level):
        # l.99-102: a level is the XP held; XP taken away below it takes the level at once,
        # safe time or not (safe time is when levels are *attained*, l.195).
        batch.add(character_stream(character), LevelLost(character=character, level=rules.level_for(after),
                                                         from_level=progress.level, xp=after))
    elif in_safe_time(state, character):
        attain(state, batch, character, after)


def _treasure_award(state: State, batch: Batch, character: str, units: int, rule: str, why: str) -> None:
    """l.107-108: 1 XP per unit of treasure; l.113-114: only half while a vow is open."""
    vow_open = state.world.xp.of(character).vow is not None
    award_into(state, batch, character, rules.treasure_xp(units, vow_open, state.campaign.settings["vow_rounding"]),
               source="treasure", why=why + (" (halved: a vow is open)" if vow_open else ""), treasure=units,
               treasure_rule=rule)


def treasure_into(state: State, batch: Batch, shares: dict[str, int]) -> None:
    """A share of treasure is XP when seized (treasure_xp seized); otherwise it
    waits, held, until it is spent (`tally xp C N --spent`)."""
    if in_force(state.campaign.settings, "treasure_xp") != "seized":
        return
    for character, units in shares.items():
        if units > 0:
            _treasure_award(state, batch, character, units, "seized", f"{units} units of treasure")


def xp_awarded(state: State, name: str, amount: int, why: str, *, spent: bool = False, treasure: bool = False,
               dice: Optional[Dice] = None) -> list[NewEvent]:
    """``dice``: for the Hit Dice of the levels the award brings, in a Wolves campaign. ``treasure``:
    ``amount`` is units of treasure seized outside a split, 1 XP each, halved under an open vow."""
    state.require("xp")
    character = find_character(state, name)
    progress = state.world.xp.of(character.name)
    batch = Batch(state, dice)
    if spent:
        _spent(state, batch, character.name, amount, why)
        return batch.done()
    if treasure:
        _seized(state, batch, character.name, amount, why)
        return batch.done()
    if progress.vow is not None and _TREASURE.search(why):
        # 002 l.113-114: "once a vow is made, an adventurer only gains 1/2 XP from finding treasure"
        raise RuleRefused(f"{character.name} has an open vow, so treasure gives half XP (002 l.113-114): "
                          f"`tally xp {character.name} {amount} --treasure --why …` for {amount} units of treasure")
    if amount == 0:
        raise BadInput("an award of 0 XP changes nothing")
    if amount < 0 and progress.xp + amount < 0:  # below zero by a ruling, an award still counts
        raise RuleRefused(f"{character.name} has {progress.xp} XP; cannot take away {-amount}")
    award_into(state, batch, character.name, amount, source="referee", why=why)
    return batch.done()


def award(store, campaign, name: str, amount: int, *, why: str, actor: str, spent: bool = False,
          treasure: bool = False, game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: xp_awarded(state_of(ctx), name, amount, why, spent=spent,
                                                                 treasure=treasure, dice=dice_of(ctx)),
                  game_date=game_date, ruling=ruling)


_TREASURE = re.compile(r"\btreasures?\b", re.IGNORECASE)


def _seized(state: State, batch: Batch, character: str, units: int, why: str) -> None:
    """Treasure seized outside `treasure split` (002 l.107-108, "1 XP/unit"), under treasure_xp seized."""
    if in_force(state.campaign.settings, "treasure_xp") != "seized":
        raise RuleRefused("treasure_xp is spent: treasure gives its XP when spent (`tally xp C N --spent`, "
                          "002 l.107)")
    if units < 1:
        raise BadInput("--treasure takes the units of treasure seized, at least 1")
    _treasure_award(state, batch, character, units, "seized", f"{units} units of treasure: {why}")


def _spent(state: State, batch: Batch, character: str, units: int, why: str) -> None:
    """Treasure spent, under treasure_xp spent: its XP now (002 l.107, "expenditure")."""
    rule = in_force(state.campaign.settings, "treasure_xp")
    if rule != "spent":
        raise RuleRefused("treasure_xp is seized: treasure gave its XP when it was divided; "
                          "`tally campaign set treasure_xp spent` to give it when spent (002 l.107)")
    if units < 1:
        raise BadInput("--spent takes the units of treasure spent, at least 1")
    held = state.world.xp.of(character).treasure
    if units > held:
        raise RuleRefused(f"{character} holds {held} unit(s) of treasure not yet spent; cannot spend {units}")
    _treasure_award(state, batch, character, units, "spent", f"{units} units of treasure spent: {why}")


def vow_sworn(state: State, name: str, vow: str) -> list[NewEvent]:
    state.require("xp")
    character = find_character(state, name)
    open_vow = state.world.xp.of(character.name).vow
    if open_vow:
        raise RuleRefused(f"{character.name} already has an open vow: {open_vow!r} (fulfil or abandon it first)")
    return [NewEvent(character_stream(character.name), VowSworn(character=character.name, vow=vow),
                     game_time=state.today)]


def swear(store, campaign, name: str, vow: str, *, actor: str,
          game_date: Optional[str] = None, ruling: Optional[str] = None):
    vow = clean_text(vow, "the vow")
    return record(store, campaign, actor, lambda ctx: vow_sworn(state_of(ctx), name, vow),
                  game_date=game_date, ruling=ruling)


def vow_fulfilled(state: State, name: str, xp: Optional[int] = None, dice: Optional[Dice] = None) -> list[NewEvent]:
    state.require("xp")
    character = find_character(state, name)
    progress = state.world.xp.of(character.name)
    if progress.vow is None:
        raise RuleRefused(f"{character.name} has no open vow")
    rule, limit = state.campaign.settings["vow_xp"], state.campaign.settings["vow_limit"]
    counted_in = state.period if limit == "session" else f"level {progress.level}"
    if counted_in in progress.vows_counted:
        raise RuleRefused(f"{character.name} already fulfilled a vow this {counted_in.split()[0]}: "
                          f"one per {limit} (002 l.111-112, setting vow_limit)")
    amount = rules.threshold(progress.level)  # "XP equal to the adventurer's last attained level"
    if rule == "stated" or amount == 0:
        if xp is None:
            why = "vow_xp is stated" if rule == "stated" else "at level 1 the book's award is 0"
            raise BadInput(f"state the award with --xp N ({why})")
        amount = xp
    elif xp is not None:
        raise RuleRefused(f"vow_xp is threshold: the award is {amount} XP; drop --xp "
                          "(or `tally campaign set vow_xp stated`)")
    if amount < 0:
        raise BadInput("--xp cannot be negative")
    batch = Batch(state, dice)
    batch.add(character_stream(character.name), VowFulfilled(
        character=character.name, vow=progress.vow, xp=amount, rule=rule, limit=limit, counted_in=counted_in))
    if amount:
        award_into(state, batch, character.name, amount, source="vow", why=f"vow fulfilled: {progress.vow}")
    return batch.done()


def fulfil(store, campaign, name: str, *, actor: str, xp: Optional[int] = None,
           game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: vow_fulfilled(state_of(ctx, period=True), name, xp, dice_of(ctx)),
                  game_date=game_date, ruling=ruling)


def vow_abandoned(state: State, name: str) -> list[NewEvent]:
    state.require("xp")
    character = find_character(state, name)
    vow = state.world.xp.of(character.name).vow
    if vow is None:
        raise RuleRefused(f"{character.name} has no open vow")
    return [NewEvent(character_stream(character.name), VowAbandoned(character=character.name, vow=vow),
                     game_time=state.today)]


def abandon(store, campaign, name: str, *, actor: str, game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: vow_abandoned(state_of(ctx), name),
                  game_date=game_date, ruling=ruling)
