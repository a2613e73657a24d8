"""The advancement read model (xp module): XP, attained level, the pending
level waiting for safe time, and the open vow."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ledger.envelope import Envelope
from ledger.rules.xp import level_for
from projections.names import key
from projections.frozen import replace


@dataclass(frozen=True)
class Progress:
    xp: int = 0
    level: int = 1
    vow: Optional[str] = None
    vows_counted: frozenset[str] = frozenset()  # where a fulfilled vow used up the limit

    @property
    def pending_level(self) -> Optional[int]:
        earned = level_for(self.xp)
        return earned if earned > self.level else None

    def view(self) -> dict:
        return {"xp": self.xp, "level": self.level, "pending_level": self.pending_level, "vow": self.vow}


@dataclass(frozen=True)
class Advancement:
    progress: dict[str, Progress] = field(default_factory=dict)

    def of(self, character: str) -> Progress:
        return self.progress.get(key(character), Progress())


def _update(state: Advancement, name: str, **changes) -> Advancement:
    return Advancement({**state.progress, key(name): replace(state.of(name), **changes)})


# The event types apply folds; the world hands it no others.
TYPES = frozenset({"xp.awarded", "level.attained", "vow.sworn", "vow.abandoned", "vow.fulfilled"})


def apply(state: Advancement, e: Envelope) -> Advancement:
    p = e.payload
    if e.type == "xp.awarded":
        return _update(state, p["character"], xp=state.of(p["character"]).xp + p["amount"])
    if e.type == "level.attained":
        return _update(state, p["character"], level=p["level"])
    if e.type == "vow.sworn":
        return _update(state, p["character"], vow=p["vow"])
    if e.type == "vow.abandoned":
        return _update(state, p["character"], vow=None)
    if e.type == "vow.fulfilled":
        current = state.of(p["character"])
        return _update(state, p["character"], vow=None, vows_counted=current.vows_counted | {p["counted_in"]})
    return state
