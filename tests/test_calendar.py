"""Calendars print and parse game days in their own words."""

from pathlib import Path

import pytest

from ledger.calendar import calendar_from_spec, spec_for
from ledger.errors import BadInput

GREGORIAN = calendar_from_spec(spec_for("gregorian"))
BIFROST = calendar_from_spec(spec_for("bifrost"))


def test_gregorian_reads_iso_and_words():
    day = GREGORIAN.parse("1024-03-01")
    assert GREGORIAN.parse("1 March 1024") == day
    assert GREGORIAN.format(day + 1) == "1024-03-02"
    assert GREGORIAN.format(GREGORIAN.parse("1024-02-29") + 1) == "1024-03-01"  # 1024 is a leap year


@pytest.mark.parametrize("day", [1, 364, 365, 372_736, 1_000_000])
def test_bifrost_round_trips(day):
    assert BIFROST.parse(BIFROST.format(day)) == day


def test_bifrost_year_is_52_weeks_of_7_days_with_14_12_14_12_week_seasons():
    # 001 l.2935-2939: "two seasons of 14 weeks and two of 12 weeks" in a 52-week year.
    start = BIFROST.parse("day 1 of week 1, 1024")
    assert BIFROST.format(start + 364) == "day 1 of week 1, 1025"
    assert BIFROST.parse("1024-W12-3") == BIFROST.parse("day 3 of week 12, 1024")
    seasons = [BIFROST.season(start + 7 * week) for week in range(52)]
    assert [seasons.count(s) for s in ("Spring", "Summer", "Autumn", "Winter")] == [14, 12, 14, 12]


@pytest.mark.parametrize("calendar, text", [
    (GREGORIAN, "1024-02-30"), (GREGORIAN, "tomorrow"), (BIFROST, "day 8 of week 1, 1024"),
    (BIFROST, "day 1 of week 53, 1024"), (BIFROST, "1024-03-01"),
])
def test_impossible_dates_are_refused(calendar, text):
    with pytest.raises(BadInput, match="write it like"):
        calendar.parse(text)


def test_a_toml_calendar_of_months(tmp_path):
    path = tmp_path / "harn.toml"
    path.write_text('name = "Harnic"\nfirst_year = 720\n'
                    '[[months]]\nname = "Nuzyael"\ndays = 30\n[[months]]\nname = "Peonu"\ndays = 30\n')
    calendar = calendar_from_spec(spec_for(str(path)))
    day = calendar.parse("3 Peonu 720")
    assert calendar.format(day) == "3 Peonu 720"
    assert calendar.format(day + 28) == "1 Nuzyael 721"
    for bad in ("[[months]]\nname = 'x'\n", "months = 3", "not toml ["):
        path.write_text(bad)
        with pytest.raises(BadInput):
            spec_for(str(path))
    with pytest.raises(BadInput, match="cannot read calendar file"):
        spec_for(str(tmp_path / "missing.toml"))
    with pytest.raises(BadInput, match="unknown calendar"):
        spec_for("julian")


THAW = Path(__file__).parent.parent / "fixtures" / "calendars" / "thaw.toml"


def test_every_calendar_round_trips_through_its_own_words():
    custom = calendar_from_spec(spec_for(str(THAW)))
    for calendar, days in ((GREGORIAN, range(373_000, 374_500)), (BIFROST, range(372_000, 373_500)),
                           (custom, range(1, 9_000))):
        for day in days:
            assert calendar.parse(calendar.format(day)) == day, (calendar.spec["kind"], day)


def test_a_custom_calendar_with_festivals_a_leap_night_weeks_and_seasons():
    c = calendar_from_spec(spec_for(str(THAW)))
    # Year ends: Frost's last day, then Yule (no month, no week), then (leap years) Leap Night.
    end = c.parse("91 Frost 1023")
    assert [c.format(end + n) for n in range(3)] == ["91 Frost 1023", "Yule 1023", "1 Thaw 1024"]
    end = c.parse("91 Frost 1024")
    assert [c.format(end + n) for n in range(4)] == ["91 Frost 1024", "Yule 1024", "Leap Night 1024", "1 Thaw 1025"]
    assert (c.year_length_of(1023), c.year_length_of(1024)) == (366, 367)
    # Festival days belong to no week: the week runs on across them.
    midsummer = c.parse("Midsummer 1024")
    assert c.weekday(midsummer) is None
    names = c.spec["week"]
    before, after = c.weekday(midsummer - 1), c.weekday(midsummer + 1)
    assert names.index(after) == (names.index(before) + 1) % len(names)
    assert (c.season(c.parse("3 Thaw 1024")), c.season(midsummer), c.season(c.parse("Yule 1024"))) == (
        "Spring", "Summer", "Winter")
    with pytest.raises(BadInput, match="write it like"):
        c.parse("Leap Night 1023")  # not a leap year
    with pytest.raises(BadInput, match="write it like"):
        c.parse("92 Thaw 1024")


