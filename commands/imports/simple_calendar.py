"""Simple Calendar (Foundry VTT) calendars: its predefined calendar files
(``calendar`` and ``notes``) and its exports (``calendars``, ``notes`` by
calendar id). Months and intercalary months (counted in the week when
``intercalaryInclude``), leap days per month, the gregorian or a custom
leap rule, the first week day of ``yearZero``, seasons from any day, moons
with phases of their own lengths, notes on dates (0-based month and day).
A moon without phases (or without a cycle) shows none in Simple Calendar:
it is left out and said, the rest of the calendar converted. Years run on
before 0 where the file dates anything there."""

from __future__ import annotations

from decimal import Decimal

from ledger.calendar import Months, months_spec
from ledger.errors import BadInput
from commands.imports.calendar_bounds import whole
from commands.imports.converted import Converted, SourceNote, clip, decimal_text, plain

NAME = "Simple Calendar"


def recognises(data: dict) -> bool:
    calendar = _calendar(data)
    return isinstance(calendar, dict) and "months" in calendar and "leapYear" in calendar


def _calendar(data: dict):
    if isinstance(data.get("calendars"), list) and data["calendars"]:
        return data["calendars"][0]
    return data.get("calendar")


def convert(data: dict) -> Converted:
    calendar, lost = _calendar(data), []
    if isinstance(data.get("calendars"), list) and len(data["calendars"]) > 1:
        lost.append(f"{len(data['calendars']) - 1} more calendar(s) in the file: only the first is converted")
    months, festivals, order = [], [], []
    for month in calendar["months"]:
        name, days, leap = clip(plain(month["name"]), 60), whole(month["numberOfDays"]), whole(month["numberOfLeapYearDays"])
        order.append(name)
        if month.get("intercalary"):
            festivals.append({"name": name, "after": months[-1]["name"] if months else "", "days": max(days, 1),
                              "leap_days": max(leap - max(days, 1), 0), "leap": days == 0,
                              "in_week": bool(month.get("intercalaryInclude"))})
        else:
            if leap < days:
                raise BadInput(f"{name} is shorter in leap years: a tally calendar only lengthens months")
            months.append({"name": name, "days": days, "leap_days": leap - days})
    rule = calendar["leapYear"].get("rule")
    leap_rule = {"gregorian": "400,!100,4", "custom": str(calendar["leapYear"].get("customMod") or "")}.get(rule)
    year = calendar.get("year") or {}
    week = [clip(plain(day["name"]), 60) for day in calendar.get("weekdays") or []]
    data_out = {"name": clip(plain(calendar.get("name") or "Simple Calendar"), 60),
                "first_year": _first_year(data, calendar),
                "year_zero": True, "leap_rule": leap_rule or None, "leap_offset": 0, "week": week,
                "months": months, "festivals": festivals}
    data_out["seasons"] = [{"name": clip(plain(s["name"]), 60), "from": order[whole(s["startingMonth"])],
                            "day": whole(s.get("startingDay") or 0) + 1}
                           for s in calendar.get("seasons") or [] if order[whole(s["startingMonth"])] in
                           {m["name"] for m in months}]
    if week:
        # Simple Calendar counts week days from the first day of yearZero.
        probe = Months(months_spec({**data_out, "first_weekday": week[0], "moons": []}, NAME))
        before = probe.weekday(probe.day_in(whole(year.get("yearZero") or 0), months[0]["name"], 1))
        shift = (whole(year.get("firstWeekday") or 0) - week.index(before)) % len(week)
        data_out["first_weekday"] = week[shift]
    converted = Converted("simple-calendar", data_out, lost)
    data_out["moons"] = _moons(calendar, converted, order)
    for key, what in (("time", "the clock"), ("noteCategories", "note categories")):
        if calendar.get(key):
            lost.append(what)
    current = calendar.get("currentDate")
    if current:
        converted.today = (whole(current["year"]), order[whole(current["month"])], whole(current["day"]) + 1)
    _notes(data, calendar, converted, order)
    return converted


def _first_year(data, calendar) -> int:
    """Year 0, or the earliest year the file dates anything in."""
    years = [0, (calendar.get("year") or {}).get("yearZero") or 0, (calendar.get("currentDate") or {}).get("year") or 0]
    years += [(moon.get("firstNewMoon") or {}).get("year") or 0 for moon in calendar.get("moons") or []]
    notes = data.get("notes")
    for note in (next(iter(notes.values()), []) if isinstance(notes, dict) else notes) or []:
        info = ((note.get("flags") or {}).get("foundryvtt-simple-calendar") or {}).get("noteData") or note
        years.append((info.get("startDate") or {}).get("year") or 0)
    return min(whole(year) for year in years)


def _moons(calendar, converted: Converted, order) -> list[dict]:
    out = []
    for moon in calendar.get("moons") or []:
        if not moon.get("phases") or not Decimal(decimal_text(moon.get("cycleLength") or 0)) > 0:
            converted.lost.append(f"moon {clip(plain(moon['name']), 60)}: it has "
                                  f"{'no phases' if not moon.get('phases') else 'a cycle of no days'}, so Simple "
                                  "Calendar shows no phase of it; the rest of the calendar is converted")
            continue
        first = moon["firstNewMoon"]
        if first.get("yearReset") not in (None, "none"):
            converted.lost.append(f"moon {plain(moon['name'])}'s yearly reset of its cycle")
        phases = moon["phases"]
        out.append({"name": clip(plain(moon["name"]), 60), "cycle": decimal_text(moon["cycleLength"]),
                    "shift": "0", "phases": [clip(plain(p["name"]), 60) for p in phases],
                    "lengths": [decimal_text(p["length"]) for p in phases], "_first": first,
                    "_adjust": decimal_text(moon.get("cycleDayAdjust") or 0)})
    # The shift is where the first new moon falls, in the calendar's own days.
    if out:
        spec = months_spec({**converted.data, "moons": []}, NAME)
        probe = Months(spec)
        for moon in out:
            first, adjust = moon.pop("_first"), moon.pop("_adjust")
            # Counted on from the month's first day: Simple Calendar lets the day run past the month's end.
            day = probe.day_in(whole(first["year"]), order[whole(first["month"])], 1) + whole(first["day"])
            moon["shift"] = str(Decimal(day - 1) - Decimal(adjust))
    return out


def _notes(data, calendar, converted: Converted, order) -> None:
    notes = data.get("notes")
    if isinstance(notes, dict):
        notes = next(iter(notes.values()), [])
    repeating = 0
    for i, note in enumerate(notes or []):
        flags = (note.get("flags") or {}).get("foundryvtt-simple-calendar") or {}
        info = flags.get("noteData") or note
        start = info.get("startDate") or {}
        if "year" not in start:
            continue
        if info.get("repeats"):
            repeating += 1
        title = clip(plain(note.get("name") or note.get("title")) or "(untitled)", 200)
        ident = note.get("_id") or note.get("id") or f"{start['year']}-{start['month']}-{start['day']}:{title}"
        converted.notes.append(SourceNote((whole(start["year"]), order[whole(start["month"])], whole(start["day"]) + 1),
                                          title, clip(plain(note.get("content")), 500), f"simple-calendar:{ident}"))
    if repeating:
        converted.lost.append(f"{repeating} repeating note(s): each is recorded once, on its first date")
