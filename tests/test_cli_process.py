"""The installed `tally` command, run as a real process."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


TALLY = shutil.which("tally", path=str(Path(sys.executable).parent)) or "tally"


def run(*args, db):
    env = {**os.environ, "TALLY_DB": str(db), "TALLY_ACTOR": "referee", "COLUMNS": "200"}
    return subprocess.run([TALLY, *args], capture_output=True, text=True, env=env)


def test_exit_status_is_0_done_1_refused_2_usage(tmp_path):
    db = tmp_path / "t.db"
    assert run("campaign", "new", "G", "--start", "1024-03-01", db=db).returncode == 0
    rolled = run("roll", "2d6", "--json", db=db)
    assert rolled.returncode == 0 and json.loads(rolled.stdout)["total"] >= 2
    refused = run("roll", "2d6", "--dice", "9,9", db=db)
    assert refused.returncode == 1
    assert refused.stderr.strip() == "tally: 9 is not a face of a d6 (it shows 1 to 6)"
    usage = run("roll", db=db)
    assert usage.returncode == 2
    for outcome in (refused, usage):
        assert "Traceback" not in outcome.stderr


def test_env_selects_the_database_and_nothing_else_is_created(tmp_path):
    db = tmp_path / "t.db"
    outcome = run("log", db=db)
    assert outcome.returncode == 1 and "no ledger at" in outcome.stderr
    assert not db.exists()


# Every command's and option's help, and the README naming each: tests/test_cli_help.py.


def test_a_recording_command_takes_game_date_at_its_end(tmp_path):
    db = tmp_path / "t.db"
    assert run("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01", db=db).returncode == 0
    run("player", "add", "Ann", db=db)
    run("char", "new", "Bo", "--player", "Ann", "--max-hp", "4", db=db)
    run("calendar", "advance", "1w", db=db)
    late = run("cash", "Bo", "+3", "--why", "found late", "--game-date", "1024-03-03", "--json", db=db)
    assert late.returncode == 0, late.stderr
    (event,) = json.loads(late.stdout)
    shown = json.loads(run("calendar", "show", "--as-of", "1024-03-03", "--json", db=db).stdout)
    assert event["game_time"] == shown["day"]


def test_game_date_is_an_option_before_or_after_the_command_and_the_sessions_own(tmp_path):
    db = tmp_path / "t.db"
    run("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01", db=db)
    run("player", "add", "Ann", db=db)
    run("char", "new", "Bo", "--player", "Ann", "--max-hp", "4", db=db)
    run("calendar", "advance", "1w", db=db)
    before = run("--game-date", "1024-03-02", "cash", "Bo", "+1", "--why", "early", "--json", db=db)
    assert before.returncode == 0, before.stderr
    twice = run("--game-date", "1024-03-02", "cash", "Bo", "+1", "--why", "x", "--game-date", "1024-03-03", db=db)
    assert twice.returncode == 1 and "--game-date given twice" in twice.stderr
    moved = run("--game-date", "1024-03-02", "calendar", "advance", "1d", db=db)
    assert moved.returncode == 1 and "does not log facts late" in moved.stderr
    opened = run("session", "open", "--activate", "Bo", "--game-date", "1024-03-09", "--json", db=db)
    assert opened.returncode == 0, opened.stderr
    days = {e["type"]: e["game_time"] for e in json.loads(opened.stdout)}
    shown = json.loads(run("calendar", "show", "--as-of", "1024-03-09", "--json", db=db).stdout)
    assert days["session.opened"] == shown["day"]


def test_a_calendar_file_that_is_a_pipe_is_refused_at_once(tmp_path):
    # A pipe named .toml with nothing writing to it held `campaign new` up for ever (opening
    # it waits for a writer): a calendar file is read only if it is a regular file, opened
    # without waiting. The timeout turns a hang back into a failure.
    pipe = tmp_path / "harn.toml"
    os.mkfifo(pipe)
    db = tmp_path / "t.db"
    env = {**os.environ, "TALLY_DB": str(db), "TALLY_ACTOR": "referee"}
    refused = subprocess.run([TALLY, "campaign", "new", "Harn", "--start", "1 Nuzyael 720", "--calendar", str(pipe)],
                             capture_output=True, text=True, env=env, timeout=60)
    assert refused.returncode == 1
    assert refused.stderr.strip() == (f"tally: cannot read calendar file {pipe}: not a regular file "
                                      "(a device, pipe or socket): tally reads only regular files")
    assert not db.exists()


def test_a_usage_error_is_one_line_that_says_where_to_look(tmp_path):
    # A missing option, a mistyped one, an unknown command: one line, as every refusal, naming
    # the help that answers it; exit status 2, the command line's own; nothing written.
    db = tmp_path / "t.db"
    for args, said in ((["campaign", "new", "Harn"],
                        "tally: Missing option '--start'; see `tally campaign new --help`"),
                       (["campaign", "new", "Harn", "--strt", "1024-03-01"],
                        "tally: No such option: --strt (Possible options: --start); see `tally campaign new --help`"),
                       (["rol", "1d6"], "tally: No such command 'rol'; see `tally --help`")):
        shown = run(*args, db=db)
        assert (shown.returncode, shown.stderr, shown.stdout) == (2, said + "\n", ""), args
    alone = run(db=db)  # `tally` alone: its help, as before
    assert alone.returncode == 2 and "Usage: tally [OPTIONS] COMMAND" in alone.stdout and alone.stderr == ""
    assert not db.exists()
    assert run("campaign", "new", "G", "--start", "1024-03-01", db=db).returncode == 0
    shown = run("roll", "1d6", "--at-least", "many", db=db)
    assert shown.returncode == 2 and shown.stderr.count("\n") == 1
    assert shown.stderr.startswith("tally: Invalid value for '--at-least': ")
    assert shown.stderr.endswith("; see `tally roll --help`\n")


def test_a_ledger_in_a_read_only_folder_is_refused_in_one_line_for_reads_and_writes(tmp_path):
    # SQLite writes its -wal and -shm files beside the ledger even to read it: in a read-only folder
    # every command was an internal error (the refusal's own cleanup tried to delete a -wal file there).
    # The folder is made read-only by a read-only bind mount in a mount namespace of the command's own:
    # the suite runs as root (README), for whom no file mode is read-only.
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "t.db"
    assert run("campaign", "new", "C", "--rules", "coeac", "--start", "1024-03-01", db=db).returncode == 0
    assert run("player", "add", "Ann", db=db).returncode == 0
    (folder / "t.db-wal").unlink(missing_ok=True), (folder / "t.db-shm").unlink(missing_ok=True)
    files = sorted(p.name for p in folder.iterdir())
    for args in (["stable", "Ann"], ["player", "add", "Ben"], ["verify"]):
        shown = " ".join(f"'{a}'" for a in [TALLY, *args])
        env = {**os.environ, "TALLY_DB": str(db), "TALLY_ACTOR": "referee"}
        done = subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind -o ro '{folder}' '{folder}' && exec {shown}"],
                              capture_output=True, text=True, env=env)
        assert "mount" not in done.stderr, f"the test needs unshare and mount (as root): {done.stderr}"
        assert done.returncode == 1, done.stderr
        assert done.stderr.count("\n") == 1 and f"its folder {folder} is read-only" in done.stderr, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == files
    assert "no player named 'Ben'" in run("stable", "Ben", db=db).stderr  # nothing was recorded
