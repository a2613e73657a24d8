"""Campaign calendars: game time is a day number; each calendar prints and
parses it in its own words.

The calendar's full definition is recorded in ``campaign.created``, so a
campaign never depends on a file that may change later.

* ``gregorian``: day n is the proleptic Gregorian ordinal (1 = 0001-01-01);
  dates print as ISO (``1024-03-01``) and parse as ISO or ``1 March 1024``.
* ``bifrost``: a 52-week year of 364 days (seed 001 l.2935-2939), seasons of
  14, 12, 14 and 12 weeks; day 1 is day 1 of week 1 of year 1. Dates print
  as ``day 3 of week 12, 1024`` and parse as that or ``1024-W12-3``.
* a TOML file: months with their lengths, festivals, a compound leap rule,
  a week of named days, seasons, moons and eras (``tally campaign new …
  --calendar harn.toml``); ``tally calendar import`` writes one from a
  Fantasy-Calendar, Simple Calendar or Calendaria calendar.

Moving on "a year" or "a month" keeps the date (``add_years``,
``add_months``); a day the target month or year lacks (the 31st, a leap
day) becomes the last day before it, and the calendar says so.
"""

from __future__ import annotations

import calendar as _gregorian
import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from math import ceil, floor
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

    def add_years(self, day: int, years: int) -> tuple[int, Optional[str]]:
        """The same date ``years`` later, and a note when that date does not exist."""
        raise NotImplementedError

    def add_months(self, day: int, months: int) -> tuple[int, Optional[str]]:
        """The same day of the month ``months`` later, and a note when the month is shorter."""
        raise BadInput(f"the {self.spec['kind']} calendar has no months: advance by days or weeks")

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

    def add_years(self, day: int, years: int) -> tuple[int, Optional[str]]:
        today = date.fromordinal(day)
        return self._landed(today, today.year + years, today.month, f"{years}y")

    def add_months(self, day: int, months: int) -> tuple[int, Optional[str]]:
        today = date.fromordinal(day)
        index = today.month - 1 + months
        return self._landed(today, today.year + index // 12, index % 12 + 1, f"{months}m")

    def _landed(self, today: date, year: int, month: int, span: str) -> tuple[int, Optional[str]]:
        if year > 9999:
            return MAX_DAY + 1, None  # refused by range
        last = _gregorian.monthrange(year, month)[1]
        landed = date(year, month, min(today.day, last))
        if landed.day != today.day:
            return landed.toordinal(), (f"{today.isoformat()} + {span}: {landed.strftime('%B')} {year} has "
                                        f"{last} days, so its last, {landed.isoformat()}")
        return landed.toordinal(), None


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

    def add_years(self, day: int, years: int) -> tuple[int, Optional[str]]:
        return day + years * self.YEAR, None  # every year is 52 weeks

    def season(self, day: int) -> str:
        week = (day - 1) % self.YEAR // 7 + 1
        for name, weeks in self.spec["seasons"]:
            if week <= weeks:
                return name
            week -= weeks
        raise AssertionError("seasons do not cover 52 weeks")


class LeapRule:
    """A compound leap rule as Fantasy-Calendar writes it: ``"400,!100,4"``
    is a leap year every 400 years, else not every 100, else every 4. The
    first interval listed that divides the year decides; ``!`` makes it a
    common year. Years count from ``offset`` (a leap year when ``year −
    offset`` divides), except an interval marked ``+``, which ignores it.
    Without a year zero, the year before 1 is −1, so −1 counts as 0 does."""

    PART = re.compile(r"([+!]{0,2})(\d{1,9})")

    def __init__(self, text: str, offset: int = 0, year_zero: bool = False) -> None:
        self.text, self.offset, self.year_zero = text, offset, year_zero
        self.parts: list[tuple[int, bool, int]] = []
        for part in str(text).replace(" ", "").split(","):
            match = self.PART.fullmatch(part)
            if not match or int(match.group(2)) < 1:
                raise BadInput(f"cannot read leap rule {text!r}: write intervals like 400,!100,4 "
                               "(! not a leap year, + ignores the offset)")
            interval, marks = int(match.group(2)), match.group(1)
            own = 0 if interval == 1 or "+" in marks else offset % interval
            self.parts.append((interval, "!" in marks, own))

    def __call__(self, year: int) -> bool:
        for interval, negated, offset in self.parts:
            mod = year - offset + (1 if year < 0 and not self.year_zero else 0)
            if mod % interval == 0:
                return not negated
        return False


@dataclass(frozen=True)
class _Run:
    """A stretch of a year: a month (or the part of one a festival splits off)
    or a festival; ``first`` is the number its first day has in its month."""

    name: str
    first: int
    length: int
    month: bool
    in_week: bool


class Months(Calendar):
    """A calendar from a TOML file (or converted from another tool by
    ``tally calendar import``): named months, festivals that belong to no
    month (some only in leap years, some several days long, some inside a
    month), a compound leap rule with an offset, leap days added to a month,
    year numbering with or without a year zero, a week of named days running
    on across months or starting afresh with each, seasons starting on any
    day of a month, moons with phases, eras.

    Day 1 is the first day of ``first_year``. The recorded definition of
    campaigns made before these were added (``leap_every``, intercalary days
    as lists) reads as it always did."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.first_year = spec["first_year"]
        self.year_zero = bool(spec.get("year_zero", False))
        self.months = [_month_entry(m) for m in spec["months"]]
        self.festivals = [_festival_entry(f) for f in spec.get("intercalary", [])]
        rule, offset = spec.get("leap_rule"), spec.get("leap_offset", 0)
        if rule is None and spec.get("leap_every"):
            rule = str(spec["leap_every"])
        self.leap_rule = LeapRule(rule, offset, self.year_zero) if rule else None
        self.week = list(spec.get("week") or [])
        self.week_resets = bool(spec.get("week_resets", False))
        self.first_weekday = spec.get("first_weekday", 0)
        self.seasons = [(s[0], s[1], s[2] if len(s) > 2 else 1) for s in spec.get("seasons") or []]
        self.moons = list(spec.get("moons") or [])
        self.eras = sorted(spec.get("eras") or [], key=lambda e: e["from_year"])
        self._layouts = {leap: self._build_layout(leap) for leap in (False, True)}
        self._starts = [0]  # days before each year, by the year's index from first_year
        self._week_days = [0]  # days that count in the week before each year

    # -- years ---------------------------------------------------------------

    def is_leap(self, year: int) -> bool:
        return self.leap_rule is not None and self.leap_rule(year)

    def _index(self, year: int) -> int:
        skip = 1 if not self.year_zero and self.first_year < 0 < year else 0
        return year - self.first_year - skip

    def _year(self, index: int) -> int:
        year = self.first_year + index
        return year + 1 if not self.year_zero and self.first_year < 0 and year >= 0 else year

    def layout(self, year: int) -> list[_Run]:
        return self._layouts[self.is_leap(year)]

    def _build_layout(self, leap: bool) -> list[_Run]:
        present = [f for f in self.festivals if leap or not f["leap"]]

        def festival(f):
            return _Run(f["name"], 1, f["days"] + (f.get("leap_days", 0) if leap else 0), False, f["in_week"])

        runs = [festival(f) for f in present if f["after"] == ""]
        for month in self.months:
            length = month["days"] + (month["leap_days"] if leap else 0)
            done = 0
            inside = sorted((f for f in present if f["after"] == month["name"] and f["after_day"] is not None),
                            key=lambda f: f["after_day"])
            for f in inside:
                cut = min(f["after_day"], length)
                if cut > done:
                    runs.append(_Run(month["name"], done + 1, cut - done, True, True))
                    done = cut
                runs.append(festival(f))
            if done < length:
                runs.append(_Run(month["name"], done + 1, length - done, True, True))
            runs += [festival(f) for f in present if f["after"] == month["name"] and f["after_day"] is None]
        return runs

    def year_length_of(self, year: int) -> int:
        return sum(run.length for run in self.layout(year))

    @property
    def year_days(self) -> int:
        """A common year's length."""
        return sum(run.length for run in self._layouts[False])

    year_length = year_days

    def _grow(self, day: int) -> None:
        """Extend the table of year starts past ``day``."""
        while self._starts[-1] < day:
            runs = self.layout(self._year(len(self._starts) - 1))
            self._starts.append(self._starts[-1] + sum(r.length for r in runs))
            self._week_days.append(self._week_days[-1] + sum(r.length for r in runs if r.in_week))

    def _year_start(self, year: int) -> int:
        """The day number of the first day of ``year``."""
        index = self._index(year)
        while len(self._starts) <= index:
            if self._starts[-1] > MAX_DAY:  # past every day a ledger keeps: refused by range
                return MAX_DAY + 1 + index
            self._grow(self._starts[-1] + 1)
        return self._starts[index] + 1

    def _locate(self, day: int) -> tuple[int, int]:
        """(year, day of year from 0)."""
        self._grow(day)
        index = bisect_right(self._starts, day - 1) - 1
        return self._year(index), day - 1 - self._starts[index]

    def _run_at(self, day: int) -> tuple[int, _Run, int, int]:
        """(year, run, day within the run from 0, the run's first day of year from 0)."""
        year, doy = self._locate(day)
        start = 0
        for run in self.layout(year):
            if doy < start + run.length:
                return year, run, doy - start, start
            start += run.length
        raise AssertionError("a day beyond its year")

    # -- words ---------------------------------------------------------------

    def parts(self, day: int) -> dict[str, Any]:
        year, run, within, _ = self._run_at(day)
        number = run.first + within if run.month or run.length > 1 else None
        return {"year": year, "segment": run.name, "day": number, "month": run.month}

    def format(self, day: int) -> str:
        if not MIN_DAY <= day <= MAX_DAY:
            return f"day:{day}"
        p = self.parts(day)
        return f"{p['day']} {p['segment']} {p['year']}" if p["day"] is not None else f"{p['segment']} {p['year']}"

    def parse(self, text: str) -> int:
        text = text.strip()
        dated = re.fullmatch(r"(\d{1,3})\s+(.+?)\s+(-?\d{1,7})", text)
        named = re.fullmatch(r"(.+?)\s+(-?\d{1,7})", text)
        for match, has_day in ((dated, True), (named, False)):
            if not match:
                continue
            number = int(match.group(1)) if has_day else 1
            name, year = match.group(2 if has_day else 1).lower(), int(match.group(3 if has_day else 2))
            if year == 0 and not self.year_zero or self._index(year) < 0:
                continue
            found = self._find(year, name, number, festival_by_name=not has_day)
            if found is not None:
                return found
        first = self.months[0]["name"]
        raise self._refuse(text, f"'3 {first} {self.first_year}'")

    def _find(self, year: int, name: str, number: int, *, festival_by_name: bool) -> Optional[int]:
        """The day named: day ``number`` of a month (or of a festival of several
        days), or, ``festival_by_name``, a festival's first day."""
        offset = 0
        for run in self.layout(year):
            wanted = (not run.month) if festival_by_name else (run.month or run.length > 1)
            if run.name.lower() == name and wanted and run.first <= number < run.first + run.length:
                return self._year_start(year) + offset + number - run.first
            offset += run.length
        return None

    def day_in(self, year: int, name: str, number: int) -> int:
        """The day number of day ``number`` of a month or festival as other tools
        count it: a month's days include the festival days placed inside it."""
        inside = {f["name"] for f in self.festivals if f["after"] == name and f["after_day"] is not None}
        offset, start, length = 0, None, 0
        for run in self.layout(year):
            if run.name == name or (not run.month and run.name in inside):
                start = offset if start is None else start
                length += run.length
            offset += run.length
        if start is None or not 1 <= number <= length or (year == 0 and not self.year_zero) \
                or self._index(year) < 0:
            raise BadInput(f"there is no day {number} of {name} in {year} in this calendar")
        return self._year_start(year) + start + number - 1

    def weekday(self, day: int) -> Optional[str]:
        """The day's name in the week, or None on a festival day outside it (or with no week)."""
        if not self.week:
            return None
        year, run, within, start = self._run_at(day)
        if not run.in_week:
            return None
        if self.week_resets:
            index = run.first - 1 + within if run.month else within
        else:
            before = sum(r.length for r in self._runs_before(year, start) if r.in_week)
            index = self._week_days[self._index(year)] + before + within + self.first_weekday
        return self.week[index % len(self.week)]

    def _runs_before(self, year: int, start: int) -> list[_Run]:
        runs, at = [], 0
        for run in self.layout(year):
            if at >= start:
                break
            runs.append(run)
            at += run.length
        return runs

    def _day_of_year(self, year: int, month: str, number: int) -> Optional[int]:
        """Day of year (from 0) of day ``number`` of ``month`` (the month's last if shorter)."""
        at, last = 0, None
        for run in self.layout(year):
            if run.month and run.name == month:
                if run.first <= number < run.first + run.length:
                    return at + number - run.first
                last = at + run.length - 1
            at += run.length
        return last

    def season(self, day: int) -> Optional[str]:
        if not self.seasons:
            return None
        year, doy = self._locate(day)
        starts = [(self._day_of_year(year, month, number), name) for name, month, number in self.seasons]
        starts = [(start, name) for start, name in starts if start is not None]
        started = [(start, name) for start, name in starts if start <= doy]
        # Before the year's first season begins, its last one runs on from the year before.
        return max(started or starts, key=lambda s: s[0])[1]

    def moon_phases(self, day: int) -> list[dict[str, str]]:
        """Each moon's phase on ``day``: its place in the cycle (days since day 1
        less the shift, over the cycle length) split evenly among the named
        phases, rounded as Fantasy-Calendar rounds (half up by default)."""
        shown = []
        for moon in self.moons:
            cycle, shift, phases = Fraction(moon["cycle"]), Fraction(moon.get("shift", "0")), moon["phases"]
            place = ((day - 1 - shift) / cycle) % 1
            if moon.get("lengths"):  # phases of their own lengths (Simple Calendar, Calendaria)
                into, index = place * cycle, len(phases) - 1
                for i, length in enumerate(moon["lengths"]):
                    if into < Fraction(length):
                        index = i
                        break
                    into -= Fraction(length)
                shown.append({"moon": moon["name"], "phase": phases[index]})
                continue
            scaled = place * len(phases)
            rounding = moon.get("rounding", "round")
            index = floor(scaled) if rounding == "floor" else ceil(scaled) if rounding == "ceil" \
                else floor(scaled + Fraction(1, 2))
            shown.append({"moon": moon["name"], "phase": phases[index % len(phases)]})
        return shown

    def era(self, day: int) -> Optional[str]:
        year, _ = self._locate(day)
        current = None
        for era in self.eras:
            if era["from_year"] <= year:
                current = era
        if current is None:
            return None
        return f"{current['name']} ({current['abbreviation']})" if current.get("abbreviation") else current["name"]

    # -- moving on by months and years ----------------------------------------

    def add_years(self, day: int, years: int) -> tuple[int, Optional[str]]:
        year, run, within, _ = self._run_at(day)
        target = self._shift_year(year, years)
        if run.month:
            return self._month_day(target, run.name, run.first + within, f"{years}y")
        for other in self.layout(target):
            if other.name == run.name and not other.month:
                found = self._find(target, run.name.lower(), min(within + 1, other.length), festival_by_name=True)
                if found is not None:
                    return found, None
        # A festival the target year lacks (a leap-only one): the day before its place.
        landed = self._year_start(target) + self._days_before_missing(target, run.name) - 1
        return landed, (f"{self.format(day)} + {years}y: {target} has no {run.name}, "
                        f"so the day before its place, {self.format(landed)}")

    def add_months(self, day: int, months: int) -> tuple[int, Optional[str]]:
        year, run, within, _ = self._run_at(day)
        if not run.month:
            raise BadInput(f"{self.format(day)} is a festival day that belongs to no month: "
                           "advance by days, weeks or years")
        names = [m["name"] for m in self.months]
        position = names.index(run.name) + months
        target = self._shift_year(year, position // len(names))
        return self._month_day(target, names[position % len(names)], run.first + within, f"{months}m")

    def _shift_year(self, year: int, by: int) -> int:
        return self._year(self._index(year) + by)

    def _month_day(self, year: int, month: str, number: int, span: str) -> tuple[int, Optional[str]]:
        doy = self._day_of_year(year, month, number)
        landed = self._year_start(year) + doy
        clamped = self.parts(landed)["day"]
        if clamped != number:
            return landed, (f"day {number} of {month} + {span}: {month} {year} has {clamped} days, "
                            f"so its last, {self.format(landed)}")
        return landed, None

    def _days_before_missing(self, year: int, festival: str) -> int:
        """Days of ``year`` before the place of a festival it lacks (one of leap years only)."""
        leap = self._layouts[True]
        place = next(i for i, run in enumerate(leap) if run.name == festival and not run.month)
        before = {(run.name, run.first, run.month) for run in leap[:place]}
        return sum(run.length for run in self.layout(year) if (run.name, run.first, run.month) in before)


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

    from ledger.files import read_regular

    # A regular file only, opened without waiting: a pipe named .toml with no writer would
    # hold `campaign new` up for ever, and a device could be read without end.
    text = read_regular(choice, "calendar file", CALENDAR_FILE_LIMIT)
    try:
        data = tomllib.loads(text.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"calendar file {choice} is not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise BadInput(f"calendar file {choice} is not UTF-8 text") from None
    return months_spec(data, choice)


CALENDAR_FILE_LIMIT = 2**20  # bytes: a calendar of a thousand months is a few dozen KiB


def months_spec(data: dict[str, Any], source: str) -> dict[str, Any]:
    """A TOML calendar's definition, checked, in the shape a campaign records."""
    def refuse(what: str) -> BadInput:
        return BadInput(f"calendar file {source}: {what}")

    def whole(key: str, default: int, low: Optional[int] = None) -> int:
        value = data.get(key)
        value = default if value is None else value
        if not isinstance(value, int) or isinstance(value, bool) or (low is not None and value < low):
            raise refuse(f"{key} must be a whole number" + (f" ≥ {low}" if low is not None else ""))
        return value

    months = data.get("months")
    if not isinstance(months, list) or not months:
        raise refuse("needs [[months]] entries with name and days")
    spec_months = []
    for i, month in enumerate(months, 1):
        name, days = (month.get("name"), month.get("days")) if isinstance(month, dict) else (None, None)
        if not isinstance(name, str) or not name.strip() or not isinstance(days, int) or days < 1:
            raise refuse(f"month {i} needs a name and a whole number of days ≥ 1")
        leap_days = month.get("leap_days", 0)
        if not isinstance(leap_days, int) or leap_days < 0:
            raise refuse(f"month {i}: leap_days must be a whole number ≥ 0")
        spec_months.append({"name": name.strip(), "days": days, "leap_days": leap_days})
    names = [m["name"] for m in spec_months]
    festivals = []
    for i, extra in enumerate(_entries(data, "intercalary", source) + _entries(data, "festivals", source), 1):
        name, after = (extra.get("name"), extra.get("after", "")) if isinstance(extra, dict) else (None, None)
        if not isinstance(name, str) or not name.strip() or (after and after not in names):
            raise refuse(f"intercalary day {i} needs a name and `after` naming a month (or \"\" for the year's start)")
        days, after_day = extra.get("days", 1), extra.get("after_day")
        if not isinstance(days, int) or days < 1 or (after_day is not None and (
                not isinstance(after_day, int) or after_day < 0 or not after)):
            raise refuse(f"intercalary day {i}: days must be ≥ 1, and after_day a day of the month it follows")
        leap_days = extra.get("leap_days", 0)
        if not isinstance(leap_days, int) or leap_days < 0:
            raise refuse(f"intercalary day {i}: leap_days must be a whole number ≥ 0")
        festivals.append({"name": name.strip(), "after": after, "leap": bool(extra.get("leap", False)),
                          "days": days, "leap_days": leap_days, "after_day": after_day,
                          "in_week": bool(extra.get("in_week", False))})
    every, rule = whole("leap_every", 0, 0), data.get("leap_rule")
    if rule is not None and not isinstance(rule, (str, int)):
        raise refuse("leap_rule is a text like \"400,!100,4\"")
    rule = str(rule) if rule is not None else (str(every) if every else None)
    year_zero = bool(data.get("year_zero", False))
    offset = whole("leap_offset", 0)
    if rule is not None:
        try:
            LeapRule(rule, offset, year_zero)
        except BadInput as exc:
            raise refuse(str(exc)) from None
    if (any(f["leap"] or f["leap_days"] for f in festivals) or any(m["leap_days"] for m in spec_months)) \
            and rule is None:
        raise refuse("a leap day needs leap_every or leap_rule")
    if len({n.lower() for n in names + [f["name"] for f in festivals]}) != len(names) + len(festivals):
        raise refuse("two months share a name" if len({n.lower() for n in names}) < len(names)
                     else "a festival shares its name with a month or another festival")
    week = data.get("week", [])
    if not isinstance(week, list) or not all(isinstance(d, str) and d.strip() for d in week):
        raise refuse("week must be a list of day names")
    week = [d.strip() for d in week]
    first_weekday = data.get("first_weekday", week[0] if week else None)
    if week and first_weekday not in week:
        raise refuse("first_weekday must name a day of the week")
    seasons = []
    for i, season in enumerate(_entries(data, "seasons", source), 1):
        if not isinstance(season, dict) or season.get("from") not in names or not season.get("name"):
            raise refuse(f"season {i} needs a name and `from` naming its first month")
        day = season.get("day", 1)
        if not isinstance(day, int) or day < 1:
            raise refuse(f"season {i}: day must be a day of its first month")
        seasons.append([season["name"], season["from"], day])
    moons = [_moon_entry(moon, i, refuse) for i, moon in enumerate(_entries(data, "moons", source), 1)]
    eras = []
    for i, era in enumerate(_entries(data, "eras", source), 1):
        if not isinstance(era, dict) or not era.get("name") or not isinstance(era.get("from_year"), int):
            raise refuse(f"era {i} needs a name and from_year")
        eras.append({"name": era["name"], "abbreviation": str(era.get("abbreviation", "")), "from_year": era["from_year"]})
    first_year = whole("first_year", 1)
    if first_year == 0 and not year_zero:
        raise refuse("first_year is 0 but year_zero is false: the year before 1 is -1")
    spec = {"kind": "months", "name": str(data.get("name", Path(source).stem)), "months": spec_months,
            "first_year": first_year, "year_zero": year_zero, "intercalary": festivals, "leap_rule": rule,
            "leap_offset": offset, "week": week, "week_resets": bool(data.get("week_resets", False)),
            "first_weekday": week.index(first_weekday) if week else 0, "seasons": seasons, "moons": moons,
            "eras": eras}
    # Every name is printed back with dates: the same rules as any name typed at the table.
    named = [("its name", spec["name"])] + [("a month", m) for m in names] \
        + [("an intercalary day", f["name"]) for f in festivals] + [("a week day", d) for d in week] \
        + [("a season", s[0]) for s in seasons] + [("a moon", m["name"]) for m in moons] \
        + [("a moon phase", phase) for m in moons for phase in m["phases"]] \
        + [("an era", e["name"]) for e in eras]
    try:
        for what, value in named:
            check_name(value, what)
    except BadInput as exc:
        raise refuse(str(exc)) from None
    try:
        Months(spec).year_days
    except BadInput as exc:
        raise refuse(str(exc)) from None
    return spec


def _moon_entry(moon: Any, i: int, refuse) -> dict[str, Any]:
    if not isinstance(moon, dict) or not moon.get("name"):
        raise refuse(f"moon {i} needs a name, a cycle and phases")
    try:  # a decimal, never a float: the ledger records none
        cycle, shift = (str(Decimal(str(moon.get(key, default)))) for key, default in (("cycle", ""), ("shift", 0)))
    except ArithmeticError:
        raise refuse(f"moon {i}: cycle and shift are numbers of days, like 29.53") from None
    phases = moon.get("phases")
    if Decimal(cycle) <= 0 or not Decimal(cycle).is_finite() or not Decimal(shift).is_finite() \
            or not isinstance(phases, list) or not phases or not all(isinstance(p, str) for p in phases):
        raise refuse(f"moon {i}: a cycle above 0 days and a list of phase names")
    rounding = moon.get("rounding", "round")
    if rounding not in ("round", "floor", "ceil"):
        raise refuse(f"moon {i}: rounding is round, floor or ceil")
    entry = {"name": moon["name"], "cycle": cycle, "shift": shift, "phases": phases, "rounding": rounding}
    if moon.get("lengths") is not None:
        try:
            lengths = [str(Decimal(str(n))) for n in moon["lengths"]]
        except ArithmeticError:
            raise refuse(f"moon {i}: lengths are numbers of days") from None
        if len(lengths) != len(phases) or any(Decimal(n) < 0 for n in lengths):
            raise refuse(f"moon {i}: one length in days for each phase")
        entry["lengths"] = lengths
    return entry


def _month_entry(entry: Any) -> dict[str, Any]:
    # A campaign recorded before leap days in months wrote [name, days].
    if isinstance(entry, dict):
        return entry
    return {"name": entry[0], "days": entry[1], "leap_days": 0}


def _festival_entry(entry: Any) -> dict[str, Any]:
    # A campaign recorded before longer festivals wrote [name, after, leap].
    if isinstance(entry, dict):
        return entry
    return {"name": entry[0], "after": entry[1], "leap": entry[2], "days": 1, "after_day": None, "in_week": False}


def _entries(data: dict[str, Any], table: str, source: str) -> list:
    entries = data.get(table, [])
    if not isinstance(entries, list):
        raise BadInput(f"calendar file {source}: {table} must be a list of [[{table}]] tables")
    return entries


def calendar_from_spec(spec: dict[str, Any]) -> Calendar:
    if spec["kind"] != "months":
        return {"gregorian": Gregorian, "bifrost": Bifrost}[spec["kind"]](spec)
    # A calendar of months keeps its table of year starts: build it once per definition.
    return _months(json.dumps(spec, sort_keys=True))


@lru_cache(maxsize=8)
def _months(canonical: str) -> "Months":
    return Months(json.loads(canonical))
