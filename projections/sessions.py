"""The sessions read model: which session is open, who is activated, its
treasure, and whether play has begun (retirement is allowed only before)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from ledger.envelope import Envelope
from projections.names import key

# What a session's opening logs by itself; anything else means play has begun.
OPENING = {"session.opened", "income.rolled", "dice.committed", "dice.revealed", "dice.client_seed_set",
           "treasure.set_aside_paid", "character.retired", "player.added", "character.created"}


@dataclass(frozen=True)
class Session:
    number: int
    start: int
    activated: dict[str, str]  # player key -> character name
    end: Optional[int] = None
    opened_at: int = 0
    found: int = 0
    divided: int = 0
    deaths: tuple[str, ...] = ()  # character names, in order
    income_rolls: frozenset[int] = frozenset()
    play_positions: tuple[int, ...] = ()

    @property
    def open(self) -> bool:
        return self.end is None

    @property
    def undivided(self) -> int:
        return self.found - self.divided

    @property
    def play_started(self) -> bool:
        return any(p not in self.income_rolls for p in self.play_positions)

    def is_activated(self, character: str) -> bool:
        return key(character) in {key(c) for c in self.activated.values()}


@dataclass(frozen=True)
class Sessions:
    sessions: tuple[Session, ...] = ()

    @property
    def current(self) -> Optional[Session]:
        return self.sessions[-1] if self.sessions and self.sessions[-1].open else None

    @property
    def next_number(self) -> int:
        return len(self.sessions) + 1

    def get(self, number: int) -> Optional[Session]:
        return next((s for s in self.sessions if s.number == number), None)

    def back_on(self, character: str) -> Optional[int]:
        """The day the character came back from its latest expedition (its own
        "now" at an open table), or None if it has played none."""
        ends = [s.end for s in self.sessions if s.end is not None and s.is_activated(character)]
        return max(ends) if ends else None


def _update_current(state: Sessions, **changes) -> Sessions:
    return Sessions(state.sessions[:-1] + (replace(state.sessions[-1], **changes),))


def apply(state: Sessions, e: Envelope) -> Sessions:
    p = e.payload
    if e.type == "session.opened":
        return Sessions(state.sessions + (Session(p["number"], p["start"], dict(p["activated"]),
                                                  opened_at=e.position),))
    current = state.current
    if current is None or e.session != current.number:
        return state
    if e.type == "session.closed":
        return _update_current(state, end=p["end"])
    if e.type == "treasure.found":
        state = _update_current(state, found=current.found + p["cash"])
    elif e.type == "treasure.divided":
        state = _update_current(state, divided=current.divided + p["total"])
    elif e.type == "character.died":
        state = _update_current(state, deaths=current.deaths + (p["name"],))
    elif e.type == "income.rolled" and e.cause is not None:
        state = _update_current(state, income_rolls=current.income_rolls | {e.cause})
    current = state.current
    if e.type not in OPENING:
        state = _update_current(state, play_positions=current.play_positions + (e.position,))
    return state
