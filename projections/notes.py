"""The campaign's dated notes (note.recorded), in the order of its days.

Typed with `tally note add` or brought in by `tally calendar import`; a voided
note is gone, and a point in time sees the notes recorded by then and, with an
in-game date, those of that day and before."""

from __future__ import annotations

from typing import Optional

from projections.timeline import visible

TYPE = "note.recorded"


def notes_view(ctx, search: Optional[str] = None) -> dict:
    """Every note in force at the context's point, oldest day first; with
    ``search``, those whose title or text holds it (any case)."""
    calendar = ctx.campaign.calendar
    held = ctx.events(types=[TYPE, "ledger.voided"])
    rows = []
    needle = search.casefold() if search else None
    for e in visible(held, ctx.point):
        if e.type != TYPE:
            continue
        title, text = e.payload["title"], e.payload.get("text") or ""
        if needle and needle not in title.casefold() and needle not in text.casefold():
            continue
        rows.append({"event": e.position, "date": calendar.format(e.game_time), "day": e.game_time,
                     "title": title, "text": text, "source": e.payload.get("source"), "session": e.session,
                     "by": e.actor})
    return {"campaign": ctx.name, "notes": rows}
