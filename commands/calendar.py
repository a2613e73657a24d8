"""Advancing the campaign's calendar: game time never runs backwards here;
a fact that belongs to an earlier day is logged late with --game-date."""

from __future__ import annotations

import re
from typing import Optional

from commands.base import clean_text, record
from projections.reading import Context
from ledger.envelope import NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.calendar import CalendarAdvanced

SPAN = re.compile(r"(\d+)\s*([dwmy])")
# Past any calendar's last day, so refused by range; never a thousand-digit conversion.
TOO_FAR = 10 ** 7


def span_end(text: str, calendar, start: int) -> tuple[int, Optional[str]]:
    """The day ``3d``, ``2w``, ``1m`` or ``1y`` after ``start``, and a note when
    the date does not exist there. A month or a year keeps the date: 1024-01-31
    + 1m is the last day of February, and the note says so."""
    match = SPAN.fullmatch(text.strip().lower())
    if not match:
        raise BadInput(f"cannot read {text!r} as a span: write 3d, 2w, 1m or 1y")
    digits, unit = match.group(1).lstrip("0") or "0", match.group(2)
    count = int(digits) if len(digits) <= 7 else TOO_FAR
    if count < 1:
        raise BadInput("advance by at least one day: game time never runs backwards")
    if unit in "dw":
        return start + count * (7 if unit == "w" else 1), None
    if count >= TOO_FAR:
        return start + TOO_FAR, None
    return calendar.add_years(start, count) if unit == "y" else calendar.add_months(start, count)


def advance(store, campaign, span: str, *, why: str, actor: str):
    why = clean_text(why, "--why")

    def decide(ctx: Context) -> list[NewEvent]:
        calendar, start = ctx.campaign.calendar, ctx.today
        if ctx.session is not None:
            raise RuleRefused(f"session {ctx.session.number} is open: its close sets the date it ends on")
        end, note = span_end(span, calendar, start)
        calendar.check_day(end, f"{span.strip()} after {calendar.format(start)}")
        return [NewEvent("calendar", CalendarAdvanced(from_day=start, to_day=end, days=end - start, why=why,
                                                      span=span.strip().lower().replace(" ", ""), note=note),
                         game_time=end)]

    return record(store, campaign, actor, decide)


def import_notes(store, campaign, converted, *, actor: str) -> tuple[list, int]:
    """The source calendar's dated notes as note.recorded events on their days,
    in a campaign whose calendar is the one converted; (recorded, already held)."""
    from ledger.events.calendar import NoteRecorded

    spec = converted.spec
    held = 0

    def decide(ctx: Context) -> list[NewEvent]:
        nonlocal held
        mine = {k: v for k, v in ctx.campaign.calendar_spec.items() if k != "name"}
        if mine != {k: v for k, v in spec.items() if k != "name"}:
            raise RuleRefused(f"campaign {ctx.name} does not run this calendar: create the campaign with "
                              "--calendar FILE.toml written by `tally calendar import … --out FILE.toml`")
        calendar = ctx.campaign.calendar
        already = {e.payload.get("source_id") for e in ctx.events(types=["note.recorded"])}
        dated = sorted(((converted.day_of(n.when), n) for n in converted.notes), key=lambda d: d[0])
        early = [(day, n) for day, n in dated if day < ctx.campaign.start]
        if early:
            raise RuleRefused(f"{len(early)} note(s) fall before the campaign began on "
                              f"{calendar.format(ctx.campaign.start)}, the first on {calendar.format(early[0][0])}: "
                              "begin the campaign on or before it; nothing was written")
        events = []
        for day, note in dated:
            if note.source_id in already:
                held += 1
                continue
            events.append(NewEvent("notes", NoteRecorded(title=clean_text(note.title, "a note's title", 200),
                                                         text=clean_text(note.text, "a note", 500) if note.text else "",
                                                         source=converted.source, source_id=note.source_id),
                                   game_time=day))
        return events

    return record(store, campaign, actor, decide), held
