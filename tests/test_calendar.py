"""Calendars print and parse game days in their own words."""

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
