"""What a calendar of another tool is converted into (the TOML calendar's
data, what could not be carried, the source's dated notes and "today"), and
the small conversions the three importers share."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any, Optional

from ledger.calendar import Months, months_spec
from ledger.errors import BadInput

SourceDate = tuple[int, str, int]  # (year, month or festival, day within it from 1)


@dataclass
class SourceNote:
    when: SourceDate
    title: str
    text: str
    source_id: str  # stable across imports: the source's own id, or the note's date and title


@dataclass
class Converted:
    source: str  # fantasy-calendar | simple-calendar | calendaria
    data: dict[str, Any]  # the TOML calendar's content
    lost: list[str] = field(default_factory=list)  # what could not be carried, one line each
    assumed: list[str] = field(default_factory=list)  # what the file leaves out, taken as its tool takes it
    notes: list[SourceNote] = field(default_factory=list)
    today: Optional[SourceDate] = None
    epoch: Optional[int] = None  # Fantasy-Calendar's own count of days for `today`

    @cached_property
    def spec(self) -> dict[str, Any]:
        return months_spec(self.data, self.source)

    @cached_property
    def calendar(self) -> Months:
        return Months(self.spec)

    def day_of(self, when: SourceDate) -> int:
        """The ledger's day number of a date in the source's terms."""
        return self.calendar.day_in(*when)

    def today_day(self) -> int:
        """The ledger's day number of the source's current date, or a refusal saying it is none."""
        try:
            return self.day_of(self.today)
        except BadInput:
            year, name, number = self.today
            raise BadInput(f"its current date, day {number} of {name} in {year}, is not a day of the calendar it "
                           f"describes: set the current date in {self.source} and export the calendar again") from None

    def stated_count_disagrees(self) -> Optional[str]:
        """Where the source states its own count of days for its today (Fantasy-
        Calendar's epoch, 0 on the first day of its first year) and tally counts
        that date otherwise: what each says, and which figure is tally's."""
        if self.today is None or self.epoch is None:
            return None
        day = self.today_day()
        if day - 1 == self.epoch:
            return None
        year, name, number = self.today
        return (f"its own day count {self.epoch} disagrees with its date {number} {name} {year}, which its "
                f"months and leap days make day count {day - 1}: tally keeps the date, as its day {day} (either "
                f"the file's count is stale, saved before the calendar changed, or tally reads the calendar "
                f"otherwise than {self.source}: check a date there)")


def plain(text: Any) -> str:
    """A name or note from a web tool: entities decoded, tags and line breaks gone."""
    # A tag holds no "<": so each "<" is looked past once, where "<[^>]+>" went to the end for every one.
    text = html.unescape(re.sub(r"<[^<>]*>", " ", str(text or "")))
    return " ".join(text.split())


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def decimal_text(value: Any) -> str:
    from commands.imports.calendar_bounds import decimal

    return str(decimal(value))


def common_year_day(months: list[dict], festivals: list[dict], doy: int) -> tuple[str, int]:
    """(month, day) of day-of-year ``doy`` (from 0) in a common year: for seasons
    a source counts in days. A day that falls on a festival moves to the next
    month's first day."""
    order: list[tuple[Optional[str], int]] = [(None, f["days"]) for f in festivals
                                              if f["after"] == "" and not f.get("leap")]
    for month in months:
        order.append((month["name"], month["days"]))
        order += [(None, f["days"]) for f in festivals if f["after"] == month["name"] and not f.get("leap")]
    if sum(days for _, days in order) < 1:
        raise BadInput("its months and festivals hold no days: a calendar needs a month of at least one day")
    doy %= sum(days for _, days in order)
    for i, (name, days) in enumerate(order):
        if doy < days:
            if name:
                return name, doy + 1
            following = [n for n, _ in order[i:] if n] or [months[0]["name"]]
            return following[0], 1
        doy -= days
    return months[0]["name"], 1
