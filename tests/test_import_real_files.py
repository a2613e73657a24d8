"""Imports of real files (issue 28): what a player found trying 43 real
calendars and 17 roll logs from public repositories. Each test names the
issue's line it answers and the file it reads (fixtures/imports/SOURCES.md
says where each came from). Roll logs on both backends."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

from commands.imports import calendar_file, foundry
from ledger.calendar import calendar_from_spec

IMPORTS = Path(__file__).parent.parent / "fixtures" / "imports"
POOLS = IMPORTS / "foundry-pool-messages.db"
NO_NOTATION = IMPORTS / "ddb-roll-events-no-notation.jsonl"
HARPTOS = IMPORTS / "fantasy-calendar-harptos-custom-export.json"
GREGORIAN = IMPORTS / "fantasy-calendar-gregorian-export.json"
EXALTED = IMPORTS / "simple-calendar-exalted.json"
ATHASIAN = IMPORTS / "calendaria-athasian.json"
PACT = IMPORTS / "calendaria-pact-standard.json"
RAW = ("Extra data", "Expecting value", "KeyError", "line 1 column 2 (char 1)")


def rolled(t) -> dict[str, dict]:
    return {p["source_id"]: p for p in (e["payload"] for e in t.ok("log", "--type", "dice.rolled", "--json").json)}


def messages(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def pool_of(message: dict) -> tuple[dict, dict]:
    """A message's roll and its pool term, read straight from the JSON."""
    data = json.loads(message["roll"] if "roll" in message else message["rolls"][0])
    return data, next(t for t in data["terms"] if t["class"] == "PoolTerm")


# -- "Foundry worlds whose rolls use PoolTerm ({4d6, 3d8}kh) are refused 817 of 857 lines with a leaked
#    'Extra data: line 1 column 2': read pool terms." ------------------------------------------------

def test_every_face_of_a_dice_pool_is_read_and_a_roll_the_pool_kept_out_is_dropped():
    parsed = foundry.parse(POOLS.read_text())
    assert parsed.problems == []  # each of these was "Extra data: line 1 column 2" before pools were read
    got = {r.source_id.split(":")[0]: r for r in parsed.rolls}
    assert len(got) == 5
    for message in messages(POOLS):
        data, pool = pool_of(message)
        roll = got[message["_id"]]
        assert (roll.formula, roll.total) == (data["formula"], Decimal(data["total"]))
        # The oracle: the faces of each inner roll in turn; those of an inner roll whose result is inactive dropped.
        faces, out = [], []
        for inner, result in zip(pool["rolls"], pool["results"]):
            inner_faces = [r["result"] for t in inner["terms"] if t["class"] == "Die" for r in t["results"]]
            out += range(len(faces), len(faces) + len(inner_faces)) if not result["active"] else []
            faces += inner_faces
        assert (roll.dice, roll.dropped) == (faces, out)
    keep_high = got["pT2oolKeepHigh01"]  # {4d6, 3d8}kh: 3+5+2+6 = 16 beats 7+1+4 = 12
    assert (keep_high.dice, keep_high.dropped, keep_high.total) == ([3, 5, 2, 6, 7, 1, 4], [4, 5, 6], 16)
    successes = got["pT4oolSuccesses1"]  # {2d6, 1d8, 1d10}cs>=7: the total counts the rolls of 7 or more
    _, pool = pool_of(next(m for m in messages(POOLS) if m["_id"] == "pT4oolSuccesses1"))
    assert successes.total == sum(1 for r in pool["results"] if r["result"] >= 7) == 2
    assert successes.dropped == []  # a counted roll is no dropped one
    assert got["pT1oolNine0000a1"].dice == [6, 3]  # Foundry 9 kept one "roll"; its pool's die exploded


def test_a_log_of_dice_pools_is_imported_once_on_each_backend(campaign):
    report = campaign.ok("import-rolls", "foundry", str(POOLS), "--json").json
    assert (report["rolls"], report["dice"], report["skipped"]) == (5, 17, [])
    assert report["per_speaker"] == {"Ash": 3, "Bryn": 2}
    rolls = rolled(campaign)
    keep_low = rolls["pT3oolKeepLow001:0"]  # {1d20 + 5, 1d20 + 5}kl: 14 + 5 is kept out, 8 + 5 = 13 stands
    assert (keep_low["expression"], keep_low["dice"], keep_low["dropped"], keep_low["total"]) == \
        ("{1d20 + 5, 1d20 + 5}kl", [14, 8], [0], 13)
    beside = rolls["pT5oolPlusTwo001:0"]
    assert (beside["dice"], beside["dropped"], beside["total"]) == ([3, 6], [0], 8)
    again = campaign.ok("import-rolls", "foundry", str(POOLS), "--json").json
    assert (again["rolls"], again["already_imported"]) == (0, 5)


