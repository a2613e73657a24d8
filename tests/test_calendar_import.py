"""Calendars from Fantasy-Calendar come in with their day arithmetic intact:
the source's own day count (its epoch) is the oracle."""

import json
from pathlib import Path

import pytest

from ledger.calendar import calendar_from_spec
from commands.imports import calendar_file

IMPORTS = Path(__file__).parent.parent / "fixtures" / "imports"
FC = {name: IMPORTS / f"fantasy-calendar-{name}-export.json" for name in ("gregorian", "harptos-custom", "imperial")}


@pytest.mark.parametrize("name, epoch", [("gregorian", 738186), ("harptos-custom", 547054), ("imperial", 414610)])
def test_the_days_since_year_one_equal_fantasy_calendars_own_count(name, epoch):
    converted = calendar_file.read(str(FC[name]))
    assert converted.epoch == epoch  # the file's own figure, two thousand, fifteen hundred, eleven hundred years on
    assert converted.day_of(converted.today) - 1 == epoch


def test_era_epochs_and_real_dates_agree_over_centuries():
    imperial = calendar_file.read(str(FC["imperial"]))
    data = json.loads(FC["imperial"].read_text())["static_data"]
    for era in data["eras"]:  # year zero exists; an intercalary day every year
        date = era["date"]
        assert imperial.day_of((date["year"], "Month 1", date["day"])) - 1 == date["epoch"]
    gregorian = calendar_from_spec(calendar_file.read(str(FC["gregorian"])).spec)
    from datetime import date
    for year in (1, 4, 100, 400, 1582, 1900, 2000, 2022):  # "400,!100,4": the proleptic Gregorian count
        for month, day in ((1, 1), (2, 28), (3, 1), (12, 31)):
            assert gregorian.parse(f"{day} {date(year, month, 1).strftime('%B')} {year}") == \
                date(year, month, day).toordinal()
    assert gregorian.format(date(2000, 2, 29).toordinal()) == "29 February 2000"
    assert gregorian.weekday(date(2022, 2, 1).toordinal()) == "Tuesday"


def test_what_cannot_be_carried_is_said_and_the_rest_is_a_tally_calendar(tally_sqlite, tmp_path):
    out = tmp_path / "harptos.toml"
    said = tally_sqlite.ok("calendar", "import", str(FC["harptos-custom"]), "--out", str(out)).stdout
    assert "its today: 2 Marpenoth (Leaffall) 1498 (its own day count 547054: tally's day 547055)" in said
    assert "not carried: 11 recurring event(s)" in said and "not carried: weather" in said
    calendar = calendar_from_spec(calendar_file.read(str(FC["harptos-custom"])).spec)
    # Shieldmeet lengthens Midsummer every fourth year: 1496 has 366 days, 1497 has 365.
    assert (calendar.year_length_of(1496), calendar.year_length_of(1497)) == (366, 365)
    assert calendar.weekday(calendar.parse("11 Eleint (The Fading) 1498")) == "I"  # the week restarts each month
    assert "exists" in tally_sqlite.refused("calendar", "import", str(FC["harptos-custom"]), "--out", str(out)).stderr


def test_dated_events_become_notes_of_the_campaign_once(tally_sqlite, tmp_path):
    t, out = tally_sqlite, tmp_path / "harptos.toml"
    t.ok("calendar", "import", str(FC["harptos-custom"]), "--out", str(out))
    t.ok("campaign", "new", "Realms", "--calendar", str(out), "--start", "1 Hammer (Deepwinter) 1498")
    assert t.ok("calendar", "import", str(FC["harptos-custom"]), "--notes", "--json").json["notes_recorded"] == 60
    again = t.ok("calendar", "import", str(FC["harptos-custom"]), "--notes", "--json").json
    assert (again["notes_recorded"], again["notes_already_held"]) == (0, 60)
    notes = t.ok("log", "--type", "note.recorded", "--json").json
    dragon = next(n for n in notes if n["payload"]["title"] == "(36) Dragon.")
    assert dragon["game_time"] == calendar_file.read(str(FC["harptos-custom"])).day_of((1498, "Eleint (The Fading)", 8))


