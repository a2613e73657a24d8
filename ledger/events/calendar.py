"""Game time moving on (DESIGN.md §5)."""

from typing import ClassVar, Literal, Optional

from ledger.events.registry import EventModel, register


@register
class CalendarAdvanced(EventModel):
    type: Literal["calendar.advanced"] = "calendar.advanced"
    schema_version: ClassVar[int] = 2
    from_day: int
    to_day: int
    days: int
    why: str
    run: Optional[str] = None  # the scheduled run that recorded it (job id and real date)
    # Schema 2: the span as asked (1m, 1y: the same date then), and what became
    # of a date the target month or year lacks (the 31st, a leap day).
    span: Optional[str] = None
    note: Optional[str] = None


@register
class ScheduleAdded(EventModel):
    """A real-time job (DESIGN.md §5). The ledger holds what the job means;
    APScheduler's job store, in the same database, only says when to run it."""

    type: Literal["schedule.added"] = "schedule.added"
    job: str
    kind: str  # advance-daily | remind
    anchor_date: str  # the real date the job counts from (ISO)
    anchor_day: int  # the in-game day at the anchor
    text: Optional[str] = None


@register
class ScheduleRemoved(EventModel):
    type: Literal["schedule.removed"] = "schedule.removed"
    job: str


@register
class ReminderDue(EventModel):
    type: Literal["schedule.reminder"] = "schedule.reminder"
    job: str
    text: str
    run: str


@register
class NoteRecorded(EventModel):
    """A dated note of the campaign: a referee's record of what happened that
    day, typed or brought in from another tool's calendar (its id there, so a
    second import adds nothing)."""

    type: Literal["note.recorded"] = "note.recorded"
    title: str
    text: str = ""
    source: Optional[str] = None
    source_id: Optional[str] = None