def test_a_pool_that_does_not_add_up_and_a_roll_that_is_no_json_are_named_in_tallys_words(campaign, tmp_path):
    lines = POOLS.read_text().splitlines()
    wrong = json.loads(lines[1])
    data = json.loads(wrong["rolls"][0])
    data["total"] = 17  # the pool keeps 16
    wrong["rolls"][0] = json.dumps(data)
    formula = json.loads(lines[2])
    formula["rolls"] = ["{1d20 + 5, 1d20 + 5}kl"]  # a formula where Foundry keeps the roll's JSON
    log = tmp_path / "messages.db"
    log.write_text("\n".join([lines[0], json.dumps(wrong), json.dumps(formula), "4d6kh3", lines[3]]) + "\n")
    said = campaign.refused("import-rolls", "foundry", str(log)).stderr
    assert "3 line(s) cannot be read" in said
    assert "line 2: roll 1 of message pT2oolKeepHigh01: total 17 does not follow from its dice and numbers (16)" in said
    assert "line 3: roll 1 of message pT3oolKeepLow001: it is no roll Foundry wrote (not JSON" in said
    assert "line 4: not a JSON chat message: not JSON (it stops being JSON at line 1, column 2)" in said
    assert not any(raw in said for raw in RAW), said
    report = campaign.ok("import-rolls", "foundry", str(log), "--skip-bad", "--json").json
    assert report["rolls"] == 2 and sorted(s["line"] for s in report["skipped"]) == [2, 3, 4]


# -- "D&D Beyond rolls without diceNotationStr are stored with expression ?: rebuild the notation from
#    the dice (count, sides, constants, operation)." ------------------------------------------------

def test_a_ddb_roll_without_its_notation_has_it_written_from_its_dice(campaign):
    report = campaign.ok("import-rolls", "ddb", str(NO_NOTATION), "--json").json
    assert (report["rolls"], report["dice"]) == (4, 12)
    rolls = sorted(rolled(campaign).values(), key=lambda p: p["rolled_at"])
    assert all("diceNotationStr" not in roll for e in messages(NO_NOTATION) for roll in e["data"]["rolls"])
    # count, die and operation of each set (2 keeps the highest die, 1 the lowest), then the constant
    assert [p["expression"] for p in rolls] == ["5d8", "2d20kh1+5", "2d20kl1-1", "1d8+2d6+3"]
    stealth = rolls[2]  # two d20s, the lower kept, though the roll names no disadvantage
    assert (stealth["dice"], stealth["dropped"], stealth["total"]) == ([12, 6], [0], 5)


def test_a_ddb_dice_set_that_is_no_die_is_refused_on_one_line(campaign, tmp_path):
    events = messages(NO_NOTATION)
    events[0]["data"]["rolls"][0]["diceNotation"]["set"][0]["dieType"] = "dF"
    log = tmp_path / "ddb.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in events))
    said = campaign.refused("import-rolls", "ddb", str(log)).stderr
    assert "line 1: roll event 4f1c2a9e-0b7d-4c1e-9a55-000000000001: a dice set of 'dF' with operation 0" in said


# -- "A calendar's stated day count is 'checked' but a stale one passes with exit 0: say it disagrees,
#    and which figure is tally's." --------------------------------------------------------------------

def test_a_stale_day_count_is_said_with_both_figures_and_tallys_day(tally_sqlite, tmp_path):
    export = json.loads(HARPTOS.read_text())
    counted = export["dynamic_data"]["epoch"]  # the file's own count, which agrees with its date
    agrees = tally_sqlite.ok("calendar", "import", str(HARPTOS), "--json").json["source_today"]
    assert agrees["source_epoch_agrees"] is True and "disagreement" not in agrees
    export["dynamic_data"]["epoch"] = counted - 65  # as saved before two months were added to the calendar
    stale = tmp_path / "stale.json"
    stale.write_text(json.dumps(export))
    said = tally_sqlite.ok("calendar", "import", str(stale)).stdout
    assert f"warning: its own day count {counted - 65} disagrees with its date 2 Marpenoth (Leaffall) 1498, " \
           f"which its months and leap days make day count {counted}: tally keeps the date, as its day " \
           f"{counted + 1}" in said
    assert f"its today: 2 Marpenoth (Leaffall) 1498 (tally's day {counted + 1})" in said
    shown = tally_sqlite.ok("calendar", "import", str(stale), "--json").json["source_today"]
    assert (shown["source_epoch"], shown["source_epoch_agrees"], shown["day"]) == (counted - 65, False, counted + 1)


