"""The xp read model (002, the xp module): XP, attained level, the pending
level waiting for safe time, hit dice, areas of expertise, the open vow,
and treasure whose XP waits until it is spent (treasure_xp spent)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ledger.envelope import Envelope
from ledger.rules.xp import expertise_claims, level_for
from ledger.names import key
from projections.frozen import replace


@dataclass(frozen=True)
class Progress:
    xp: int = 0
    level: int = 1
    highest: int = 1  # the highest level ever attained: a level regained brings no new claim
    vow: Optional[str] = None
    vows_counted: frozenset[str] = frozenset()  # where a fulfilled vow used up the limit
    hd_spent: int = 0
    expertise: tuple[tuple[str, str], ...] = ()  # (area, attribute)
    twelves: int = 0  # skill rolls of 12: each grants new expertise (002 l.179)
    expertise_periods: frozenset[str] = frozenset()  # where expertise was applied (once per session)
    treasure: int = 0  # units of treasure divided to the character whose XP is not yet given

    @property
    def pending_level(self) -> Optional[int]:
        earned = level_for(self.xp)
        return earned if earned > self.level else None

    @property
    def hit_dice_left(self) -> int:
        """One hit die per level (002 l.103), less those spent; a lost level takes its die with it."""
        return max(0, self.level - self.hd_spent)

    @property
    def expertise_claims(self) -> int:
        return expertise_claims(self.highest, self.twelves)

    def area(self, name: str) -> Optional[tuple[str, str]]:
        return next((a for a in self.expertise if key(a[0]) == key(name)), None)

    def view(self) -> dict:
        return {"xp": self.xp, "level": self.level, "pending_level": self.pending_level, "vow": self.vow,
                "level_hit_dice": self.level, "hit_dice_left": self.hit_dice_left,
                "expertise": {area: attribute for area, attribute in self.expertise},
                "expertise_unclaimed": max(0, self.expertise_claims - len(self.expertise)),
                "treasure_unspent": self.treasure}


@dataclass(frozen=True)
class Advancement:
    progress: dict[str, Progress] = field(default_factory=dict)

    def of(self, character: str) -> Progress:
        return self.progress.get(key(character), Progress())


def _update(state: Advancement, name: str, **changes) -> Advancement:
    return Advancement({**state.progress, key(name): replace(state.of(name), **changes)})


# The event types apply folds; the world hands it no others.
TYPES = frozenset({"xp.awarded", "level.attained", "level.lost", "vow.sworn", "vow.abandoned", "vow.fulfilled",
                   "hit_dice.spent", "hit_dice.restored", "expertise.gained", "skill.rolled", "treasure.divided"})


def _awarded(state: Advancement, p: dict) -> Advancement:
    current = state.of(p["character"])
    # Treasure's XP given (when seized or when spent) leaves that much treasure with none to come.
    held = current.treasure - (p["treasure"] or 0) if p["source"] == "treasure" else current.treasure
    return _update(state, p["character"], xp=current.xp + p["amount"], treasure=held)


def _divided(state: Advancement, p: dict) -> Advancement:
    for name, units in p["shares"].items():
        state = _update(state, name, treasure=state.of(name).treasure + units)
    return state


def _skill(state: Advancement, p: dict) -> Advancement:
    current = state.of(p["character"])
    changes = {}
    if p["expertise"] is not None:
        changes["expertise_periods"] = current.expertise_periods | {p["period"]}
    if p["result"] == "extraordinary":
        changes["twelves"] = current.twelves + 1
    return _update(state, p["character"], **changes) if changes else state


def apply(state: Advancement, e: Envelope) -> Advancement:
    p = e.payload
    if e.type not in TYPES:
        return state
    if e.type == "xp.awarded":
        return _awarded(state, p)
    if e.type == "treasure.divided":
        return _divided(state, p)
    if e.type == "skill.rolled":
        return _skill(state, p)
    current = state.of(p["character"])
    if e.type == "level.attained":
        return _update(state, p["character"], level=p["level"], highest=max(current.highest, p["level"]))
    if e.type == "level.lost":  # the lost levels take unspent dice first: those spent stay spent
        return _update(state, p["character"], level=p["level"], hd_spent=min(current.hd_spent, p["level"]))
    if e.type == "hit_dice.spent":
        return _update(state, p["character"], hd_spent=current.hd_spent + p["count"])
    if e.type == "hit_dice.restored":
        return _update(state, p["character"], hd_spent=max(0, current.hd_spent - p["count"]))
    if e.type == "expertise.gained":
        return _update(state, p["character"], expertise=current.expertise + ((p["area"], p["attribute"]),))
    if e.type == "vow.sworn":
        return _update(state, p["character"], vow=p["vow"])
    if e.type == "vow.abandoned":
        return _update(state, p["character"], vow=None)
    if e.type == "vow.fulfilled":
        return _update(state, p["character"], vow=None, vows_counted=current.vows_counted | {p["counted_in"]})
    return state
