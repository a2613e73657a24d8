"""Wolves Upon the Coast (seed 000): outfitting a new character, silver,
companions, hirelings' wages, boasts and ships (taken, bought and lost)."""

from __future__ import annotations

import re
from typing import Optional, Sequence

from commands.base import character_stream, clean_name, clean_text, find_character, record
from projections.reading import Context
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from ledger.envelope import NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.wolves import (
    BoastMade, BoastPassed, BoastResolved, CompanionJoined, CompanionLeft, EquipmentBought, HirelingDismissed,
    HirelingHired, Outfitted, ShipAcquired, ShipLost, SilverChanged, WagesPaid,
)
from ledger.rules import wolves as rules
from ledger.settings import in_force
from ledger.text import LABEL_LIMIT
from projections.wolves import Raider
from ledger.names import key


def outfit_into(batch: Batch, character: str, spend: Sequence[str]) -> None:
    """l.25-56: roll the start, buy equipment from the hacksilver at the list's
    prices, lose the rest."""
    rounding = in_force(batch.state.campaign.settings, "languages_rounding")
    scores = {}
    for name in rules.CHARACTERISTICS:
        _, _, scores[name] = batch.roll(rules.CHARACTERISTIC_ROLL, character=character, why=name)
    _, _, hp = batch.roll(f"1{rules.HIT_DIE}", character=character, why="Hit Die: HP")
    _, _, die = batch.roll(rules.LANGUAGES_DIE, character=character,
                           why=f"languages known: 1d6/2, rounded {rounding} (setting languages_rounding)")
    languages, half_known = rules.languages_known(die, rounding)
    _, _, silver = batch.roll(rules.HACKSILVER, character=character, why="hacksilver to spend on equipment")
    bought = purchases(spend)
    spent = sum(p.cost for p in bought)
    if spent > silver:
        raise RuleRefused(
            f"{character}'s 3d6*10 comes to {silver} hacksilver; the equipment listed costs {spent}. "
            "Buy less (the same dice will be rolled again)"
        )
    batch.add(character_stream(character), Outfitted(
        character=character, strength=scores["Strength"], agility=scores["Agility"],
        constitution=scores["Constitution"], hit_dice=1, hp=hp, attack_bonus=rules.ATTACK_BONUS,
        languages=languages, hacksilver=silver, spent={p.label: p.cost for p in bought}, lost=silver - spent,
        stated=[p.label for p in bought if p.stated], languages_die=die, languages_rounding=rounding,
        half_known=half_known))


def purchases(specs: Sequence[str]) -> list[rules.Purchase]:
    """Each ITEM[*N][=PRICE] priced from the seed's list (ledger/rules/wolves.py)."""
    bought = [rules.purchase(clean_text(spec, "an item bought", LABEL_LIMIT)) for spec in specs]
    seen: set[str] = set()
    for p in bought:
        if key(p.item) in seen:
            raise BadInput(f"{p.item} is named twice: buy several with {p.item}*N")
        seen.add(key(p.item))
    return bought


def starting_ship(game_time: int) -> NewEvent:
    """l.56: the band begins sharing the dead master's Karvi, its rowers and four days' food."""
    ship = rules.STARTING_SHIP
    return NewEvent(ship_stream(ship["name"]), ShipAcquired(
        name=ship["name"], kind=ship["kind"], value=rules.SHIP_VALUES[ship["kind"]], rowers=ship["rowers"],
        food_days=ship["food_days"], how=ship["how"]), game_time=game_time)


def ship_stream(name: str) -> str:
    return f"ship:{key(name)}"


def upkeep(state: State, character: str, r: Raider, silver_after: int) -> list[NewEvent]:
    """l.248: the companions ``silver_after`` no longer supports leave, the last
    to join first (setting companion_upkeep=leave); they go before the silver
    does, so the band never holds more companions than its silver supports."""
    if in_force(state.campaign.settings, "companion_upkeep") != "leave":
        return []
    supported = rules.companions_allowed(silver_after)
    going = list(reversed(r.companions[supported:]))
    return [NewEvent(character_stream(character), CompanionLeft(
        character=character, name=name, supported=supported, upkeep="leave",
        why=f"{silver_after} sp supports {supported} companion(s) (000 l.248)"), game_time=state.today)
        for name in going]


def raider(state: State, name: str, active: bool = True):
    state.require("wolves")
    character = find_character(state, name, active=active)
    return character.name, state.world.wolves.of(character.name)


