"""Calendaria (Foundry VTT) calendars: months (and intercalary ones, with
``leapDays`` in leap years) by ordinal, week days, ``years.yearZero`` (the
year shown for its internal year 0) and ``firstWeekday``, a simple or
compound leap rule counted on shown years, seasons by day of the year (or
by month and day, ``monthStart``), moons whose phases span fractions of the
cycle from a reference date, eras. Names given as translation keys
(``CALENDARIA.Season.Spring``) keep their last word.

What a file leaves out is taken as Calendaria takes it (its data model's
defaults): a moon without phases has Calendaria's eight equal ones, and
without a reference date counts from the first day of year 1. Years run
on before 0 where the file's yearZero or a moon's reference lies there
(Pact Standard's yearZero is -1700); there is a year 0, as in Calendaria."""

from __future__ import annotations

import re
from decimal import Decimal

from ledger.calendar import Months, months_spec
from ledger.errors import BadInput
from commands.imports.calendar_bounds import whole
from commands.imports.converted import Converted, clip, common_year_day, decimal_text, plain

NAME = "Calendaria"
# Calendaria's own phases for a moon that names none (its DEFAULT_MOON_PHASES): eight equal parts of the cycle.
_DEFAULT_PHASES = ["New Moon", "Waxing Crescent", "First Quarter", "Waxing Gibbous", "Full Moon", "Waning Gibbous",
                   "Last Quarter", "Waning Crescent"]
_DEFAULT_REFERENCE = {"year": 1, "month": 0, "dayOfMonth": 0}  # its data model's initial reference date


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
    if not months:
        raise BadInput("it holds no months: a tally calendar is made of months, and one of the year's numbered "
                       "days alone cannot be carried; give it months in Calendaria and export it again")
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
    zero = whole(years.get("yearZero") or 0)
    moons = list((data.get("moons") or {}).values())
    references = [_reference(moon) for moon in moons]
    title = _name(data.get("name"))
    out = {"name": title if title and title != "Name" else clip(str(data.get("id") or "Calendaria").title(), 60),
           "first_year": min([0, zero] + [whole(r.get("year") or 0) for r in references]),
           "year_zero": True, "leap_rule": rule, "leap_offset": offset, "week": week,
           "months": months, "festivals": festivals}
    out["seasons"] = []
    by_ordinal = sorted(data["months"]["values"].values(), key=lambda m: m.get("ordinal", 0))
    for season in (data.get("seasons") or {}).get("values", {}).values():
        start = whole(season.get("dayStart") or 0)
        if season.get("monthStart") is not None:  # dayStart counts within that month (months and festivals, from 0)
            start += sum(whole(m["days"]) for m in by_ordinal[:whole(season["monthStart"]) % len(by_ordinal)])
        month, day = common_year_day(months, festivals, start)
        out["seasons"].append({"name": _name(season["name"]), "from": month, "day": day})
    out["eras"] = [{"name": _name(e["name"]), "abbreviation": _name(e.get("abbreviation") or ""),
                    "from_year": whole(e.get("startYear") or 0)} for e in (data.get("eras") or {}).values()]
    probe = Months(months_spec({**out, "first_weekday": week[0] if week else None, "moons": []}, NAME))
    if week:  # firstWeekday names the week day of the first day of the shown year yearZero
        before = probe.weekday(probe.day_in(zero, months[0]["name"], 1))
        out["first_weekday"] = week[(whole(years.get("firstWeekday") or 0) - week.index(before)) % len(week)]
    out["moons"] = []
    assumed = []
    for moon, reference in zip(moons, references):
        cycle = Decimal(decimal_text(moon["cycleLength"]))
        left_out = [what for what, key in (("phases", "phases"), ("reference date", "referenceDate"))
                    if not moon.get(key)]
        if moon.get("phases"):
            phases = sorted(moon["phases"].values(), key=lambda p: Decimal(str(p["start"])))
            names = [_name(p["name"]) for p in phases]
            lengths = [str((Decimal(str(p["end"])) - Decimal(str(p["start"]))) * cycle) for p in phases]
        else:
            names, lengths = list(_DEFAULT_PHASES), [str(cycle / len(_DEFAULT_PHASES))] * len(_DEFAULT_PHASES)
        # Its month counts every month, the intercalary ones too, as the seasons' monthStart does.
        month = _name(by_ordinal[whole(reference.get("month") or 0) % len(by_ordinal)]["name"])
        day = probe.day_in(whole(reference.get("year") or 0), month, 1) + whole(reference.get("dayOfMonth") or 0)
        # Calendaria takes a day's phase at the day's middle: half a day on from where tally counts it.
        out["moons"].append({"name": _name(moon["name"]), "cycle": str(cycle),
                             "shift": str(Decimal(day) - Decimal("1.5")), "phases": names, "lengths": lengths})
        if left_out:
            assumed.append(f"moon {_name(moon['name'])} has no {' and no '.join(left_out)}: "
                           + "; ".join(part for part, what in (
                               ("Calendaria's own eight equal phases (New Moon to Waning Crescent)", "phases"),
                               (f"its cycle counted from 1 {month} {whole(reference.get('year') or 0)}",
                                "reference date")) if what in left_out))
    for key, what in (("festivals", "festivals (recurring holidays)"), ("weather", "weather"),
                      ("daylight", "daylight"), ("canonicalHours", "canonical hours"), ("cycles", "cycles")):
        if data.get(key) and (key != "daylight" or data[key].get("enabled")):
            lost.append(what)
    return Converted("calendaria", out, lost, assumed=assumed)


def _reference(moon) -> dict:
    return moon.get("referenceDate") or _DEFAULT_REFERENCE