# -- "a whole Simple Calendar refused over one moon without phases (import the rest, say what was
#    dropped)" ---------------------------------------------------------------------------------------

def test_a_simple_calendar_moon_without_phases_is_left_out_and_the_rest_converted(tally_sqlite, tmp_path):
    source = json.loads(EXALTED.read_text())["calendar"]
    assert [len(m["phases"]) for m in source["moons"]] == [0]  # Luna, as Simple Calendar ships it
    out = tmp_path / "exalted.toml"
    said = tally_sqlite.ok("calendar", "import", str(EXALTED), "--out", str(out)).stdout
    assert "not carried: moon Luna: it has no phases, so Simple Calendar shows no phase of it" in said
    converted = calendar_file.read(str(EXALTED))
    assert converted.spec["moons"] == []
    kept = [m["name"] for m in converted.spec["months"]] + [f["name"] for f in converted.spec["intercalary"]]
    assert sorted(kept) == sorted(m["name"] for m in source["months"])
    assert calendar_from_spec(converted.spec).year_days == sum(m["numberOfDays"] for m in source["months"])
    today = source["currentDate"]
    tally_sqlite.ok("campaign", "new", "Creation", "--calendar", str(out), "--start",
                    f"{today['day'] + 1} {source['months'][today['month']]['name']} {today['year']}")


# -- "Calendaria's own shipped athasian file refused with KeyError: 'phases'" --------------------------

def calendaria_phase(day: int, reference: int, cycle: int) -> str:
    """Calendaria's phase of a moon with its eight default phases, as its getMoonPhase finds it for a
    whole cycle: the day's place in the cycle, taken at the day's middle."""
    names = ["New Moon", "Waxing Crescent", "First Quarter", "Waxing Gibbous", "Full Moon", "Waning Gibbous",
             "Last Quarter", "Waning Crescent"]
    into = (day - reference) % cycle
    return names[int((Decimal(into) + Decimal("0.5")) / cycle * 8)]


def test_calendarias_athasian_takes_calendarias_own_phases_for_its_moons(tally_sqlite, tmp_path):
    source = json.loads(ATHASIAN.read_text())
    assert all("phases" not in m and "referenceDate" not in m for m in source["moons"].values())
    out = tmp_path / "athas.toml"
    said = tally_sqlite.ok("calendar", "import", str(ATHASIAN), "--out", str(out)).stdout
    assert "assumed as calendaria does: moon Ral has no phases and no reference date: Calendaria's own eight " \
           "equal phases (New Moon to Waning Crescent); its cycle counted from 1 Dominary 1" in said
    assert not any(raw in said for raw in RAW)
    converted = calendar_file.read(str(ATHASIAN))
    calendar = calendar_from_spec(converted.spec)
    assert calendar.year_days == sum(m["days"] for m in source["months"]["values"].values()) == 375
    reference = calendar.parse("1 Dominary 1")  # Calendaria's reference date when a moon names none: year 1
    for moon in source["moons"].values():
        for day in range(reference - 3, reference + 2 * moon["cycleLength"] + 3):
            shown = next(m["phase"] for m in calendar.moon_phases(day) if m["moon"] == moon["name"])
            assert shown == calendaria_phase(day, reference, moon["cycleLength"]), (moon["name"], day)
    year = calendar.parse("1 Dominary 190")
    for season in source["seasons"]["values"].values():  # each begins on its dayStart, counted from 0
        assert calendar.season(year + season["dayStart"]) == season["name"]
        assert calendar.season(year + season["dayStart"] - 1) != season["name"]
    tally_sqlite.ok("campaign", "new", "Athas", "--calendar", str(out), "--start", "1 Dominary 190")


# -- "Calendaria pact-standard 'no day 1 of Abadius in -1700' (negative years and year zero)" -----------

