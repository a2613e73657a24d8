"""A calendar from another tool, converted: the TOML a campaign can be
created with, what it could not carry, the source's own dated notes, and
the source's "today" (with Fantasy-Calendar's day count, the epoch, for a
check of the arithmetic).

Each source module turns its file into the plain data a TOML calendar file
holds (``ledger.calendar.months_spec`` reads it), with dates still in the
source's terms: (year, the month or festival's name, the day counted within
it, festival days inside a month included, as the source counts)."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from decimal import Decimal
from typing import Any, Optional

from ledger.calendar import Months, months_spec
from ledger.errors import BadInput
from ledger.imports import json_input
from ledger.imports.source_file import read_text

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


def read(path: str) -> Converted:
    """Read a calendar file of any of the three tools (told apart by their shape),
    within the bounds of json_input.py and calendar_bounds.py."""
    text = read_text(path, "calendar file")
    try:
        with json_input.budget(f"calendar file {path}"):
            data = json_input.loads(text)  # a moon's 29.530588853 stays exactly that (a Decimal)
    except json.JSONDecodeError as exc:
        raise BadInput(f"calendar file {path} is not JSON (line {exc.lineno}): export it from its tool as JSON") from None
    except ValueError as exc:
        raise BadInput(f"calendar file {path} cannot be read: {exc}") from None
    from ledger.imports import calendar_bounds, calendaria, fantasy_calendar, simple_calendar

    calendar_bounds.check_sizes(data, path)
    for module in (fantasy_calendar, simple_calendar, calendaria):
        try:
            if not (isinstance(data, dict) and module.recognises(data)):
                continue
            converted = module.convert(data)
            calendar_bounds.check_converted(converted.data)
            converted.spec  # checked here: a calendar that is none is refused before anything is written
            return converted
        except BadInput as exc:  # said of the calendar (by its tool's name, where months_spec said it): of this file
            said = re.sub(r"^calendar file [^:]*: ", "", str(exc))
            raise BadInput(f"calendar file {path} ({module.NAME}): {said}") from None
        except _MALFORMED as exc:
            raise BadInput(f"calendar file {path} looks like a {module.NAME} calendar but lacks what one "
                           f"holds ({exc.__class__.__name__}: {exc}); export it again") from None
    raise BadInput(f"calendar file {path} is not a Fantasy-Calendar, Simple Calendar or Calendaria calendar: "
                   "export one of those as JSON")


# What a file that is not quite what its tool writes makes the conversion raise.
_MALFORMED = (KeyError, TypeError, IndexError, AttributeError, ValueError, ArithmeticError)


def plain(text: Any) -> str:
    """A name or note from a web tool: entities decoded, tags and line breaks gone."""
    # A tag holds no "<": so each "<" is looked past once, where "<[^>]+>" went to the end for every one.
    text = html.unescape(re.sub(r"<[^<>]*>", " ", str(text or "")))
    return " ".join(text.split())


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def decimal_text(value: Any) -> str:
    from ledger.imports.calendar_bounds import decimal

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


def to_toml(data: dict[str, Any]) -> str:
    """The TOML text of a calendar's data: plain keys first, then arrays of tables."""
    lines, tables = [], []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            tables.append((key, value))
        elif value is not None and value != []:
            lines.append(f"{key} = {_value(value)}")
    for key, entries in tables:
        for entry in entries:
            lines += ["", f"[[{key}]]"] + [f"{k} = {_value(v)}" for k, v in entry.items() if v is not None]
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string
