"""The Company read model: strongholds and Reputation with each Faction."""

from __future__ import annotations

from typing import Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.envelope import Envelope
from ledger.rules.coeac import garrison_population, tag_kind
from ledger.names import key
from projections.handlers import Table, entry, with_period


class Stronghold(Struct, frozen=True):
    name: str
    owner: str  # character name or "company"
    rating: int = 0
    tags: tuple[str, ...] = ()
    periods: tuple[str, ...] = ()  # sorted (handlers.with_period)

    def count(self, kind: str) -> int:
        return sum(1 for t in self.tags if tag_kind(t) == kind)

    def view(self) -> dict:
        return {"name": self.name, "owner": self.owner, "rating": self.rating, "tags": list(self.tags),
                "economy": self.count("Economy"), "garrison": self.count("Garrison"),
                "population": garrison_population(self.count("Garrison"))}


class Company(Struct, frozen=True):
    strongholds: dict[str, Stronghold] = field(default_factory=dict)
    reputation: dict[str, tuple[str, int]] = field(default_factory=dict)  # key -> (faction, value)
    cash: int = 0  # the Company's treasury: its strongholds' Income, paid out by the referee

    def stronghold(self, name: str):
        return self.strongholds.get(key(name))

    def rep(self, faction: str) -> int:
        return self.reputation.get(key(faction), (faction, 0))[1]

    def owned_by(self, character: str) -> list[Stronghold]:
        return [s for s in self.strongholds.values() if key(s.owner) == key(character)]

    def view(self) -> dict:
        return {"cash": self.cash, "strongholds": [s.view() for s in self.strongholds.values()],
                "reputation": {name: value for name, value in self.reputation.values()}}


def reputation_after(payload: dict) -> int:
    """The Reputation the change gave when it was decided (from the recorded
    ``before``); a v1 payload stored it."""
    if "after" in payload:
        return payload["after"]
    limit = payload["limit"]
    return max(-limit, min(limit, payload["before"] + payload["requested"]))


def reputation_step(current: int, payload: dict) -> int:
    """The Reputation after the change, from the one before it in game-date
    order: the change asked for, clamped (l.201); v1 payloads stored the
    result instead of the clamp, so the rule's ±6."""
    limit = payload.get("limit", 6)
    return max(-limit, min(limit, current + payload["requested"]))


TABLE = Table("company")


@TABLE.on("stronghold.founded", line=lambda p: f"stronghold {p['name']} founded, owned by {p['owner']}")
def _founded(state: Company, p: dict, e: Envelope) -> Company:
    return replace(state, strongholds={**state.strongholds, key(p["name"]): Stronghold(p["name"], p["owner"])})


def _stronghold_attempt(world, p: dict, day: int) -> Optional[str]:
    s = world.company.stronghold(p["name"])
    if s is None:
        return None
    if s.rating != p["rank_from"]:
        return f"{s.name} would be rated {s.rating}, not {p['rank_from']} as the attempt was decided on"
    if p["period"] in s.periods:
        return f"{s.name} would have two improvement attempts in {p['period']} (one per session, 004 l.185)"
    payer = world.stable.character(p["by"])
    if p["wealth_dice"] and payer is not None and payer.wealth != p["wealth_dice"]:
        return (f"{payer.name}'s Wealth would be {payer.wealth}, not the {p['wealth_dice']} dice the pool "
                "was rolled with")
    return None


@TABLE.on("stronghold.attempted", line=lambda p: f"{p['name']} {p['rank_from']} -> {p['rank_from'] + 1}, "
          f"Ob {p['ob']}, {p['successes']} successes of {p['pool']} dice ({p['wealth_dice']} Wealth, {p['wager']} "
          f"Cash wagered by {p['by']}): {'gained' if p['succeeded'] else 'failed'}"
          + (f", tags {', '.join(p['tags'])}" if p["tags"] else ""), premise=_stronghold_attempt)
def _attempted(state: Company, p: dict, e: Envelope) -> Company:
    s = entry(state.strongholds, key(p["name"]), f"stronghold {p['name']}")
    s = replace(s, periods=with_period(s.periods, p["period"]))
    if p["succeeded"]:
        s = replace(s, rating=s.rating + 1, tags=s.tags + tuple(p["tags"]))
    cash = state.cash - p["wager"] if p["by"] == "company" else state.cash
    return replace(state, strongholds={**state.strongholds, key(p["name"]): s}, cash=cash)


@TABLE.on("company.income_rolled", line=lambda p: f"the Company's {p['stronghold']} Income: {p['successes']} Cash "
          f"from {p['economy_dice']} Economy dice")
def _income(state: Company, p: dict, e: Envelope) -> Company:
    return replace(state, cash=state.cash + p["successes"])


@TABLE.on("treasury.funded",
          line=lambda p: f"{p['character']} puts {p['amount']} Cash into the Company's treasury: {p['why']}")
def _funded(state: Company, p: dict, e: Envelope) -> Company:
    return replace(state, cash=state.cash + p["amount"])


@TABLE.on("treasury.paid", line=lambda p: f"the Company pays {p['character']} {p['amount']} Cash: {p['why']}")
def _paid(state: Company, p: dict, e: Envelope) -> Company:
    return replace(state, cash=state.cash - p["amount"])


@TABLE.on("reputation.changed", line=lambda p: f"Reputation with {p['faction']} {p['requested']:+d} "
          f"(was {p['before']:+d} when decided -> {reputation_after(p):+d}): {p['why']}")
def _reputation(state: Company, p: dict, e: Envelope) -> Company:
    value = reputation_step(state.rep(p["faction"]), p)
    return replace(state, reputation={**state.reputation, key(p["faction"]): (p["faction"], value)})


apply = TABLE.apply
