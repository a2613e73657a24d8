"""Fantasy-Calendar.com's calendar export (``static_data``, ``dynamic_data``,
``events``): timespans (months and intercalary festivals), leap days with
compound rules such as ``400,!100,4`` and an offset, a week that runs on or
restarts each month, seasons, moons, eras, dated events, and the ``epoch``:
its own count of days, 0 on the first day of year 1 (or of year 0). A dated
event becomes a note on its first day; its category and how many days it
lasts (``has_duration``, ``duration``) are written in the note's text, as a
note has neither."""

from __future__ import annotations

import re
from typing import Any

from ledger.errors import BadInput
from commands.imports.calendar_bounds import whole
from commands.imports.converted import Converted, SourceNote, clip, common_year_day, decimal_text, plain

NAME = "Fantasy-Calendar"
_BASE = ["New Moon", "Waxing Crescent", "First Quarter", "Waxing Gibbous", "Full Moon", "Waning Gibbous",
         "Last Quarter", "Waning Crescent"]


def recognises(data: dict) -> bool:
    return isinstance(data.get("static_data"), dict) and "year_data" in data["static_data"]


def moon_phase_names(granularity: int) -> list[str]:
    """The phase names Fantasy-Calendar shows for a moon of that many sprites."""
    if granularity == 4:
        return _BASE[::2]
    if granularity == 8:
        return list(_BASE)
    if granularity == 16:
        return [f"{base}{suffix}" for base in _BASE for suffix in ("", " Fading")]
    steps = {24: ("Rising", "", "Fading"), 40: ("Rising", "Risen", "", "Fading", "Faded")}.get(granularity)
    if steps is None:
        raise BadInput(f"a moon of {granularity} phases: Fantasy-Calendar draws 4, 8, 16, 24 or 40")
    # The cycle starts at the new moon's own sprite, so the new moon's earlier steps close it.
    names = [f"{base} {step}".strip() for base in _BASE for step in steps]
    start = steps.index("")
    return names[start:] + names[:start]


def convert(export: dict) -> Converted:
    static, lost = export["static_data"], []
    settings = static.get("settings") or {}
    year_zero = bool(settings.get("year_zero_exists"))
    year_data = static["year_data"]
    spans = year_data["timespans"]
    months, festivals = [], []
    for span in spans:
        name = clip(plain(span["name"]), 60)
        if whole(span.get("interval", 1)) != 1:
            raise BadInput(f"{name} appears only every {span['interval']} years: a tally calendar cannot "
                           "hold a month that skips years")
        if span.get("week"):
            lost.append(f"{name}'s own week (the calendar's week is kept)")
        if span["type"] == "intercalary":
            after = months[-1]["name"] if months else ""
            festivals.append({"name": name, "after": after, "days": whole(span["length"]), "leap_days": 0,
                              "in_week": False})
        else:
            months.append({"name": name, "days": whole(span["length"]), "leap_days": 0})
    by_index = {i: clip(plain(span["name"]), 60) for i, span in enumerate(spans)}
    rule = None
    for leap in year_data.get("leap_days") or []:
        name, target = clip(plain(leap["name"]), 60), by_index[whole(leap["timespan"])]
        this_rule = (str(leap["interval"]).replace(" ", ""), whole(leap.get("offset") or 0))
        every_year = this_rule[0] == "1"
        if not every_year:
            if rule is not None and rule != this_rule:
                raise BadInput(f"leap day {name} follows {this_rule[0]} (offset {this_rule[1]}) and another "
                               f"{rule[0]} (offset {rule[1]}): a tally calendar holds one leap rule")
            rule = this_rule
        if leap.get("adds_week_day"):
            lost.append(f"{name} adds a week day: it is kept as a day outside the week")
        month = next((m for m in months if m["name"] == target), None)
        festival = next((f for f in festivals if f["name"] == target), None)
        if leap.get("intercalary") and month is not None:
            festivals.append({"name": name, "after": target, "after_day": whole(leap.get("day") or 0),
                              "days": 1, "leap": not every_year, "in_week": False})
        elif month is not None:
            month["days" if every_year else "leap_days"] += 1
        else:
            festival["days" if every_year else "leap_days"] += 1
            lost.append(f"{name}'s own name: it lengthens {target} in leap years")
    week = [clip(plain(day), 60) for day in year_data.get("global_week") or []]
    data: dict[str, Any] = {
        "name": clip(plain(export.get("name") or "Fantasy-Calendar"), 60),
        "first_year": 0 if year_zero else 1, "year_zero": year_zero,
        "leap_rule": rule[0] if rule else None, "leap_offset": rule[1] if rule else None,
        "week": week, "week_resets": not year_data.get("overflow", True),
    }
    if week:
        data["first_weekday"] = week[(whole(year_data.get("first_day") or 1) - 1) % len(week)]
    data["months"], data["festivals"] = months, festivals
    data["seasons"] = _seasons(static, months, festivals, by_index, lost)
    data["moons"] = _moons(static, lost)
    data["eras"] = _eras(static, lost)
    for key, what in (("clock", "the clock"), ("cycles", "year cycles")):
        held = static.get(key)
        if held and (key != "clock" or held.get("enabled")) and (key != "cycles" or held.get("data")):
            lost.append(what)
    if (static.get("seasons") or {}).get("global_settings", {}).get("enable_weather"):
        lost.append("weather")
    converted = Converted("fantasy-calendar", data, lost)
    _events(export, converted, by_index)
    dynamic = export.get("dynamic_data") or {}
    if "year" in dynamic:
        converted.today = (whole(dynamic["year"]), by_index[whole(dynamic.get("timespan") or 0)], whole(dynamic.get("day") or 1))
        converted.epoch = whole(dynamic["epoch"]) if dynamic.get("epoch") is not None else None
    return converted