def test_calendar_files_are_checked(tmp_path):
    path = tmp_path / "bad.toml"
    for text, message in [
        ('[[months]]\nname = "A"\ndays = 3\n[[intercalary]]\nname = "X"\nafter = "B"\n', "intercalary day 1"),
        ('[[months]]\nname = "A"\ndays = 3\n[[intercalary]]\nname = "X"\nafter = "A"\nleap = true\n', "needs leap_every"),
        ('[[months]]\nname = "A"\ndays = 3\n[[months]]\nname = "a"\ndays = 3\n', "share a name"),
        ('week = "Monday"\n[[months]]\nname = "A"\ndays = 3\n', "list of day names"),
    ]:
        path.write_text(text)
        with pytest.raises(BadInput, match=message):
            spec_for(str(path))


def test_a_campaign_on_a_custom_calendar(tally_sqlite):
    tally_sqlite.ok("campaign", "new", "North", "--calendar", str(THAW), "--start", "3 Thaw 1024")
    shown = tally_sqlite.ok("calendar", "show", "--json").json
    assert (shown["today"], shown["weekday"], shown["season"]) == ("3 Thaw 1024", "Wodenday", "Spring")
    tally_sqlite.ok("calendar", "advance", "1y")  # the same date next year, though 1024 is a leap year
    assert tally_sqlite.ok("calendar", "show", "--json").json["today"] == "3 Thaw 1025"


def _advanced(t) -> dict:
    return t.ok("log", "--type", "calendar.advanced", "--json").json[-1]["payload"]


def test_a_year_on_is_the_same_date_next_year(tally):
    # Issue 12: `calendar advance 1y` from 1024-01-01 meant 1024-12-31 (365 days in a leap year).
    tally.ok("campaign", "new", "Greyhawk", "--start", "1024-01-01")
    tally.ok("calendar", "advance", "1y", "--why", "a year in the dungeon")
    assert tally.ok("calendar", "show", "--json").json["today"] == "1025-01-01"
    assert (_advanced(tally)["span"], _advanced(tally)["days"], _advanced(tally)["note"]) == ("1y", 366, None)
    tally.ok("calendar", "advance", "2m")
    assert tally.ok("calendar", "show", "--json").json["today"] == "1025-03-01"


def test_a_month_on_from_the_31st_lands_on_the_shorter_months_last_day_and_says_so(tally):
    tally.ok("campaign", "new", "Greyhawk", "--start", "1024-01-31")
    said = tally.ok("calendar", "advance", "1m").stdout
    assert "February 1024 has 29 days, so its last, 1024-02-29" in said
    assert _advanced(tally)["note"] == "1024-01-31 + 1m: February 1024 has 29 days, so its last, 1024-02-29"
    tally.ok("calendar", "advance", "1y")  # a leap day a year on: the 28th
    assert tally.ok("calendar", "show", "--json").json["today"] == "1025-02-28"
    assert "February 1025 has 28 days" in _advanced(tally)["note"]
    tally.ok("calendar", "advance", "12m")
    assert tally.ok("calendar", "show", "--json").json["today"] == "1026-02-28"


def test_months_and_years_in_a_calendar_of_months_and_festivals(tally_sqlite):
    t = tally_sqlite
    t.ok("campaign", "new", "North", "--calendar", str(THAW), "--start", "Leap Night 1024")
    t.ok("calendar", "advance", "1y")  # 1025 has no Leap Night: the day before its place
    assert t.ok("calendar", "show", "--json").json["today"] == "Yule 1025"
    assert "1025 has no Leap Night" in _advanced(t)["note"]
    refused = t.refused("calendar", "advance", "1m").stderr
    assert "Yule 1025 is a festival day that belongs to no month" in refused
    t.ok("calendar", "advance", "1d")
    t.ok("calendar", "advance", "5m")  # four months a year: Thaw 1026 + 5 = Highsun 1027
    assert t.ok("calendar", "show", "--json").json["today"] == "1 Highsun 1027"


def test_bifrost_has_no_months_to_advance_by(tally_sqlite):
    tally_sqlite.ok("campaign", "new", "Faerie", "--calendar", "bifrost", "--start", "1024-W01-1")
    assert "has no months" in tally_sqlite.refused("calendar", "advance", "1m").stderr
    tally_sqlite.ok("calendar", "advance", "1y")
    assert tally_sqlite.ok("calendar", "show", "--json").json["today"] == "day 1 of week 1, 1025"


def test_calendar_show_says_which_date_is_which(tally):
    tally.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "4")
    tally.ok("session", "open", "--activate", "Bo", "--no-income")
    tally.ok("session", "close", "--days", "5", "--haven", "Bo")
    lines = dict(line.split("  ", 1) for line in tally.ok("calendar", "show").stdout.splitlines())
    labels = {k.strip(): v.strip() for k, v in lines.items()}
    assert labels["today (the latest day recorded)"] == "1024-03-06"
    assert labels["world's date (moved by calendar advance)"] == "1024-03-01"


def test_a_schema_1_advance_reads_as_schema_2_without_a_span_or_note():
    from ledger.events.registry import decode
    from ledger.events.upcasters import upcast

    stored = {"from_day": 1, "to_day": 8, "days": 7, "why": "a week", "run": None}
    assert upcast("calendar.advanced", 1, stored) == {**stored, "span": None, "note": None}
    assert decode("calendar.advanced", 1, stored).days == 7 and "span" not in stored
