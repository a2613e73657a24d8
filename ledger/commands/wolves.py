"""Wolves Upon the Coast (seed 000): outfitting a new character, silver,
companions, hirelings' wages, boasts and ships."""

from __future__ import annotations

from typing import Optional

from ledger.commands.base import Context, character_stream, clean_name, clean_text, find_character, record
from ledger.commands.batch import Batch
from ledger.envelope import NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.wolves import (
    BoastMade, BoastResolved, CompanionJoined, CompanionLeft, HirelingDismissed, HirelingHired, Outfitted,
    ShipAcquired, SilverChanged, WagesPaid,
)
from ledger.rules import wolves as rules
from ledger.text import LABEL_LIMIT
from projections.names import key


def outfit_into(batch: Batch, character: str, spend: dict[str, int]) -> None:
    """l.26-56: roll the start, buy equipment from the hacksilver, lose the rest."""
    scores = {}
    for name in rules.CHARACTERISTICS:
        _, _, scores[name] = batch.roll(rules.CHARACTERISTIC_ROLL, character=character, why=name)
    _, _, hp = batch.roll(rules.HIT_DIE, character=character, why="Hit Die: HP")
    _, _, languages = batch.roll(rules.LANGUAGES, character=character, why="languages known")
    _, _, silver = batch.roll(rules.HACKSILVER, character=character, why="hacksilver to spend on equipment")
    spend = {clean_text(item, "a --spend item", LABEL_LIMIT): cost for item, cost in spend.items()}
    for item, cost in spend.items():
        if cost < 0:
            raise BadInput(f"{item} cannot cost less than nothing")
    spent = sum(spend.values())
    if spent > silver:
        raise RuleRefused(
            f"{character}'s 3d6*10 comes to {silver} hacksilver; the equipment listed costs {spent}. "
            "Buy less (the same dice will be rolled again)"
        )
    batch.add(character_stream(character), Outfitted(
        character=character, strength=scores["Strength"], agility=scores["Agility"],
        constitution=scores["Constitution"], hit_dice=1, hp=hp, attack_bonus=rules.ATTACK_BONUS,
        languages=languages, hacksilver=silver, spent=spend, lost=silver - spent))


def raider(ctx: Context, name: str, active: bool = True):
    ctx.require("wolves")
    character = find_character(ctx, name, active=active)
    return character.name, ctx.world.band.of(character.name)


