"""A stretch of a campaign that a report covers: one session, or the days
from one game date to another (the luck report, the recap). Bad input is
refused here, in one line, before anything is read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ledger.envelope import Envelope
from ledger.errors import BadInput, NotFound
from projections.timeline import VOID


@dataclass(frozen=True)
class Span:
    kind: str  # "session", "dates" or "campaign" (no range given)
    first: int  # the first game day covered
    last: int  # the last game day covered (an open session's: today)
    session: Optional[int] = None
    # A session's events are those recorded while it was open: positions after..upto.
    after: int = 0
    upto: Optional[int] = None

    def as_dict(self, calendar) -> dict:
        return {"kind": self.kind, "session": self.session, "from": calendar.format(self.first),
                "to": calendar.format(self.last), "from_day": self.first, "to_day": self.last}

    def label(self, calendar) -> str:
        if self.kind == "session":
            return f"session {self.session}"
        if self.first == self.last:
            return calendar.format(self.first)
        return f"{calendar.format(self.first)} to {calendar.format(self.last)}"


def span_of(ctx, session: Optional[int] = None, start: Optional[str] = None, end: Optional[str] = None,
            *, required: bool = False, command: str = "this report") -> Span:
    """The stretch asked for: ``--session N``, or ``--from D`` and/or ``--to D`` (either alone runs
    from the campaign's start or to today); nothing at all is the whole campaign, unless ``required``."""
    calendar, campaign = ctx.campaign.calendar, ctx.campaign
    if session is not None and (start is not None or end is not None):
        raise BadInput(f"{command} covers one session or a stretch of days: give --session, or --from/--to, "
                       "not both")
    if session is not None:
        return _session_span(ctx, session)
    if start is None and end is None:
        if required:
            raise BadInput(f"{command} needs a stretch: --session N, or --from DATE --to DATE")
        return Span("campaign", campaign.start, campaign.today)
    first = calendar.parse_or_day(start) if start is not None else campaign.start
    last = calendar.parse_or_day(end) if end is not None else campaign.today
    for day, option in ((first, "--from"), (last, "--to")):
        if not campaign.start <= day <= campaign.today:
            raise BadInput(f"{option} {calendar.format(day)} is outside the campaign: it runs from "
                           f"{calendar.format(campaign.start)} to {calendar.format(campaign.today)} (today)")
    if first > last:
        raise BadInput(f"--from {calendar.format(first)} is after --to {calendar.format(last)}: "
                       "give the earlier date first")
    return Span("dates", first, last)


def _session_span(ctx, number: int) -> Span:
    sessions = ctx.world.sessions
    found = sessions.get(number) if number >= 1 else None
    if found is None:
        latest = sessions.next_number - 1
        known = f"sessions run from 1 to {latest}" if latest else "no session has been opened yet"
        raise NotFound(f"there is no session {number} in campaign {ctx.name} ({known})")
    following = sessions.get(number + 1)
    upto = min(ctx.upto, following.opened_at - 1) if following is not None else ctx.upto
    last = found.end if found.end is not None else ctx.campaign.today
    return Span("session", found.start, last, session=number, after=found.opened_at - 1, upto=upto)


def events_in(ctx, span: Span, types: Sequence[str]) -> list[Envelope]:
    """The events of ``types`` the span covers and no void withdrew (as the point sees them), in
    game-date order: (game day, position), as the campaign folds them."""
    voided = {e.payload["target"] for e in ctx.tx.read(ctx.name, upto=ctx.upto, types=[VOID])}
    if span.kind == "session":
        found = ctx.tx.read(ctx.name, after=span.after, upto=span.upto, types=list(types), session=span.session)
    else:
        found = ctx.tx.read(ctx.name, upto=ctx.upto, types=list(types), from_day=span.first, until_day=span.last)
    kept = [e for e in found if e.position not in voided
            and (ctx.point.as_of is None or e.game_time <= ctx.point.as_of)]
    return sorted(kept, key=lambda e: (e.game_time, e.position))
