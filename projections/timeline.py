"""Which events a query sees, on the three time axes (DESIGN.md §3).

A query pinned at an event position or a recorded instant sees only the
events recorded by then — and only the voids recorded by then, so a voided
figure still shows "as the ledger said it" before the void. Game time then
selects the facts that belong to days up to the date asked, folded in
(game_time, position) order so a fact logged late lands on its day.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from ledger.envelope import Envelope

VOID = "ledger.voided"


@dataclass(frozen=True)
class Point:
    at_event: Optional[int] = None
    as_recorded: Optional[str] = None  # canonical instant string
    as_of: Optional[int] = None  # game day

    def recorded_by(self, envelope: Envelope) -> bool:
        return ((self.at_event is None or envelope.position <= self.at_event)
                and (self.as_recorded is None or envelope.recorded_at <= self.as_recorded))


NOW = Point()


@dataclass(frozen=True)
class Pin:
    """A point as the user gave it: the game date is read in the campaign's
    own calendar, the recorded instant as ISO 8601 (UTC if no zone)."""

    at_event: Optional[int] = None
    as_of: Optional[str] = None
    as_recorded: Optional[str] = None

    def resolve(self, calendar) -> Point:
        from ledger.clock import format_instant, parse_instant
        from ledger.errors import BadInput

        if self.at_event is not None and self.at_event < 0:
            raise BadInput("--at-event takes a position, 0 or more")
        instant = None
        if self.as_recorded is not None:
            try:
                instant = format_instant(parse_instant(self.as_recorded))
            except ValueError:
                raise BadInput(f"cannot read {self.as_recorded!r} as a time: write it like "
                               "2026-11-01T21:30 or 2026-11-01T21:30:00Z") from None
        day = calendar.parse_or_day(self.as_of) if self.as_of is not None else None
        return Point(at_event=self.at_event, as_recorded=instant, as_of=day)


def recorded(envelopes: Iterable[Envelope], point: Point = NOW) -> list[Envelope]:
    """Everything the ledger held at the point, voids included, in position order."""
    return [e for e in envelopes if point.recorded_by(e)]


def voided_positions(envelopes: Iterable[Envelope]) -> set[int]:
    return {e.payload["target"] for e in envelopes if e.type == VOID}


def visible(envelopes: Iterable[Envelope], point: Point = NOW) -> list[Envelope]:
    """The facts in force at the point, in fold order (game_time, position)."""
    held = recorded(envelopes, point)
    withdrawn = voided_positions(held)
    facts = [e for e in held if e.type != VOID and e.position not in withdrawn
             and (point.as_of is None or e.game_time <= point.as_of)]
    facts.sort(key=lambda e: (e.game_time, e.position))
    return facts