def silver_change(state: State, name: str, delta: int, why: str) -> list[NewEvent]:
    character, r = raider(state, name)
    if delta == 0:
        raise BadInput("a change of 0 sp changes nothing")
    if delta < 0 and r.silver + delta < 0:  # below zero by a ruling, a gain is still a gain
        raise RuleRefused(f"{character} has {r.silver} sp; cannot take away {-delta}")
    return upkeep(state, character, r, r.silver + delta) + [NewEvent(
        character_stream(character), SilverChanged(character=character, delta=delta, why=why), game_time=state.today)]


def change_silver(store, campaign, name: str, delta: int, *, why: str, actor: str,
                  game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: silver_change(state_of(ctx), name, delta, why),
                  game_date=game_date, ruling=ruling)


def equipment_bought(state: State, name: str, specs: Sequence[str]) -> list[NewEvent]:
    """Equipment bought with silver pennies at the seed's prices (l.64-153)."""
    character, r = raider(state, name)
    bought = purchases(specs)
    total = sum(p.cost for p in bought)
    if total > r.silver:
        raise RuleRefused(f"{character} has {r.silver} sp; {', '.join(p.label for p in bought)} cost {total}")
    return upkeep(state, character, r, r.silver - total) + [NewEvent(character_stream(character), EquipmentBought(
        character=character, spent={p.label: p.cost for p in bought}, stated=[p.label for p in bought if p.stated],
        total=total), game_time=state.today)]


def outfit(store, campaign, name: str, specs: Sequence[str], *, actor: str,
           game_date: Optional[str] = None, ruling: Optional[str] = None):
    if not specs:
        raise BadInput("name at least one item to buy")
    return record(store, campaign, actor, lambda ctx: equipment_bought(state_of(ctx), name, specs),
                  game_date=game_date, ruling=ruling)


def companion_joined(state: State, name: str, companion: str) -> list[NewEvent]:
    character, r = raider(state, name)
    allowed = rules.companions_allowed(r.silver)
    if len(r.companions) + 1 > allowed:
        raise RuleRefused(f"{character} owns {r.silver} sp: that supports {allowed} companion(s), one per full "
                          f"1000 sp (000 l.248), and {len(r.companions)} already follow")
    return [NewEvent(character_stream(character), CompanionJoined(character=character, name=companion,
                                                                  allowed=allowed), game_time=state.today)]


def companion_joins(store, campaign, name: str, companion: str, *, actor: str,
                    game_date: Optional[str] = None, ruling: Optional[str] = None):
    companion = clean_name(companion, "the companion's name")
    return record(store, campaign, actor, lambda ctx: companion_joined(state_of(ctx), name, companion),
                  game_date=game_date, ruling=ruling)


def companion_left(state: State, name: str, companion: str, why: str) -> list[NewEvent]:
    character, r = raider(state, name, active=False)
    found = next((c for c in r.companions if key(c) == key(companion)), None)
    if found is None:
        raise NotFound(f"{character} has no companion named {companion!r}")
    return [NewEvent(character_stream(character), CompanionLeft(character=character, name=found, why=why),
                     game_time=state.today)]


