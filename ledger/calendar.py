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
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Optional

from ledger.errors import BadInput
from ledger.text import check_name

BIFROST_SEASONS = [["Spring", 14], ["Summer", 12], ["Autumn", 14], ["Winter", 12]]
# Game time is a day number from 1 (the first day of the calendar's first
# year) to MAX_DAY: 9999-12-31 in the Gregorian calendar, some ten thousand
# years in the others, and well inside the 32-bit game_time column.
MIN_DAY, MAX_DAY = 1, 3_652_059
_DAY_NUMBER = re.compile(r"day:(\d+)")

_MONTHS = ["January", "February", "March", "April", "May", "June", "July",
           "August", "September", "October", "November", "December"]


class Calendar:
    spec: dict[str, Any]

    def parse(self, text: str) -> int:
        raise NotImplementedError

    def format(self, day: int) -> str:
        raise NotImplementedError

    def parse_or_day(self, text: str) -> int:
        """A date in the calendar's words, or ``day:N`` for a raw day number,
        within the days a ledger keeps (or a refusal that states them)."""
        text = text.strip()
        raw = _DAY_NUMBER.fullmatch(text)
        if raw:
            digits = raw.group(1).lstrip("0") or "0"
            day = int(digits) if len(digits) <= 20 else MAX_DAY + 1  # never convert a thousand digits
            return self.check_day(day, f"day:{digits if len(digits) <= 20 else digits[:20] + '…'}")
        return self.check_day(self.parse(text), repr(text))

    def check_day(self, day: int, what: str) -> int:
        """``day`` if a ledger can hold it, else a refusal stating the range."""
        if not MIN_DAY <= day <= MAX_DAY:
            raise BadInput(f"{what} is outside the days a ledger keeps: day:{MIN_DAY} to day:{MAX_DAY} "
                           f"({self.format(MIN_DAY)} to {self.format(MAX_DAY)})")
        return day

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
        if not MIN_DAY <= day <= MAX_DAY:  # beyond the proleptic Gregorian calendar's years 1-9999
            return f"day:{day}"
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
    """A calendar from a TOML file: named months of fixed length, optional
    intercalary days that belong to no month or week (some only in leap
    years), an optional week of named days, seasons, year numbering.

    Day 1 is the first day of ``first_year``. A year's layout is its months
    in order, each followed by the intercalary days placed after it (``after
    = ""`` places one before the first month)."""

    spec: dict[str, Any]

    def _layout(self, leap: bool) -> list[tuple[str, int, bool]]:
        """(name, days, is_month) segments of a year."""
        out = [(name, 1, False) for name, after, only_leap in self.spec["intercalary"]
               if after == "" and (leap or not only_leap)]
        for month, days in self.spec["months"]:
            out.append((month, days, True))
            out += [(name, 1, False) for name, after, only_leap in self.spec["intercalary"]
                    if after == month and (leap or not only_leap)]
        return out

    def is_leap(self, year: int) -> bool:
        every = self.spec.get("leap_every") or 0
        return bool(every) and year % every == 0

    def year_length_of(self, year: int) -> int:
        return sum(days for _, days, _ in self._layout(self.is_leap(year)))

    @property
    def year_days(self) -> int:
        return self.year_length_of(self.spec["first_year"] + 1 if self.is_leap(self.spec["first_year"])
                                   else self.spec["first_year"])

    @property
    def year_length(self) -> int:
        return self.year_days

    def _leaps_between(self, first: int, year: int) -> int:
        """Leap years in [first, year)."""
        every = self.spec.get("leap_every") or 0
        if not every:
            return 0
        return (year - 1) // every - (first - 1) // every

    def _year_start(self, year: int) -> int:
        """Day number of the first day of ``year``."""
        first = self.spec["first_year"]
        base = self.year_length_of(first) if not self.is_leap(first) else self.year_length_of(first + 1)
        extra = sum(1 for _, _, only_leap in self.spec["intercalary"] if only_leap)
        return (year - first) * base + extra * self._leaps_between(first, year) + 1

    def _locate(self, day: int) -> tuple[int, int]:
        """(year, day of year from 0)."""
        first = self.spec["first_year"]
        year = first + (day - 1) // max(1, self.year_length_of(first))
        while self._year_start(year) > day:
            year -= 1
        while self._year_start(year + 1) <= day:
            year += 1
        return year, day - self._year_start(year)

    def parts(self, day: int) -> dict[str, Any]:
        year, doy = self._locate(day)
        for name, days, is_month in self._layout(self.is_leap(year)):
            if doy < days:
                return {"year": year, "segment": name, "day": doy + 1 if is_month else None, "month": is_month}
            doy -= days
        raise AssertionError("a day beyond its year")

    def format(self, day: int) -> str:
        p = self.parts(day)
        return f"{p['day']} {p['segment']} {p['year']}" if p["month"] else f"{p['segment']} {p['year']}"

    def parse(self, text: str) -> int:
        text = text.strip()
        dated = re.fullmatch(r"(\d{1,3})\s+(.+?)\s+(-?\d{1,6})", text)
        named = re.fullmatch(r"(.+?)\s+(-?\d{1,6})", text)
        for match, has_day in ((dated, True), (named, False)):
            if not match:
                continue
            day = int(match.group(1)) if has_day else None
            name, year = match.group(2 if has_day else 1).lower(), int(match.group(3 if has_day else 2))
            offset = 0
            for segment, days, is_month in self._layout(self.is_leap(year)):
                if segment.lower() == name and is_month == has_day and (not has_day or 1 <= day <= days):
                    return self._year_start(year) + offset + (day - 1 if has_day else 0)
                offset += days
        first = self.spec["months"][0][0]
        raise self._refuse(text, f"'3 {first} {self.spec['first_year']}'")

    def weekday(self, day: int) -> Optional[str]:
        """The day's name in the week, or None on an intercalary day (or with no week)."""
        names = self.spec.get("week") or []
        if not names or not self.parts(day)["month"]:
            return None
        year, doy = self._locate(day)
        # Week days before this one: every day since day 1 less the intercalary ones.
        first = self.spec["first_year"]
        intercalary = sum(sum(1 for _, _, m in self._layout(self.is_leap(y)) if not m) for y in range(first, year))
        before = 0
        for _, days, is_month in self._layout(self.is_leap(year)):
            if doy < days:
                break
            before += 0 if is_month else 1
            doy -= days
        return names[(day - 1 - intercalary - before) % len(names)]

    def season(self, day: int) -> Optional[str]:
        seasons = self.spec.get("seasons") or []
        if not seasons:
            return None
        year, doy = self._locate(day)
        current = seasons[-1][0]  # the last season runs on into the next year
        for segment, days, is_month in self._layout(self.is_leap(year)):
            current = next((name for name, start in seasons if is_month and start == segment), current)
            if doy < days:
                return current
            doy -= days
        return current


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
    import tomllib  # only for a calendar file: not on every command's path

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadInput(f"cannot read calendar file {choice}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"calendar file {choice} is not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise BadInput(f"calendar file {choice} is not UTF-8 text") from None
    except ValueError:  # a path with a NUL in it
        raise BadInput(f"cannot read calendar file {choice!r}: not a file name") from None
    return _months_spec(data, choice)


def _months_spec(data: dict[str, Any], source: str) -> dict[str, Any]:
    def refuse(what: str) -> BadInput:
        return BadInput(f"calendar file {source}: {what}")

    months = data.get("months")
    if not isinstance(months, list) or not months:
        raise refuse("needs [[months]] entries with name and days")
    spec_months = []
    for i, month in enumerate(months, 1):
        name, days = (month.get("name"), month.get("days")) if isinstance(month, dict) else (None, None)
        if not isinstance(name, str) or not name.strip() or not isinstance(days, int) or days < 1:
            raise refuse(f"month {i} needs a name and a whole number of days ≥ 1")
        spec_months.append([name.strip(), days])
    names = [m for m, _ in spec_months]
    if len(set(n.lower() for n in names)) != len(names):
        raise refuse("two months share a name")
    intercalary = []
    for i, extra in enumerate(_entries(data, "intercalary", source), 1):
        name, after = (extra.get("name"), extra.get("after", "")) if isinstance(extra, dict) else (None, None)
        if not isinstance(name, str) or not name.strip() or (after and after not in names):
            raise refuse(f"intercalary day {i} needs a name and `after` naming a month (or \"\" for the year's start)")
        intercalary.append([name.strip(), after, bool(extra.get("leap", False))])
    leap_every = data.get("leap_every", 0)
    if not isinstance(leap_every, int) or leap_every < 0:
        raise refuse("leap_every must be a whole number of years (0: no leap years)")
    if any(leap for _, _, leap in intercalary) and not leap_every:
        raise refuse("a leap day needs leap_every")
    week = data.get("week", [])
    if not isinstance(week, list) or not all(isinstance(d, str) and d.strip() for d in week):
        raise refuse("week must be a list of day names")
    seasons = []
    for i, season in enumerate(_entries(data, "seasons", source), 1):
        if not isinstance(season, dict) or season.get("from") not in names or not season.get("name"):
            raise refuse(f"season {i} needs a name and `from` naming its first month")
        seasons.append([season["name"], season["from"]])
    first_year = data.get("first_year", 1)
    if not isinstance(first_year, int) or first_year < 1:
        raise refuse("first_year must be a whole number ≥ 1")
    spec = {"kind": "months", "name": str(data.get("name", Path(source).stem)), "months": spec_months,
            "first_year": first_year, "intercalary": intercalary, "leap_every": leap_every,
            "week": [d.strip() for d in week], "seasons": seasons}
    # Every name is printed back with dates: the same rules as any name typed at the table.
    named = [("its name", spec["name"])] + [("a month", m) for m, _ in spec_months] \
        + [("an intercalary day", n) for n, _, _ in intercalary] + [("a week day", d) for d in spec["week"]] \
        + [("a season", n) for n, _ in seasons]
    try:
        for what, value in named:
            check_name(value, what)
    except BadInput as exc:
        raise refuse(str(exc)) from None
    return spec


def _entries(data: dict[str, Any], table: str, source: str) -> list:
    entries = data.get(table, [])
    if not isinstance(entries, list):
        raise BadInput(f"calendar file {source}: {table} must be a list of [[{table}]] tables")
    return entries


def calendar_from_spec(spec: dict[str, Any]) -> Calendar:
    kinds = {"gregorian": Gregorian, "bifrost": Bifrost, "months": Months}
    return kinds[spec["kind"]](spec)
