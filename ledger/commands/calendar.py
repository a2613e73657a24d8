"""Advancing the campaign's calendar: game time never runs backwards here;
a fact that belongs to an earlier day is logged late with --game-date."""

from __future__ import annotations

import re

from ledger.commands.base import Context, clean_text, record
from ledger.envelope import NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.calendar import CalendarAdvanced

SPAN = re.compile(r"(\d+)\s*([dwy])")


def span_days(text: str, year_days: int) -> int:
    """``3d``, ``2w``, ``1y`` (a year is the calendar's own)."""
    match = SPAN.fullmatch(text.strip().lower())
    if not match:
        raise BadInput(f"cannot read {text!r} as a span: write 3d, 2w or 1y")
    digits, unit = match.group(1).lstrip("0") or "0", match.group(2)
    count = int(digits) if len(digits) <= 20 else 10 ** 20  # past any calendar's last day: refused by range
    return count * {"d": 1, "w": 7, "y": year_days}[unit]


def advance(store, campaign, span: str, *, why: str, actor: str):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        days = span_days(span, ctx.campaign.calendar.year_days)
        if days < 1:
            raise BadInput("advance by at least one day: game time never runs backwards")
        if ctx.session is not None:
            raise RuleRefused(f"session {ctx.session.number} is open: its close sets the date it ends on")
        start = ctx.today
        ctx.campaign.calendar.check_day(start + days, f"{span.strip()} after {ctx.campaign.calendar.format(start)}")
        return [NewEvent("calendar", CalendarAdvanced(from_day=start, to_day=start + days, days=days, why=why),
                         game_time=start + days)]

    return record(store, campaign, actor, decide)