def companion_leaves(store, campaign, name: str, companion: str, *, why: str, actor: str,
                     game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")
    return record(store, campaign, actor, lambda ctx: companion_left(state_of(ctx), name, companion, why),
                  game_date=game_date, ruling=ruling)


def hireling_hired(state: State, name: str, kind: str, hireling: Optional[str] = None) -> list[NewEvent]:
    character, r = raider(state, name)
    proper = rules.hireling_type(kind)
    if proper is None:
        raise BadInput(f"unknown hireling {kind!r}: choose from {', '.join(rules.WAGES)}")
    label = clean_name(hireling, "--name") if hireling else \
        f"{proper} {sum(1 for h in r.hirelings.values() if h['kind'] == proper) + 1}"
    if label in r.hirelings:
        raise RuleRefused(f"{character} already hired someone named {label!r}: give --name")
    wage, cover, owed = rules.WAGES[proper], int(in_force(state.campaign.settings, "hire_cover_days")), \
        r.wages_owed(state.today)
    needed = owed + cover * (r.daily_wages() + wage)
    if r.silver < needed:
        raise RuleRefused(
            f"{character} has {r.silver} sp and cannot pay a {proper} ({wage} sp a day): hiring needs {needed}, "
            f"the {owed} owed in wages and {cover} day(s) of every wage in service, the new one's too "
            "(setting hire_cover_days; 000 l.250 'As many as can be paid may be hired')")
    return [NewEvent(character_stream(character), HirelingHired(
        character=character, name=label, kind=proper, wage=wage, silver=r.silver, owed=owed, cover_days=cover),
        game_time=state.today)]


def hire(store, campaign, name: str, kind: str, *, actor: str, hireling: Optional[str] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: hireling_hired(state_of(ctx), name, kind, hireling),
                  game_date=game_date, ruling=ruling)


def hireling_dismissed(state: State, name: str, hireling: str) -> list[NewEvent]:
    character, r = raider(state, name, active=False)
    found = next((n for n, h in r.hirelings.items() if key(n) == key(hireling) and h["dismissed"] is None), None)
    if found is None:
        raise NotFound(f"{character} has no hireling in service named {hireling!r}")
    h = r.hirelings[found]
    days = state.today - h["hired"]
    return [NewEvent(character_stream(character), HirelingDismissed(
        character=character, name=found, days=days, wages_due=days * h["wage"]), game_time=state.today)]


def dismiss(store, campaign, name: str, hireling: str, *, actor: str,
            game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: hireling_dismissed(state_of(ctx), name, hireling),
                  game_date=game_date, ruling=ruling)


def wages_paid(state: State, name: str, amount: int) -> list[NewEvent]:
    character, r = raider(state, name, active=False)
    owed = r.wages_earned(state.today) - r.wages_paid
    if amount < 1:
        raise BadInput("pay at least 1 sp")
    if amount > owed:
        raise RuleRefused(f"{character} owes {owed} sp in wages, not {amount}")
    if amount > r.silver:
        raise RuleRefused(f"{character} has {r.silver} sp and cannot pay {amount}")
    return upkeep(state, character, r, r.silver - amount) + [NewEvent(
        character_stream(character), WagesPaid(character=character, amount=amount), game_time=state.today)]


def pay_wages(store, campaign, name: str, amount: int, *, actor: str,
              game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: wages_paid(state_of(ctx), name, amount),
                  game_date=game_date, ruling=ruling)


def boast_made(state: State, name: str, boast: str, dice: Dice, *, reward: str, raised_by: Optional[str] = None,
               complications: int = 0, refused: bool = False) -> list[NewEvent]:
    """l.262-270: the bonus comes at once (a Hit Die rolls its HP, l.49); a rival
    present may raise the stakes, and if the boaster refuses, the rival takes
    the boast up with the complications they named."""
    character, r = raider(state, name)
    may_boast(character, r)
    field_name = rules.BOAST_REWARDS.get(reward.lower())
    if field_name is None:
        raise BadInput("--reward is hd (a Hit Die) or ab (+1 Attack Bonus)")
    if complications < 0 or (complications and not raised_by):
        raise BadInput("complications come from a rival who raises the stakes: give --raised-by NAME")
    if refused and not complications:
        raise BadInput("--refused turns down raised stakes: give --raised-by NAME and --complications N")
    rival = clean_name(raised_by, "--raised-by") if raised_by else None
    if rival is not None and key(rival) == key(character):
        raise BadInput("a friend or rival raises the stakes (000 l.270), not the boaster: give another --raised-by")
    batch = Batch(state, dice)
    if not refused:
        _boast(batch, character, boast, field_name, complications, raised_by=rival)
        return batch.done()
    batch.add(character_stream(character), BoastPassed(character=character, boast=boast, to=rival,
                                                       reward=field_name, complications=complications))
    challenger = state.world.stable.character(rival)
    if challenger is not None:  # a rival who is not a character takes the boast out of the ledger's reach
        if challenger.status != "active":
            raise RuleRefused(f"{challenger.name} is {challenger.status} and cannot take up the boast")
        may_boast(challenger.name, state.world.wolves.of(challenger.name))
        _boast(batch, challenger.name, boast, field_name, complications, passed_from=character)
    return batch.done()


def make_boast(store, campaign, name: str, boast: str, *, reward: str, actor: str,
               raised_by: Optional[str] = None, complications: int = 0, refused: bool = False,
               hand: Optional[Sequence[int]] = None, game_date: Optional[str] = None, ruling: Optional[str] = None):
    boast = clean_text(boast, "the boast")
    return record(store, campaign, actor, lambda ctx: boast_made(
        state_of(ctx), name, boast, dice_of(ctx, hand), reward=reward, raised_by=raised_by,
        complications=complications, refused=refused), game_date=game_date, ruling=ruling)


def may_boast(character: str, r: Raider) -> None:
    if r.barred:
        raise RuleRefused(f"{character} shirked a boast and may never boast again (000 l.265)")
    if r.boast:
        raise RuleRefused(f"{character} already has a boast pending: {r.boast['boast']!r} (000 l.268)")


def _boast(batch: Batch, character: str, boast: str, reward: str, complications: int, *,
           raised_by: Optional[str] = None, passed_from: Optional[str] = None) -> None:
    bonus = 1 + complications  # l.270: "for each complicating factor, another HD or Attack Bonus"
    roll, hp = None, 0
    if reward == "hit_dice":  # l.49: "All Hit Dice are d6s", rolled for HP
        roll, _, hp = batch.roll(f"{bonus}{rules.HIT_DIE}", character=character, why="a boast's Hit Dice: HP")
    batch.add(character_stream(character), BoastMade(
        character=character, boast=boast, reward=reward, bonus=bonus, raised_by=raised_by,
        complications=complications, hp=hp, passed_from=passed_from), cause=roll)


def boast_resolved(state: State, name: str, outcome: str) -> list[NewEvent]:
    character, r = raider(state, name, active=False)
    if outcome not in ("kept", "failed", "shirked"):
        raise BadInput("a boast is kept, failed or shirked")
    if not r.boast:
        raise RuleRefused(f"{character} has no boast pending")
    return [NewEvent(character_stream(character), BoastResolved(
        character=character, boast=r.boast["boast"], outcome=outcome, reward=r.boast["reward"],
        bonus=r.boast["bonus"], kept=outcome == "kept", hp=r.boast.get("hp", 0)), game_time=state.today)]


def resolve_boast(store, campaign, name: str, outcome: str, *, actor: str,
                  game_date: Optional[str] = None, ruling: Optional[str] = None):
    return record(store, campaign, actor, lambda ctx: boast_resolved(state_of(ctx), name, outcome),
                  game_date=game_date, ruling=ruling)


_BOUGHT = re.compile(r"\b(bought|buy|buys|purchased?|paid)\b", re.IGNORECASE)


def ship_acquired(state: State, name: str, *, kind: str, rowers: int = 0, food_days: int = 0, how: str = "taken",
                  by: Optional[str] = None) -> list[NewEvent]:
    """A ship the band comes by: taken (free), or bought new ``by`` a character
    for three times its value (l.300)."""
    state.require("wolves")
    proper = rules.ship_kind(kind)
    if proper is None:
        raise BadInput(f"unknown ship {kind!r}: choose from {', '.join(rules.SHIPS)}")
    if rowers < 0 or food_days < 0:
        raise BadInput("rowers and days of food cannot be negative")
    if by is None and _BOUGHT.search(how):  # l.300: "triple this to pay for a new one"
        raise BadInput(f"a ship bought is paid for: `tally ship buy {name} --kind {proper} --by C` (three times "
                       "its value, 000 l.300); `ship add --how` says how the band came by one unpaid")
    if state.world.wolves.ship(name) is not None:
        raise RuleRefused(f"the band already has a ship named {name!r}")
    value = rules.SHIP_VALUES[proper]
    events: list[NewEvent] = []
    buyer, price = None, 0
    if by is not None:
        buyer, r = raider(state, by)
        price = rules.NEW_SHIP_FACTOR * value
        if price > r.silver:
            raise RuleRefused(f"a new {proper} costs {price} sp, three times its {value} sp ransom value "
                              f"(000 l.300); {buyer} has {r.silver}")
        events = upkeep(state, buyer, r, r.silver - price)
    return events + [NewEvent(ship_stream(name), ShipAcquired(
        name=name, kind=proper, value=value, rowers=rowers, food_days=food_days, how=how, price=price, by=buyer),
        game_time=state.today)]


def add_ship(store, campaign, name: str, *, kind: str, actor: str, rowers: int = 0, food_days: int = 0,
             how: str = "taken", by: Optional[str] = None, game_date: Optional[str] = None,
             ruling: Optional[str] = None):
    name = clean_name(name, "the ship's name")
    how = clean_text(how, "--how", LABEL_LIMIT)
    return record(store, campaign, actor, lambda ctx: ship_acquired(
        state_of(ctx), name, kind=kind, rowers=rowers, food_days=food_days, how=how, by=by),
        game_date=game_date, ruling=ruling)


def lose_ship(store, campaign, name: str, *, why: str, actor: str, game_date: Optional[str] = None,
              ruling: Optional[str] = None):
    """A ship of the band's is lost (a storm, a sinking, a fight: 000 l.325-391): it leaves the band's list."""
    name = clean_name(name, "the ship's name")
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        ctx.require("wolves")
        ship = ctx.world.wolves.ship(name)
        if ship is None:  # one the band takes only after the day given is refused by the timeline check
            ship = next((e.payload for e in ctx.events(types=["ship.acquired"])
                         if key(e.payload["name"]) == key(name) and e.game_time > ctx.today), None)
        if ship is None:
            raise NotFound(f"the band has no ship named {name!r} (see `tally ship list`)")
        return [NewEvent(ship_stream(ship["name"]), ShipLost(name=ship["name"], kind=ship["kind"], why=why),
                         game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)
