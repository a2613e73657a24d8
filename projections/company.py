"""The Company read model: strongholds and Reputation with each Faction."""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.envelope import Envelope
from ledger.rules.coeac import garrison_population, tag_kind
from ledger.names import key
from projections.frozen import replace


@dataclass(frozen=True)
class Stronghold:
    name: str
    owner: str  # character name or "company"
    rating: int = 0
    tags: tuple[str, ...] = ()
    periods: frozenset[str] = frozenset()

    def count(self, kind: str) -> int:
        return sum(1 for t in self.tags if tag_kind(t) == kind)

    def view(self) -> dict:
        return {"name": self.name, "owner": self.owner, "rating": self.rating, "tags": list(self.tags),
                "economy": self.count("Economy"), "garrison": self.count("Garrison"),
                "population": garrison_population(self.count("Garrison"))}


@dataclass(frozen=True)
class Company:
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


# The event types apply folds; the world hands it no others.
TYPES = frozenset({"stronghold.founded", "stronghold.attempted", "reputation.changed", "company.income_rolled",
                   "treasury.paid", "treasury.funded"})
_TREASURY = {"company.income_rolled": "successes", "treasury.funded": "amount"}


def apply(state: Company, e: Envelope) -> Company:
    p = e.payload
    if e.type == "stronghold.founded":
        return replace(state, strongholds={**state.strongholds, key(p["name"]): Stronghold(p["name"], p["owner"])})
    if e.type == "stronghold.attempted":
        s = state.strongholds[key(p["name"])]
        s = replace(s, periods=s.periods | {p["period"]})
        if p["succeeded"]:
            s = replace(s, rating=s.rating + 1, tags=s.tags + tuple(p["tags"]))
        cash = state.cash - p["wager"] if p["by"] == "company" else state.cash
        return replace(state, strongholds={**state.strongholds, key(p["name"]): s}, cash=cash)
    if e.type in _TREASURY:
        return replace(state, cash=state.cash + p[_TREASURY[e.type]])
    if e.type == "treasury.paid":
        return replace(state, cash=state.cash - p["amount"])
    if e.type == "reputation.changed":
        # v1 payloads stored the result instead of the clamp: the rule's ±6 (l.201).
        limit = p.get("limit", 6)
        value = max(-limit, min(limit, state.rep(p["faction"]) + p["requested"]))
        return replace(state, reputation={**state.reputation, key(p["faction"]): (p["faction"], value)})
    return state
