"""Issue 12: what a new referee types in the first hour, typed as they would
(the installed `tally` as a real process where the terminal matters)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from cli.main import COMMANDS, GROUPS

TALLY = shutil.which("tally", path=str(Path(sys.executable).parent)) or "tally"


def run(*args, db, **kwargs):
    env = {**os.environ, "TALLY_DB": str(db), "TALLY_ACTOR": "referee", "COLUMNS": "200"}
    return subprocess.run([TALLY, *args], capture_output=True, text=True, env=env, **kwargs)


def test_tally_help_names_every_group_and_command_beside_its_line(tmp_path):
    shown = run("--help", db=tmp_path / "t.db")
    assert shown.returncode == 0, shown.stderr
    listed = dict(re.findall(r"^│ ([a-z][a-z-]*) +(\S.*?) *│$", shown.stdout, re.M))
    for name, (_, _, line) in {**GROUPS, **COMMANDS}.items():
        assert name in listed, f"`tally --help` does not name {name}"
        assert line.startswith(listed[name].rstrip(" .…")[:40]), (name, listed[name])
    assert not (tmp_path / "t.db").exists()


def test_version_is_the_installed_package_version(tmp_path):
    shown = run("--version", db=tmp_path / "t.db")
    assert (shown.returncode, shown.stdout.strip()) == (0, f"tally (tallystick) {version('tallystick')}")


def test_a_help_line_missing_from_the_table_is_a_usage_error_not_a_crash(tmp_path):
    shown = run("rol", "1d6", db=tmp_path / "t.db")
    assert shown.returncode == 2 and "No such command 'rol'" in shown.stderr and "Traceback" not in shown.stderr


@pytest.fixture
def ledger(tmp_path):
    db = tmp_path / "t.db"
    assert run("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01", db=db).returncode == 0
    return db


def test_schedule_add_advance_daily_prints_no_scheduler_traceback(ledger):
    for _ in range(3):  # the race with APScheduler's thread did not show every time
        added = run("schedule", "add", "advance-daily", db=ledger)
        assert added.returncode == 0 and added.stderr == "", added.stderr
        assert "job advance-daily" in added.stdout
        removed = run("schedule", "remove", "advance-daily", db=ledger)
        assert removed.returncode == 0 and removed.stderr == "", removed.stderr


@pytest.mark.parametrize("command", [("calendar", "show"), ("log",), ("roll", "1d6")])
def test_a_reader_that_stops_reading_ends_the_command_quietly(ledger, command):
    """`tally calendar show | head -1`: the reader has gone before tally prints."""
    env = {**os.environ, "TALLY_DB": str(ledger), "TALLY_ACTOR": "referee"}
    process = subprocess.Popen([TALLY, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    process.stdout.close()  # like `head` that has read all it wanted
    said = process.stderr.read().decode()
    assert process.wait() == 1
    assert said == ""


def test_head_of_calendar_show_is_its_first_line(ledger):
    shown = subprocess.run(f"{TALLY} calendar show | head -1", shell=True, capture_output=True, text=True,
                           env={**os.environ, "TALLY_DB": str(ledger)})
    assert shown.stdout == "today (the latest day recorded)           1024-03-01\n" and shown.stderr == ""


def test_char_new_help_says_the_coeac_module_requires_max_hp(ledger):
    shown = run("char", "new", "--help", db=ledger)
    assert re.search(r"--max-hp .*Maximum HP \(required by the coeac module\)", shown.stdout)
    run("player", "add", "Ann", db=ledger)
    refused = run("char", "new", "Bo", "--player", "Ann", db=ledger)
    assert refused.returncode == 1
    assert refused.stderr == "tally: the coeac module needs the character's maximum HP: give --max-hp N\n"


def test_an_unexpected_error_is_one_line_with_a_hint(campaign, monkeypatch):
    from commands import dice

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire\nsecond line")

    monkeypatch.setattr(dice, "roll_seeded", broken)  # what `tally roll` calls
    outcome = campaign("roll", "1d6")
    assert outcome.exit_code == 1
    assert outcome.stderr == ("tally: internal error (RuntimeError: disk on fire); `tally log` shows what is "
                              "recorded. Run again with TALLY_DEBUG=1 for the details and report it\n")


def test_a_script_usage_error_stops_it_there_with_each(campaign, tmp_path):
    script = tmp_path / "s.tally"
    script.write_text("roll 1d6\nroll\nroll 1d8\n")
    before = campaign.event_count()
    outcome = campaign("script", str(script), "--each")
    assert outcome.exit_code == 2
    assert "line 2 (roll) was refused: Missing argument 'expression'" in outcome.stderr
    rolls = [e["payload"]["expression"] for e in campaign.ok("log", "--type", "dice.rolled", "--json").json]
    assert rolls == ["1d6"] and campaign.event_count() == before + 1  # line 3 never ran


def test_a_script_line_takes_game_date_at_its_end(table, tmp_path):
    table.ok("calendar", "advance", "1w")
    script = tmp_path / "s.tally"
    script.write_text('cash Bo +2 --why "found it" --game-date 1024-03-03\n')
    table.ok("script", str(script))
    (event,) = [e for e in table.ok("log", "--json").json if e["type"] == "cash.changed"]
    assert event["game_time"] == table.ok("calendar", "show", "--as-of", "1024-03-03", "--json").json["day"]


@pytest.fixture
def fallen(tally):
    """Bo struck down and rolled on the Down and Out table (by hand: 1,1) in session 1."""
    tally.ok("campaign", "new", "C", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "4")
    tally.ok("session", "open", "--activate", "Bo", "--no-income")
    tally.ok("hp", "damage", "Bo", "4", "--why", "orc")
    tally.ok("down-and-out", "Bo", "--dice", "1,1")
    tally.ok("item", "add", "Bo", "Torches", "--depletion", "10")
    tally.ok("session", "close", "--days", "2", "--dice", "Bo=3,4")
    return tally


def test_diff_prints_readable_values_not_python_reprs(fallen):
    shown = fallen.ok("diff", "--from", "session:1:start", "--to", "session:1:end").stdout
    rows = {tuple(c.strip() for c in line.strip("│ ").split("│")) for line in shown.splitlines() if "│" in line}
    assert ("Bo", "down and out", "no", "yes") in rows
    assert ("Bo", "inventory", "none", "Torches (slots 1, depletion 10)") in rows
    assert ("Bo", "slots", "used 0, capacity 12", "used 1, capacity 12") in rows
    assert not re.search(r"[{}\[\]']|True|False", shown)


def test_voiding_a_roll_names_what_followed_from_it_and_still_stands(fallen):
    roll, = [e for e in fallen.ok("log", "--type", "dice.rolled", "--json").json
             if e["payload"].get("why") == "Down and Out"] or [None]
    assert roll is not None
    table = [e for e in fallen.ok("log", "--json").json if e["cause"] == roll["position"]]
    assert [e["type"] for e in table] == ["down_and_out.rolled"]
    said = fallen.ok("void", str(roll["position"]), "--why", "wrong character").stdout.splitlines()
    assert said[1] == f"the void does not undo what followed from event {roll['position']}; still standing:"
    standing = [int(line.split()[0]) for line in said[2:-1]]
    assert standing[0] == table[0]["position"] and all(p > roll["position"] for p in standing)
    assert said[-1] == ("void those too if they should go, the latest first: "
                        f"`tally void {standing[-1]} --why \"…\"`")
    fallen.ok("void", str(standing[-1]), "--why", "follows the voided roll")
    # Once all of them are voided too, nothing is said to stand.
    for position in reversed(standing[:-1]):
        fallen.ok("void", str(position), "--why", "follows the voided roll")
    again = fallen.refused("void", str(roll["position"]), "--why", "twice")
    assert "already voided" in again.stderr


def test_void_json_lists_what_still_stands(fallen):
    roll = [e for e in fallen.ok("log", "--type", "dice.rolled", "--json").json
            if e["payload"].get("why") == "Down and Out"][0]
    voided = fallen.ok("void", str(roll["position"]), "--why", "x", "--json").json
    assert voided["payload"]["target"] == roll["position"]
    assert voided["still_standing"][0]["cause"] == roll["position"]
    plain = fallen.ok("roll", "1d6", "--json").json
    assert fallen.ok("void", str(plain["position"]), "--why", "x", "--json").json["still_standing"] == []


def test_queries_pin_to_a_session_start_or_end(fallen):
    start = fallen.ok("char", "show", "Bo", "--at-session", "1:start", "--json").json
    end = fallen.ok("char", "show", "Bo", "--at-session", "1:end", "--json").json
    assert (start["hp"], start["down_and_out"], start["inventory"]) == (4, False, [])
    assert end["down_and_out"] is True and [i["name"] for i in end["inventory"]] == ["Torches"]
    assert fallen.ok("char", "show", "Bo", "--at-session", "1", "--json").json == end  # N alone: its end
    # The same edges as diff's session:N:start|end, read by the same resolver.
    opened = [e for e in fallen.ok("log", "--json").json if e["type"] == "session.opened"][0]
    assert fallen.ok("char", "show", "Bo", "--at-event", str(opened["position"] - 1), "--json").json == start
    rows = fallen.ok("diff", "--from", "session:1:start", "--to", "session:1", "--json").json
    assert {"subject": "Bo", "field": "down_and_out", "from": False, "to": True} in rows
    day = fallen.ok("calendar", "show", "--at-session", "1:end", "--json").json["today"]
    assert day == "1024-03-03"  # closed after 2 days
    for command in (("stable", "Ann"), ("company",), ("why", "Bo", "hp"), ("char", "list")):
        fallen.ok(*command, "--at-session", "1:start")


def test_a_session_pin_that_cannot_be_is_refused_in_one_line(fallen):
    said = fallen.refused("char", "show", "Bo", "--at-session", "2").stderr
    assert said == ("tally: there is no session 2 in the ledger (`tally log --type session.opened` lists the "
                    "sessions)\n")
    fallen.ok("session", "open", "--activate", "Bo", "--no-income")
    said = fallen.refused("calendar", "show", "--at-session", "2:end").stderr
    assert "session 2 has not closed yet: pin it at 2:start" in said
    fallen.ok("calendar", "show", "--at-session", "2:start")
    assert "cannot read 'soon' for --at-session" in fallen.refused("company", "--at-session", "soon").stderr
    assert fallen.refused("char", "show", "Bo", "--at-session", "1", "--at-event", "3").stderr == \
        "tally: give --at-event or --at-session, not both\n"


def test_as_recorded_takes_an_offset_and_says_the_zone(fallen):
    first = fallen.ok("log", "--json").json[0]["recorded_at"]  # e.g. 2026-11-26T11:44:48.947548Z
    from datetime import datetime, timedelta, timezone

    moment = datetime.fromisoformat(first.replace("Z", "+00:00")) + timedelta(seconds=1)
    at_plus_two = moment.astimezone(timezone(timedelta(hours=2))).isoformat(timespec="seconds")
    shown = fallen.ok("calendar", "show", "--as-recorded", at_plus_two)
    utc = moment.strftime("%Y-%m-%d %H:%M:%S")
    assert shown.stderr == f"tally: note: as recorded by {utc} UTC ({at_plus_two} as given)\n"
    naive = moment.strftime("%Y-%m-%dT%H:%M:%S")
    assert fallen.ok("calendar", "show", "--as-recorded", naive).stderr == \
        f"tally: note: as recorded by {utc} UTC (no zone given: read as UTC)\n"
    # Two hours earlier in UTC than the same clock reading at +02:00: before the campaign.
    said = fallen.refused("calendar", "show", "--as-recorded", naive + "+02:00").stderr
    assert "was not yet recorded at that point" in said


def test_a_year_on_is_the_same_date_and_a_month_on_the_same_day_next_month(tmp_path):
    db = tmp_path / "t.db"
    assert run("campaign", "new", "G", "--start", "1024-01-31", db=db).returncode == 0
    said = run("calendar", "advance", "1m", db=db)
    assert said.returncode == 0, said.stderr
    shown = run("calendar", "show", db=db).stdout.splitlines()
    assert shown[0] == "today (the latest day recorded)           1024-02-29"  # the 31st: the month's last day
    assert run("calendar", "advance", "1y", db=db).returncode == 0
    shown = run("calendar", "show", db=db).stdout.splitlines()
    assert shown[0] == "today (the latest day recorded)           1025-02-28"
    assert "world's date (moved by calendar advance)  1025-02-28" in shown and "campaign began" in shown[4]
