"""Game time moving on (DESIGN.md §5)."""

from typing import Literal

from ledger.events.registry import EventModel, register


@register
class CalendarAdvanced(EventModel):
    type: Literal["calendar.advanced"] = "calendar.advanced"
    from_day: int
    to_day: int
    days: int
    why: str
