"""The wolves read model (000, the band): characteristics, silver pennies,
companions, hirelings and their wages, boasts, and the band's ships."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ledger.envelope import Envelope
from ledger.rules.wolves import SHIPS, companions_allowed
from ledger.names import key
from projections.frozen import replace


@dataclass(frozen=True)
class Raider:
    characteristics: dict[str, int] = field(default_factory=dict)
    hit_dice: int = 0
    hp: int = 0
    attack_bonus: int = 0
    languages: int = 0
    half_known: int = 0  # languages 'half known' (l.52)
    gear: tuple[str, ...] = ()  # what was bought, at the start and since
    silver: int = 0
    companions: tuple[str, ...] = ()
    hirelings: dict[str, dict] = field(default_factory=dict)  # name -> kind, wage, hired, dismissed
    wages_paid: int = 0
    boast: Optional[dict] = None
    barred: bool = False  # shirked a boast: may never boast again (l.265)

    def wages_earned(self, today: int) -> int:
        return sum(h["wage"] * ((h["dismissed"] if h["dismissed"] is not None else today) - h["hired"])
                   for h in self.hirelings.values())

    def wages_owed(self, today: int) -> int:
        return self.wages_earned(today) - self.wages_paid

    def daily_wages(self) -> int:
        """What the hirelings in service earn in a day."""
        return sum(h["wage"] for h in self.hirelings.values() if h["dismissed"] is None)

    def view(self, today: int) -> dict:
        bonus = self.boast or {}
        owed = self.wages_owed(today)
        supported = companions_allowed(self.silver)
        return {
            **{k.lower(): v for k, v in self.characteristics.items()},
            "hit_dice": self.hit_dice + (bonus.get("bonus", 0) if bonus.get("reward") == "hit_dice" else 0),
            "attack_bonus": self.attack_bonus + (bonus.get("bonus", 0) if bonus.get("reward") == "attack_bonus" else 0),
            "hp": self.hp + bonus.get("hp", 0), "languages": self.languages, "half_known_languages": self.half_known,
            "gear": list(self.gear), "silver": self.silver, "companions": list(self.companions),
            "companions_supported": supported, "companions_unsupported": max(0, len(self.companions) - supported),
            "hirelings": [{"name": n, "kind": h["kind"], "wage": h["wage"],
                           "days": (h["dismissed"] if h["dismissed"] is not None else today) - h["hired"],
                           "active": h["dismissed"] is None} for n, h in self.hirelings.items()],
            "wages_owed": owed, "wages_paid": self.wages_paid, "wages_shortfall": max(0, owed - self.silver),
            "boast": dict(self.boast) if self.boast else None, "may_boast": not self.barred,
        }


@dataclass(frozen=True)
class Band:
    raiders: dict[str, Raider] = field(default_factory=dict)
    ships: tuple[dict, ...] = ()
    kept_boasts: dict[str, dict] = field(default_factory=dict)  # bonuses that stay (kept boasts)

    def of(self, character: str) -> Raider:
        return self.raiders.get(key(character), Raider())

    def ship(self, name: str) -> Optional[dict]:
        return next((s for s in self.ships if key(s["name"]) == key(name)), None)

    def ship_list(self, today: int) -> list[dict]:
        """The band's ships, with the seed's figures for their kind (l.284-298) and the
        day the food they came with runs out at the rate of the hands aboard then."""
        return [{**s, **{f: SHIPS[s["kind"]][f] for f in ("hd", "speed", "river", "crew", "beached")},
                 "food_until": s["day"] + s["food_days"], "food_left": max(0, s["day"] + s["food_days"] - today)}
                for s in self.ships]


def _update(state: Band, name: str, **changes) -> Band:
    return replace(state, raiders={**state.raiders, key(name): replace(state.of(name), **changes)})


# The event types apply folds; the world hands it no others.
TYPES = frozenset({"wolves.outfitted", "equipment.bought", "treasure.divided", "treasure.set_aside_paid",
                   "silver.changed", "companion.joined", "companion.left", "hireling.hired", "hireling.dismissed",
                   "wages.paid", "boast.made", "boast.resolved", "ship.acquired"})


def apply(state: Band, e: Envelope) -> Band:
    p, t = e.payload, e.type
    if t == "wolves.outfitted":
        return _update(state, p["character"], characteristics={
            "Strength": p["strength"], "Agility": p["agility"], "Constitution": p["constitution"]},
            hit_dice=p["hit_dice"], hp=p["hp"], attack_bonus=p["attack_bonus"], languages=p["languages"],
            half_known=p["half_known"], gear=state.of(p["character"]).gear + tuple(p["spent"]))
    if t == "equipment.bought":
        r = state.of(p["character"])
        return _update(state, p["character"], silver=r.silver - p["total"], gear=r.gear + tuple(p["spent"]))
    if t == "treasure.divided" and p.get("currency") == "sp":
        for name, amount in p["shares"].items():
            state = _update(state, name, silver=state.of(name).silver + amount)
        return state
    if t == "treasure.set_aside_paid" and p.get("currency") == "sp":
        return _update(state, p["character"], silver=state.of(p["character"]).silver + p["cash"])
    if t == "silver.changed":
        return _update(state, p["character"], silver=state.of(p["character"]).silver + p["delta"])
    if t == "companion.joined":
        return _update(state, p["character"], companions=state.of(p["character"]).companions + (p["name"],))
    if t == "companion.left":
        kept = tuple(c for c in state.of(p["character"]).companions if key(c) != key(p["name"]))
        return _update(state, p["character"], companions=kept)
    if t == "hireling.hired":
        r = state.of(p["character"])
        hired = {"kind": p["kind"], "wage": p["wage"], "hired": e.game_time, "dismissed": None}
        return _update(state, p["character"], hirelings={**r.hirelings, p["name"]: hired})
    if t == "hireling.dismissed":
        r = state.of(p["character"])
        gone = {**r.hirelings[p["name"]], "dismissed": e.game_time}
        return _update(state, p["character"], hirelings={**r.hirelings, p["name"]: gone})
    if t == "wages.paid":
        r = state.of(p["character"])
        return _update(state, p["character"], wages_paid=r.wages_paid + p["amount"], silver=r.silver - p["amount"])
    if t == "boast.made":
        return _update(state, p["character"], boast={"boast": p["boast"], "reward": p["reward"], "bonus": p["bonus"],
                                                     "hp": p["hp"]})
    if t == "boast.resolved":
        r = state.of(p["character"])
        changes = {"boast": None, "barred": r.barred or p["outcome"] == "shirked"}
        if p["kept"]:  # a kept boast's bonus stays for good, and the HP its Hit Dice rolled
            field_name = p["reward"]
            changes[field_name] = getattr(r, field_name) + p["bonus"]
            changes["hp"] = r.hp + p["hp"]
        return _update(state, p["character"], **changes)
    if t == "ship.acquired":
        state = replace(state, ships=state.ships + ({**p, "day": e.game_time},))
        if p["by"] is not None:
            state = _update(state, p["by"], silver=state.of(p["by"]).silver - p["price"])
        return state
    return state