def _seasons(static, months, festivals, by_index, lost) -> list[dict]:
    held = static.get("seasons") or {}
    data = held.get("data") or []
    if not data:
        return []
    out = []
    if all(s.get("timespan") is not None for s in data):
        for season in data:
            month = by_index[whole(season["timespan"])]
            if month not in {m["name"] for m in months}:
                month = common_year_day(months, festivals, 0)[0]
                lost.append(f"season {plain(season['name'])} begins on a festival: it begins with the next month")
            out.append({"name": clip(plain(season["name"]), 60), "from": month, "day": whole(season.get("day") or 1)})
        return out
    # Periodic seasons: each lasts its transition and duration, counted from the offset.
    start = whole(round(held.get("global_settings", {}).get("season_offset") or 0))
    for season in data:
        month, day = common_year_day(months, festivals, start)
        out.append({"name": clip(plain(season["name"]), 60), "from": month, "day": day})
        start += whole(round(season.get("transition_length") or 0) + round(season.get("duration") or 0))
    lost.append("periodic seasons' drift: each begins on a fixed day of the year")
    return out


def _moons(static, lost) -> list[dict]:
    out = []
    for moon in static.get("moons") or []:
        name = clip(plain(moon["name"]), 60)
        if moon.get("custom_phase"):
            lost.append(f"moon {name}'s custom phase cycle")
            continue
        out.append({"name": name, "cycle": decimal_text(moon["cycle"]), "shift": decimal_text(moon.get("shift") or 0),
                    "phases": moon_phase_names(whole(moon.get("granularity") or 8)),
                    "rounding": moon.get("cycle_rounding") or "round"})
    return out


def _eras(static, lost) -> list[dict]:
    out = []
    for era in static.get("eras") or []:
        name = clip(plain(era["name"]), 60)
        settings = era.get("settings") or {}
        if settings.get("restart") or settings.get("ends_year"):
            lost.append(f"era {name} restarts the year count or ends the year: kept as a name from its year on")
        out.append({"name": name, "abbreviation": plain(era.get("abbreviation") or ""),
                    "from_year": whole(era["date"]["year"])})
    return out


NOTE_TEXT = 500  # a note's text, as commands/calendar.py records it


def _events(export, converted: Converted, by_index) -> None:
    event_data = (export.get("static_data") or {}).get("event_data") or {}
    events = export.get("events")
    if events is None:
        events = event_data.get("events") or []
    categories = _categories(export.get("categories") if export.get("categories") is not None
                             else event_data.get("categories"))
    recurring, categorised, lasting = 0, 0, []
    for event in events:
        data = event.get("data") or {}
        date = data.get("date") or []
        if len(date) != 3 or not all(isinstance(part, int) for part in date):
            recurring += 1
            continue
        year, span, day = (whole(part) for part in date)
        title = clip(plain(event.get("name")) or "(untitled)", 200)
        told = []
        category = event.get("event_category_id")
        if category is not None and str(category).strip() != "":
            categorised += 1
            told.append(f"category: {clip(categories.get(str(category), plain(category)), 60)}")
        days = whole(data.get("duration") or 0) if data.get("has_duration") else 0
        if days > 1:
            lasting.append(f"{title}: {days} days")
            told.append(f"lasts {days} days")
        said = f" ({'; '.join(told)})" if told else ""
        text = (clip(plain(event.get("description")), NOTE_TEXT - len(said)) + said).strip()
        ident = str(event.get("id") if event.get("id") is not None else f"{year}-{span}-{day}:{title}")
        converted.notes.append(SourceNote((year, by_index[span], day), title, text, f"fantasy-calendar:{ident}"))
    if recurring:
        converted.lost.append(f"{recurring} recurring event(s) (holidays by condition): only dated events "
                              "become notes")
    if categories or categorised:
        converted.lost.append("event categories as such: " + (
            f"{categorised} dated event(s) keep theirs in their note's text" if categorised
            else "no dated event has one"))
    if lasting:
        shown = ", ".join(lasting[:3]) + (f" and {len(lasting) - 3} more" if len(lasting) > 3 else "")
        converted.lost.append(f"{len(lasting)} event(s) lasting more than a day ({shown}): each note is on its "
                              "first day, with its length in its text")


def _categories(found) -> dict[str, str]:
    """Each category's name by the ids an event may name it by: its id, and its
    name in lower case with dashes (as Fantasy-Calendar's exports name it)."""
    names: dict[str, str] = {}
    for category in found if isinstance(found, list) else []:
        if isinstance(category, dict) and category.get("name"):
            name = plain(category["name"])
            names[re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")] = name
            if category.get("id") not in (None, "", 0):
                names.setdefault(str(category["id"]), name)
    return names
