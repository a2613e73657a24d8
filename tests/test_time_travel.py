"""Queries pinned on the three axes (DESIGN.md §3), late facts, why and diff."""

import random
from pathlib import Path

import pytest
from freezegun import freeze_time

from tests.conftest import Tally

FIXTURE = Path(__file__).parent.parent / "fixtures" / "open-table.tally"


def cash(t, *point):
    return t.ok("char", "show", "Nureddine", "--json", *point).json["cash"]


def test_a_fact_logged_late_lands_on_its_day(table):
    table.ok("calendar", "advance", "4d")  # a late fact lands on today or before (issue 28)
    table.ok("--game-date", "1024-03-05", "cash", "Nureddine", "+10", "--why", "a patron's purse")
    table.ok("--game-date", "1024-03-03", "cash", "Nureddine", "-5", "--why", "remembered later: a bribe on the 3rd")
    (late,) = [e for e in table.ok("log", "--json").json if e["payload"].get("why", "").startswith("remembered")]
    assert late["game_time"] == table.ok("calendar", "show", "--as-of", "1024-03-03", "--json").json["day"]
    assert cash(table, "--as-of", "1024-03-02") == 40
    assert cash(table, "--as-of", "1024-03-03") == 35  # the late fact counts from its own day
    assert cash(table, "--as-of", "1024-03-05") == 45
    assert cash(table, "--at-event", str(late["position"] - 1)) == 50  # as recorded before it


def test_a_late_fact_is_checked_against_the_campaign_as_it_stood_then(table):
    table.ok("calendar", "advance", "9d")
    table.ok("--game-date", "1024-03-10", "cash", "Bo", "+20", "--why", "a reward")
    # On the 4th Bo had only his 3 Cash.
    assert "has 3 Cash" in table.refused("--game-date", "1024-03-04", "cash", "Bo", "-10", "--why", "x").stderr
    assert "begins on 1024-03-01" in table.refused("--game-date", "1023-12-25", "cash", "Bo", "+1", "--why", "x").stderr


def test_as_recorded_before_a_void_still_shows_the_voided_figure(table):
    with freeze_time("2030-11-01 20:00:00"):
        table.ok("cash", "Nureddine", "+7", "--why", "misheard: it was Bo's")
    position = table.ok("log", "--type", "cash.changed", "--json").json[-1]["position"]
    with freeze_time("2030-11-02 20:00:00"):
        table.ok("void", str(position), "--why", "the reward was Bo's")
    assert cash(table) == 40
    assert cash(table, "--as-recorded", "2030-11-01T21:00") == 47  # what the ledger said at the table
    assert cash(table, "--as-recorded", "2030-11-02T21:00:00Z") == 40
    assert cash(table, "--at-event", str(position)) == 47
    assert "cannot read" in table.refused("char", "show", "Nureddine", "--as-recorded", "last tuesday").stderr


def test_why_explains_a_wealth_change_down_to_the_roll(table):
    faces = ",".join(["4"] * 12 + ["1"] * 16)
    table.ok("wealth", "improve", "Nureddine", "--wager", "28", "--dice", faces)
    why = table.ok("why", "Nureddine", "wealth", "--json").json
    assert why["value"] == 6
    opening, improved = why["changes"]
    assert (opening["before"], opening["after"], opening["type"]) == (None, 5, "character.created")
    assert (improved["before"], improved["after"], improved["type"]) == (5, 6, "wealth.attempted")
    assert improved["roll"].startswith("Nureddine: 28d6s4 [4, 4") and improved["roll_position"] == improved["position"] - 1
    # The same question as of before the attempt.
    assert table.ok("why", "Nureddine", "wealth", "--at-event", str(improved["roll_position"]), "--json").json["value"] == 5
    assert "name the field" in table.refused("why", "Nureddine").stderr
    assert "no field 'charisma'" in table.refused("why", "Nureddine", "charisma").stderr
    assert "no character, faction or stronghold" in table.refused("why", "Nobody", "cash").stderr


def test_diff_between_a_sessions_start_and_end(table):
    table.ok("session", "open", "--activate", "Bo", "--activate", "Cass", "--no-income")
    table.ok("treasure", "add", "20", "--from", "bandits")
    table.ok("treasure", "split", "Bo=10", "Cass=10")
    table.ok("session", "close", "--haven", "Bo", "--haven", "Cass")
    rows = table.ok("diff", "--from", "session:1:start", "--to", "session:1:end", "Bo", "--json").json
    # The session's Boon is gained, and waits to be chosen (004 l.503).
    assert {(r["field"], r["from"], r["to"]) for r in rows} == {("cash", 3, 13), ("boons", 0, 1),
                                                                 ("boons_unchosen", 0, 1)}
    assert "cannot read the point" in table.refused("diff", "--from", "yesterday", "--to", "event:3").stderr
    assert "there is no session 7 in the ledger" in table.refused("diff", "--from", "session:7:start", "--to", "event:3").stderr