def test_calendaria_pact_standard_counts_years_from_its_year_zero_of_minus_1700(tally_sqlite, tmp_path):
    source = json.loads(PACT.read_text())
    assert source["years"]["yearZero"] == -1700
    out = tmp_path / "pact.toml"
    said = tally_sqlite.ok("calendar", "import", str(PACT), "--out", str(out)).stdout
    assert said.startswith("Pact-Standard from calendaria: a common year of 365 days")
    calendar = calendar_from_spec(calendar_file.read(str(PACT)).spec)
    assert calendar.parse("1 Abadius -1700") == 1 and calendar.format(1) == "1 Abadius -1700"
    assert calendar.parse("31 Kuthona -1") + 1 == calendar.parse("1 Abadius 0")  # a year 0, as in Calendaria
    # Its rule is the Gregorian one, counted on the years it shows (-1700 is a century not divisible by 400).
    assert [calendar.year_length_of(y) for y in (-1700, -1600, -4, 0, 100, 322)] == [365, 366, 366, 366, 365, 365]
    week = [d["name"] for d in sorted(source["days"]["values"].values(), key=lambda d: d["ordinal"])]
    assert calendar.weekday(1) == week[source["years"]["firstWeekday"]]  # its first day, of the year yearZero
    months = [m["name"] for m in sorted(source["months"]["values"].values(), key=lambda m: m["ordinal"])]
    for season in source["seasons"]["values"].values():  # by month (from 0) and day within it (from 0)
        first = calendar.parse(f"{season['dayStart'] + 1} {months[season['monthStart']]} 322")
        assert calendar.season(first) == re.sub(r"^CALENDARIA\.Season\.", "", season["name"])
        assert calendar.season(first - 1) != calendar.season(first)
    tally_sqlite.ok("campaign", "new", "Pact", "--calendar", str(out), "--start", "1 Abadius 322")


def test_a_calendaria_file_without_months_or_with_a_month_lacking_its_days_is_refused_in_tallys_words(
        tally_sqlite, tmp_path):
    source = json.loads(ATHASIAN.read_text())
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({**source, "months": {"values": {}}}))
    said = tally_sqlite.refused("calendar", "import", str(empty)).stderr
    assert "(Calendaria): it holds no months: a tally calendar is made of months" in said
    broken = json.loads(ATHASIAN.read_text())
    del broken["months"]["values"]["dominary00000000"]["days"]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    said = tally_sqlite.refused("calendar", "import", str(path)).stderr
    assert "looks like a Calendaria calendar but is not one as Calendaria writes it (no 'days' in it)" in said
    assert not any(raw in said for raw in RAW)


# -- "a Fantasy-Calendar event's duration and categories dropped without a word" ------------------------

def test_a_fantasy_calendar_events_category_and_length_are_kept_in_its_note_and_said(tally, tmp_path):
    export = json.loads(GREGORIAN.read_text())
    names = {re.sub(r"[^a-z0-9]+", "-", c["name"].lower()): c["name"] for c in export["categories"]}
    dated = [e for e in export["events"] if e["data"]["date"]]
    said = tally.ok("calendar", "import", str(GREGORIAN)).stdout
    assert f"not carried: event categories as such: {len(dated)} dated event(s) keep theirs in their note's " \
           "text" in said
    out = tmp_path / "gregorian.toml"
    tally.ok("calendar", "import", str(GREGORIAN), "--out", str(out))
    tally.ok("campaign", "new", "Earth", "--calendar", str(out), "--start", "1 January 1500")
    assert tally.ok("calendar", "import", str(GREGORIAN), "--notes", "--json").json["notes_recorded"] == len(dated)
    notes = {e["payload"]["title"]: e["payload"]["text"] for e in tally.ok("log", "--type", "note.recorded",
                                                                          "--json").json}
    for event in dated:
        assert notes[event["name"]].endswith(f"(category: {names[event['event_category_id']]})")

    harptos = json.loads(HARPTOS.read_text())
    lasting = [e for e in harptos["events"] if e["data"]["date"] and e["data"]["has_duration"]]
    assert [(e["name"], e["data"]["duration"]) for e in lasting] == [("REST", 9)]
    said = tally.ok("calendar", "import", str(HARPTOS)).stdout
    assert "not carried: 1 event(s) lasting more than a day (REST: 9 days): each note is on its first day, " \
           "with its length in its text" in said
    rest = next(n for n in calendar_file.read(str(HARPTOS)).notes if n.title == "REST")
    assert rest.text == "(lasts 9 days)" and rest.when == (1498, "Eleint (The Fading)", 22)