def test_notes_need_the_campaign_on_that_calendar_and_begun_before_them(tally_sqlite, tmp_path):
    t, out = tally_sqlite, tmp_path / "harptos.toml"
    t.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    assert "does not run this calendar" in t.refused("calendar", "import", str(FC["harptos-custom"]), "--notes").stderr
    late, out = tmp_path / "late.db", tmp_path / "h.toml"
    from tests.conftest import Tally
    other = Tally(f"sqlite:///{late}")
    other.ok("calendar", "import", str(FC["harptos-custom"]), "--out", str(out))
    other.ok("campaign", "new", "Realms", "--calendar", str(out), "--start", "1 Nightal (The Drawing Down) 1498")
    assert "fall before the campaign began" in other.refused("calendar", "import", str(FC["harptos-custom"]),
                                                             "--notes").stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    assert "is not a Fantasy-Calendar" in t.refused("calendar", "import", str(bad)).stderr
    bad.write_text("{")
    assert "is not JSON" in t.refused("calendar", "import", str(bad)).stderr


def test_simple_calendars_gregorian_preset_counts_days_and_weeks_as_the_real_calendar():
    from datetime import date
    converted = calendar_file.read(str(IMPORTS / "simple-calendar-gregorian.json"))
    calendar = calendar_from_spec(converted.spec)
    for real in (date(1, 1, 1), date(1600, 2, 29), date(1900, 3, 1), date(2022, 3, 29)):
        day = converted.day_of((real.year, real.strftime("%B"), real.day))
        assert day == real.toordinal() + 366  # its years start at 0, a leap year
        assert calendar.weekday(day) == real.strftime("%A")  # week days counted from yearZero's first_weekday
    assert calendar.season(converted.day_of((2022, "March", 29))) == "Spring"  # from 20 March (month 2, day 19)
    assert calendar.moon_phases(converted.day_of((2022, "April", 1)))[0]["phase"] == "New Moon"


def test_simple_calendar_harptos_notes_and_leap_festival(tally_sqlite, tmp_path):
    path = IMPORTS / "simple-calendar-harptos.json"
    converted = calendar_file.read(str(path))
    calendar = calendar_from_spec(converted.spec)
    assert (calendar.year_length_of(1492), calendar.year_length_of(1493)) == (366, 365)  # Shieldmeet
    assert "10 repeating note(s): each is recorded once, on its first date" in converted.lost
    out = tmp_path / "h.toml"
    tally_sqlite.ok("calendar", "import", str(path), "--out", str(out))
    tally_sqlite.ok("campaign", "new", "Realms", "--calendar", str(out), "--start", "1 Hammer 1495")
    assert tally_sqlite.ok("calendar", "import", str(path), "--notes", "--json").json["notes_recorded"] == 10


def test_calendarias_gregorian_counts_days_weeks_and_moons_as_the_real_calendar():
    from datetime import date
    converted = calendar_file.read(str(IMPORTS / "calendaria-gregorian.json"))
    calendar = calendar_from_spec(converted.spec)
    for real in (date(4, 2, 29), date(1970, 1, 1), date(2022, 3, 29)):
        day = converted.day_of((real.year, real.strftime("%B"), real.day))
        assert day == real.toordinal() + 366 and calendar.weekday(day) == real.strftime("%A")
    assert calendar.moon_phases(converted.day_of((2025, "January", 29)))[0]["phase"] == "New Moon"
    assert calendar.era(converted.day_of((2022, "March", 1))) == "Common Era (CE)"
    assert "festivals (recurring holidays)" in converted.lost
    harptos = calendar_from_spec(calendar_file.read(str(IMPORTS / "calendaria-harptos.json")).spec)
    assert (harptos.year_length_of(1492), harptos.year_length_of(1493)) == (366, 365)  # Midsummer's leap day


def _fantasy_calendar(tmp_path, change) -> Path:
    data = json.loads((IMPORTS / "fantasy-calendar-imperial-export.json").read_text())
    change(data)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data))
    return path


def test_a_current_date_outside_its_calendar_is_refused_naming_the_file_and_what_to_do(tally_sqlite, tmp_path):
    # It said only "there is no day 9999 of Month 1 in 1135 in this calendar".
    path = _fantasy_calendar(tmp_path, lambda d: d["dynamic_data"].update(day=9999))
    said = tally_sqlite.refused("calendar", "import", str(path), "--out", str(tmp_path / "c.toml")).stderr
    assert f"calendar file {path} (Fantasy-Calendar): its current date, day 9999 of Month 1 in 1135, is not a day" \
        in said and "set the current date in fantasy-calendar and export the calendar again" in said
    assert not (tmp_path / "c.toml").exists()


def test_a_month_whose_length_is_true_is_refused_not_read_as_one_day(tally_sqlite, tmp_path):
    path = _fantasy_calendar(tmp_path, lambda d: d["static_data"]["year_data"]["timespans"][0].update(length=True))
    said = tally_sqlite.refused("calendar", "import", str(path), "--out", str(tmp_path / "c.toml")).stderr
    assert f"calendar file {path} looks like a Fantasy-Calendar calendar but is not one" in said
