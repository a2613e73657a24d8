"""`tally note add`: a referee's dated note on the campaign's timeline.

The same note.recorded event a calendar import brings in (commands/
calendar.py), typed at the table: what happened that day, in the referee's
words. It is a fact of the campaign like any other: recorded on today's date,
or late with --game-date, and withdrawn with `tally void`."""

from __future__ import annotations

from typing import Optional

from commands.base import clean_text, record_one
from projections.reading import Context
from ledger.envelope import Envelope, NewEvent
from ledger.events.calendar import NoteRecorded
from ledger.store import Store

# The limits a calendar import already keeps to (a title, a note's text).
TITLE_LIMIT, TEXT_LIMIT = 200, 500
STREAM = "notes"


def add(store: Store, campaign: Optional[str], title: str, text: str = "", *, actor: str,
        game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    title = clean_text(title, "a note's title", TITLE_LIMIT)
    text = clean_text(text, "a note", TEXT_LIMIT) if text else ""

    def decide(ctx: Context) -> NewEvent:
        return NewEvent(STREAM, NoteRecorded(title=title, text=text), game_time=ctx.today)

    return record_one(store, campaign, actor, decide, game_date=game_date, ruling=ruling)