def change_silver(store, campaign, name: str, delta: int, *, why: str, actor: str,
                  game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        character, r = raider(ctx, name)
        if delta == 0:
            raise BadInput("a change of 0 sp changes nothing")
        if r.silver + delta < 0:
            raise RuleRefused(f"{character} has {r.silver} sp; cannot take away {-delta}")
        return [NewEvent(character_stream(character), SilverChanged(character=character, delta=delta, why=why),
                         game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def companion_joins(store, campaign, name: str, companion: str, *, actor: str,
                    game_date: Optional[str] = None, ruling: Optional[str] = None):
    companion = clean_name(companion, "the companion's name")

    def decide(ctx: Context) -> list[NewEvent]:
        character, r = raider(ctx, name)
        allowed = rules.companions_allowed(r.silver)
        if len(r.companions) + 1 > allowed:
            raise RuleRefused(f"{character} owns {r.silver} sp: that supports {allowed} companion(s), one per full "
                              f"1000 sp (000 l.248), and {len(r.companions)} already follow")
        return [NewEvent(character_stream(character), CompanionJoined(character=character, name=companion,
                                                                      allowed=allowed), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def companion_leaves(store, campaign, name: str, companion: str, *, why: str, actor: str,
                     game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        character, r = raider(ctx, name, active=False)
        found = next((c for c in r.companions if key(c) == key(companion)), None)
        if found is None:
            raise NotFound(f"{character} has no companion named {companion!r}")
        return [NewEvent(character_stream(character), CompanionLeft(character=character, name=found, why=why),
                         game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def hire(store, campaign, name: str, kind: str, *, actor: str, hireling: Optional[str] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, r = raider(ctx, name)
        proper = rules.hireling_type(kind)
        if proper is None:
            raise BadInput(f"unknown hireling {kind!r}: choose from {', '.join(rules.WAGES)}")
        label = clean_name(hireling, "--name") if hireling else \
            f"{proper} {sum(1 for h in r.hirelings.values() if h['kind'] == proper) + 1}"
        if label in r.hirelings:
            raise RuleRefused(f"{character} already hired someone named {label!r}: give --name")
        return [NewEvent(character_stream(character), HirelingHired(
            character=character, name=label, kind=proper, wage=rules.WAGES[proper]), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def dismiss(store, campaign, name: str, hireling: str, *, actor: str,
            game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, r = raider(ctx, name, active=False)
        found = next((n for n, h in r.hirelings.items() if key(n) == key(hireling) and h["dismissed"] is None), None)
        if found is None:
            raise NotFound(f"{character} has no hireling in service named {hireling!r}")
        h = r.hirelings[found]
        days = ctx.today - h["hired"]
        return [NewEvent(character_stream(character), HirelingDismissed(
            character=character, name=found, days=days, wages_due=days * h["wage"]), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def pay_wages(store, campaign, name: str, amount: int, *, actor: str,
              game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, r = raider(ctx, name, active=False)
        owed = r.wages_earned(ctx.today) - r.wages_paid
        if amount < 1:
            raise BadInput("pay at least 1 sp")
        if amount > owed:
            raise RuleRefused(f"{character} owes {owed} sp in wages, not {amount}")
        if amount > r.silver:
            raise RuleRefused(f"{character} has {r.silver} sp and cannot pay {amount}")
        return [NewEvent(character_stream(character), WagesPaid(character=character, amount=amount),
                         game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def make_boast(store, campaign, name: str, boast: str, *, reward: str, actor: str,
               raised_by: Optional[str] = None, complications: int = 0,
               game_date: Optional[str] = None, ruling: Optional[str] = None):
    boast = clean_text(boast, "the boast")

    def decide(ctx: Context) -> list[NewEvent]:
        character, r = raider(ctx, name)
        if r.barred:
            raise RuleRefused(f"{character} shirked a boast and may never boast again (000 l.265)")
        if r.boast:
            raise RuleRefused(f"{character} already has a boast pending: {r.boast['boast']!r} (000 l.268)")
        field_name = rules.BOAST_REWARDS.get(reward.lower())
        if field_name is None:
            raise BadInput("--reward is hd (a Hit Die) or ab (+1 Attack Bonus)")
        if complications < 0 or (complications and not raised_by):
            raise BadInput("complications come from a rival who raises the stakes: give --raised-by NAME")
        rival = clean_name(raised_by, "--raised-by") if raised_by else None
        return [NewEvent(character_stream(character), BoastMade(
            character=character, boast=boast, reward=field_name, bonus=1 + complications, raised_by=rival,
            complications=complications), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def resolve_boast(store, campaign, name: str, outcome: str, *, actor: str,
                  game_date: Optional[str] = None, ruling: Optional[str] = None):
    def decide(ctx: Context) -> list[NewEvent]:
        character, r = raider(ctx, name, active=False)
        if outcome not in ("kept", "failed", "shirked"):
            raise BadInput("a boast is kept, failed or shirked")
        if not r.boast:
            raise RuleRefused(f"{character} has no boast pending")
        return [NewEvent(character_stream(character), BoastResolved(
            character=character, boast=r.boast["boast"], outcome=outcome, reward=r.boast["reward"],
            bonus=r.boast["bonus"], kept=outcome == "kept"), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def add_ship(store, campaign, name: str, *, kind: str, actor: str, rowers: int = 0, food_days: int = 0,
             how: str = "taken", game_date: Optional[str] = None, ruling: Optional[str] = None):
    name = clean_name(name, "the ship's name")

    def decide(ctx: Context) -> list[NewEvent]:
        ctx.require("wolves")
        proper = rules.ship_kind(kind)
        if proper is None:
            raise BadInput(f"unknown ship {kind!r}: choose from {', '.join(rules.SHIP_VALUES)}")
        if rowers < 0 or food_days < 0:
            raise BadInput("rowers and days of food cannot be negative")
        if any(key(s["name"]) == key(name) for s in ctx.world.band.ships):
            raise RuleRefused(f"the band already has a ship named {name!r}")
        return [NewEvent(f"ship:{key(name)}", ShipAcquired(
            name=name, kind=proper, value=rules.SHIP_VALUES[proper], rowers=rowers, food_days=food_days,
            how=clean_text(how, "--how", LABEL_LIMIT)), game_time=ctx.today)]

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)
