"""Which events a query sees, on the three time axes (DESIGN.md §3).

A query pinned at an event position or a recorded instant sees only the
events recorded by then — and only the voids recorded by then, so a voided
figure still shows "as the ledger said it" before the void. Game time then
selects the facts that belong to days up to the date asked, folded in
(game_time, position) order so a fact logged late lands on its day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Optional

from ledger.envelope import Envelope

VOID = "ledger.voided"
SESSION_EDGES = ("session.opened", "session.closed")
SESSION_POINT = re.compile(r"(\d{1,9})(?::(start|end))?")


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
    at_session: Optional[str] = None  # N, N:start or N:end; see on_session

    def on_session(self, edges: Iterable[Envelope], what: str = "--at-session") -> "Pin":
        """The pin with --at-session made a position, from the campaign's
        session.opened and session.closed events."""
        from ledger.errors import BadInput

        if self.at_session is None:
            return self
        if self.at_event is not None:
            raise BadInput("give --at-event or --at-session, not both")
        number, edge = session_point(self.at_session, what)
        return replace(self, at_event=session_position(edges, number, edge), at_session=None)

    def resolve(self, calendar) -> Point:
        from ledger.clock import InstantOutOfRange, format_instant, parse_instant
        from ledger.errors import BadInput

        if self.at_event is not None and self.at_event < 0:
            raise BadInput("--at-event takes a position, 0 or more")
        instant = None
        if self.as_recorded is not None:
            try:
                instant = format_instant(parse_instant(self.as_recorded))
            except InstantOutOfRange:
                raise BadInput(f"{self.as_recorded!r} falls outside the years 1 to 9999 in UTC: give a time "
                               "within them") from None
            except ValueError:
                raise BadInput(f"cannot read {self.as_recorded!r} as a time: write it like "
                               "2026-11-01T21:30 (UTC), 2026-11-01T21:30:00Z or 2026-11-01T22:30+01:00") from None
        day = calendar.parse_or_day(self.as_of) if self.as_of is not None else None
        return Point(at_event=self.at_event, as_recorded=instant, as_of=day)


def session_point(text: str, what: str) -> tuple[int, str]:
    """N, N:start or N:end (N alone is the session's end: the campaign as it closed)."""
    from ledger.errors import BadInput

    match = SESSION_POINT.fullmatch(text.strip())
    if match is None:
        raise BadInput(f"cannot read {text!r} for {what}: write a session's number, N:start or N:end")
    return int(match.group(1)), match.group(2) or "end"


def session_position(edges: Iterable[Envelope], number: int, edge: str) -> int:
    """Where a session's start or end falls in the log: just before its
    session.opened (the campaign as the session began: before its Income), or
    at its session.closed (everything the close rolled and revealed included)."""
    from ledger.errors import NotFound

    edges = list(edges)
    wanted = SESSION_EDGES[0] if edge == "start" else SESSION_EDGES[1]
    found = next((e for e in edges if e.type == wanted and e.payload["number"] == number), None)
    if found is None:
        if edge == "end" and any(e.type == SESSION_EDGES[0] and e.payload["number"] == number for e in edges):
            raise NotFound(f"session {number} has not closed yet: pin it at {number}:start, or leave the "
                           "session out for now")
        if not any(e.payload["number"] == number for e in edges):
            raise NotFound(f"there is no session {number} in the ledger (`tally log --type session.opened` "
                           "lists the sessions)")
        raise NotFound(f"session {number} has no {edge} in the ledger (see `tally session show {number}`)")
    return found.position - 1 if edge == "start" else found.position


def recorded_zone(given: str) -> str:
    """What --as-recorded was read as, its zone said: the ledger's instants are UTC."""
    from ledger.clock import parse_instant

    moment = parse_instant(given)
    said = moment.strftime("%Y-%m-%d %H:%M:%S UTC")
    stated = given.strip()
    if stated.endswith("Z") or stated.endswith("+00:00"):
        return f"as recorded by {said}"
    from datetime import datetime

    if datetime.fromisoformat(stated).tzinfo is None:
        return f"as recorded by {said} (no zone given: read as UTC)"
    return f"as recorded by {said} ({stated} as given)"


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
