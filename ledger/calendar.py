"""Campaign calendars: game time is a day number; each calendar prints and
parses it in its own words.

The calendar's full definition is recorded in ``campaign.created``, so a
campaign never depends on a file that may change later.

* ``gregorian``: day n is the proleptic Gregorian ordinal (1 = 0001-01-01);
  dates print as ISO (``1024-03-01``) and parse as ISO or ``1 March 1024``.
* ``bifrost``: a 52-week year of 364 days (seed 001 l.2935-2939), seasons of
  14, 12, 14 and 12 weeks; day 1 is day 1 of week 1 of year 1. Dates print
  as ``day 3 of week 12, 1024`` and parse as that or ``1024-W12-3``.
* a TOML file: months with their lengths and an optional week of named days
  (``tally campaign new … --calendar harn.toml``).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ledger.errors import BadInput

BIFROST_SEASONS = [["Spring", 14], ["Summer", 12], ["Autumn", 14], ["Winter", 12]]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July",
           "August", "September", "October", "November", "December"]


class Calendar:
    spec: dict[str, Any]

    def parse(self, text: str) -> int:
        raise NotImplementedError

    def format(self, day: int) -> str:
        raise NotImplementedError

    def parse_or_day(self, text: str) -> int:
        """A date in the calendar's words, or ``day:N`` for a raw day number."""
        text = text.strip()
        if re.fullmatch(r"day:\d+", text):
            return int(text[4:])
        return self.parse(text)

    def _refuse(self, text: str, examples: str) -> BadInput:
        return BadInput(f"cannot read {text!r} as a {self.spec['kind']} date: write it like {examples}")


@dataclass
class Gregorian(Calendar):
    spec: dict[str, Any]

    def parse(self, text: str) -> int:
        text = text.strip()
        try:
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
                return date.fromisoformat(text).toordinal()
            match = re.fullmatch(r"(\d{1,2})\s+([A-Za-z]+)\s+(\d{1,4})", text)
            if match:
                month = _month_index(match.group(2))
                if month:
                    return date(int(match.group(3)), month, int(match.group(1))).toordinal()
        except ValueError:
            pass
        raise self._refuse(text, "1024-03-01 or 1 March 1024")

    def format(self, day: int) -> str:
        return date.fromordinal(day).isoformat()

    year_days = 365


@dataclass
class Bifrost(Calendar):
    spec: dict[str, Any]
    YEAR = year_days = 364

    def parse(self, text: str) -> int:
        text = text.strip()
        words = re.fullmatch(r"day\s+(\d)\s+of\s+week\s+(\d{1,2}),?\s+(\d{1,5})", text, re.I)
        compact = re.fullmatch(r"(\d{1,5})-W(\d{1,2})-(\d)", text, re.I)
        parts = words.groups() if words else compact.groups()[::-1] if compact else None
        if parts:
            weekday, week, year = (int(g) for g in parts)
            if 1 <= weekday <= 7 and 1 <= week <= 52 and year >= 1:
                return (year - 1) * self.YEAR + (week - 1) * 7 + weekday
        raise self._refuse(text, "'day 3 of week 12, 1024' or 1024-W12-3")

    def format(self, day: int) -> str:
        year, doy = divmod(day - 1, self.YEAR)
        return f"day {doy % 7 + 1} of week {doy // 7 + 1}, {year + 1}"

    def season(self, day: int) -> str:
        week = (day - 1) % self.YEAR // 7 + 1
        for name, weeks in self.spec["seasons"]:
            if week <= weeks:
                return name
            week -= weeks
        raise AssertionError("seasons do not cover 52 weeks")


@dataclass
class Months(Calendar):
    """A calendar of named months of fixed length, from a TOML file."""

    spec: dict[str, Any]

    @property
    def year_length(self) -> int:
        return sum(days for _, days in self.spec["months"])

    @property
    def year_days(self) -> int:
        return self.year_length

    def parse(self, text: str) -> int:
        match = re.fullmatch(r"(\d{1,3})\s+(.+?)\s+(-?\d{1,6})", text.strip())
        if match:
            day, name, year = int(match.group(1)), match.group(2).lower(), int(match.group(3))
            before = 0
            for month, days in self.spec["months"]:
                if month.lower() == name and 1 <= day <= days:
                    return (year - self.spec["first_year"]) * self.year_length + before + day
                before += days
        first = self.spec["months"][0][0]
        raise self._refuse(text, f"'3 {first} {self.spec['first_year']}'")

    def format(self, day: int) -> str:
        year, doy = divmod(day - 1, self.year_length)
        for month, days in self.spec["months"]:
            if doy < days:
                return f"{doy + 1} {month} {year + self.spec['first_year']}"
            doy -= days
        raise AssertionError("unreachable")


def _month_index(name: str) -> int:
    for i, month in enumerate(_MONTHS, 1):
        if month.lower().startswith(name.lower()) and len(name) >= 3:
            return i
    return 0


def spec_for(choice: str) -> dict[str, Any]:
    """The calendar definition to record for ``--calendar``."""
    if choice == "gregorian":
        return {"kind": "gregorian"}
    if choice == "bifrost":
        return {"kind": "bifrost", "seasons": BIFROST_SEASONS}
    path = Path(choice)
    if path.suffix != ".toml":
        raise BadInput(f"unknown calendar {choice!r}: use gregorian, bifrost or a FILE.toml")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadInput(f"cannot read calendar file {choice}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"calendar file {choice} is not valid TOML: {exc}") from None
    return _months_spec(data, choice)


def _months_spec(data: dict[str, Any], source: str) -> dict[str, Any]:
    months = data.get("months")
    if not isinstance(months, list) or not months:
        raise BadInput(f"calendar file {source} needs [[months]] entries with name and days")
    spec_months = []
    for i, month in enumerate(months, 1):
        name, days = month.get("name"), month.get("days")
        if not isinstance(name, str) or not name.strip() or not isinstance(days, int) or days < 1:
            raise BadInput(f"calendar file {source}: month {i} needs a name and a whole number of days ≥ 1")
        spec_months.append([name.strip(), days])
    first_year = data.get("first_year", 1)
    if not isinstance(first_year, int):
        raise BadInput(f"calendar file {source}: first_year must be a whole number")
    return {"kind": "months", "name": str(data.get("name", Path(source).stem)),
            "months": spec_months, "first_year": first_year}


def calendar_from_spec(spec: dict[str, Any]) -> Calendar:
    kinds = {"gregorian": Gregorian, "bifrost": Bifrost, "months": Months}
    return kinds[spec["kind"]](spec)