def test_calendar_advance_never_runs_backwards(table):
    table.ok("calendar", "advance", "2w", "--why", "winter quarters")
    assert table.ok("calendar", "show", "--json").json["today"] == "1024-03-15"
    assert table.ok("calendar", "show", "--at-event", "2", "--json").json["today"] == "1024-03-01"
    assert "write 3d, 2w, 1m or 1y" in table.refused("calendar", "advance", "-3d").stderr
    assert "at least one day" in table.refused("calendar", "advance", "0d").stderr


def test_as_of_answers_equal_a_rebuild_from_nothing_at_many_points(tally_sqlite, tmp_path):
    """At random positions, the pinned query equals a ledger rebuilt by importing
    only the events up to that position into an empty database."""
    t = tally_sqlite
    t.ok("script", str(FIXTURE), "--quiet")
    export = tmp_path / "all.jsonl"
    t.ok("export", str(export))
    lines = export.read_text().splitlines()
    rng = random.Random(6)
    for n in sorted(rng.sample(range(12, len(lines) + 1), 12)):
        partial = tmp_path / f"upto-{n}.jsonl"
        partial.write_text("\n".join(lines[:n]) + "\n")
        rebuilt = Tally(f"sqlite:///{tmp_path / f'rebuilt-{n}.db'}")
        rebuilt.ok("import", str(partial))
        assert rebuilt.ok("char", "list", "--json").json == t.ok("char", "list", "--at-event", str(n), "--json").json
        assert rebuilt.ok("company", "--json").json == t.ok("company", "--at-event", str(n), "--json").json
    # And on the game-time axis: every session's start date sees exactly the characters created by then.
    for number in range(1, 11):
        start = t.ok("session", "show", str(number), "--json").json["start"]
        names = {c["name"] for c in t.ok("char", "list", "--as-of", start, "--json").json}
        assert "Nureddine" in names and ("Wren" in names) == (number >= 6)


def test_two_groups_overlapping_expeditions_are_refused_unless_overridden(table):
    # An open table: two groups in one world. Bo's group sets out on the 1st for five days.
    table.ok("session", "open", "--game-date", "1024-03-01", "--activate", "Bo", "--no-income")
    table.ok("session", "close", "--game-date", "1024-03-06", "--haven", "Bo")
    who = table.ok("calendar", "who", "--json").json
    assert who["world_date"] == "1024-03-01"
    bo = next(r for r in who["characters"] if r["character"] == "Bo")
    assert (bo["now"], bo["ahead_days"]) == ("1024-03-06", 5)
    # Another group, meeting later in real time, plays the 3rd: Bo cannot be in two places.
    refused = table.refused("session", "open", "--game-date", "1024-03-03", "--activate", "Bo",
                            "--activate", "Cass", "--no-income")
    assert "Bo is away on another expedition until 1024-03-06" in refused.stderr
    table.ok("session", "open", "--game-date", "1024-03-03", "--activate", "Bo", "--activate", "Cass",
             "--no-income", "--override", "Bo=the referee rules Bo left the first group early")
    (opened,) = [e for e in table.ok("log", "--type", "session.opened", "--json").json if e["payload"]["number"] == 2]
    assert opened["payload"]["overrides"] == {"Bo": "the referee rules Bo left the first group early"}
    table.ok("session", "close", "--game-date", "1024-03-04", "--haven", "Bo", "--haven", "Cass")
    # Starting on the day Bo is back is fine.
    table.ok("session", "open", "--game-date", "1024-03-06", "--activate", "Bo", "--no-income")


@pytest.mark.parametrize("instant", ["9999-12-31T23:00:00-05:00", "0001-01-01T00:00+14:00"])
def test_an_instant_beyond_the_calendar_in_utc_is_refused_in_one_line(table, instant):
    # It reads as a time, but its UTC instant is past year 9999 or before year 1: an internal error before.
    for args in (("char", "show", "Bo", "--as-recorded", instant), ("diff", "--from", f"recorded:{instant}", "--to", "1024-03-01")):
        refused = table.refused(*args).stderr
        assert refused.count("\n") == 1 and f"'{instant}' falls outside the years 1 to 9999 in UTC" in refused
