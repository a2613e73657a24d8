"""Calendaria (Foundry VTT) calendars: months (and intercalary ones, with
``leapDays`` in leap years) by ordinal, week days, ``years.yearZero`` (the
year shown for its internal year 0) and ``firstWeekday``, a simple or
compound leap rule counted on shown years, seasons by day of the year, moons
whose phases span fractions of the cycle from a reference date, eras. Names
given as translation keys (``CALENDARIA.Season.Spring``) keep their last word."""

from __future__ import annotations

import re
from decimal import Decimal

from ledger.calendar import Months, months_spec
from commands.imports.calendar_bounds import whole
from commands.imports.converted import Converted, clip, common_year_day, decimal_text, plain

NAME = "Calendaria"


def recognises(data: dict) -> bool:
    months = data.get("months")
    return isinstance(months, dict) and isinstance(months.get("values"), dict) and isinstance(data.get("years"), dict)


def _name(text) -> str:
    text = plain(text)
    if text.startswith("CALENDARIA."):
        text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text.rsplit(".", 1)[-1])
    return clip(text, 60)


def convert(data: dict) -> Converted:
    lost: list[str] = []
    months, festivals = [], []
    for month in sorted(data["months"]["values"].values(), key=lambda m: m.get("ordinal", 0)):
        name, days = _name(month["name"]), whole(month["days"])
        extra = max(whole(month.get("leapDays") or days) - days, 0)
        if month.get("type") == "intercalary":
            festivals.append({"name": name, "after": months[-1]["name"] if months else "", "days": days,
                              "leap_days": extra, "in_week": False})
        else:
            months.append({"name": name, "days": days, "leap_days": extra})
    years = data["years"]
    advanced = data.get("leapYearConfig") or {}
    simple = years.get("leapYear") or {}
    if advanced.get("rule") in ("simple", "gregorian", "custom"):
        rule = {"simple": str(advanced.get("interval")), "gregorian": "400,!100,4",
                "custom": advanced.get("pattern")}[advanced["rule"]]
        offset = whole(advanced.get("start") or 0)
    elif simple.get("leapInterval"):
        rule, offset = str(simple["leapInterval"]), whole(simple.get("leapStart") or 0)
    else:
        rule, offset = None, 0
    week = [_name(d["name"]) for d in sorted((data.get("days") or {}).get("values", {}).values(),
                                             key=lambda d: d.get("ordinal", 0))]
    title = _name(data.get("name"))
    out = {"name": title if title and title != "Name" else clip(str(data.get("id") or "Calendaria").title(), 60),
           "first_year": 0, "year_zero": True, "leap_rule": rule, "leap_offset": offset, "week": week,
           "months": months, "festivals": festivals}
    out["seasons"] = []
    for season in (data.get("seasons") or {}).get("values", {}).values():
        month, day = common_year_day(months, festivals, whole(season.get("dayStart") or 0))
        out["seasons"].append({"name": _name(season["name"]), "from": month, "day": day})
    out["eras"] = [{"name": _name(e["name"]), "abbreviation": _name(e.get("abbreviation") or ""),
                    "from_year": whole(e.get("startYear") or 0)} for e in (data.get("eras") or {}).values()]
    zero = whole(years.get("yearZero") or 0)
    probe = Months(months_spec({**out, "first_weekday": week[0] if week else None, "moons": []}, NAME))
    if week:  # firstWeekday names the week day of the first day of the shown year yearZero
        before = probe.weekday(probe.day_in(zero, months[0]["name"], 1))
        out["first_weekday"] = week[(whole(years.get("firstWeekday") or 0) - week.index(before)) % len(week)]
    out["moons"] = []
    for moon in (data.get("moons") or {}).values():
        phases = sorted(moon["phases"].values(), key=lambda p: Decimal(str(p["start"])))
        cycle = Decimal(decimal_text(moon["cycleLength"]))
        reference = moon.get("referenceDate") or {}
        month = (months + festivals)[0]["name"] if not months else months[whole(reference.get("month") or 0) % len(months)]["name"]
        day = probe.day_in(whole(reference.get("year") or 0), month, 1) + whole(reference.get("dayOfMonth") or 0)
        out["moons"].append({"name": _name(moon["name"]), "cycle": str(cycle), "shift": str(day - 1),
                             "phases": [_name(p["name"]) for p in phases],
                             "lengths": [str((Decimal(str(p["end"])) - Decimal(str(p["start"]))) * cycle) for p in phases]})
    for key, what in (("festivals", "festivals (recurring holidays)"), ("weather", "weather"),
                      ("daylight", "daylight"), ("canonicalHours", "canonical hours"), ("cycles", "cycles")):
        if data.get(key) and (key != "daylight" or data[key].get("enabled")):
            lost.append(what)
    return Converted("calendaria", out, lost)
