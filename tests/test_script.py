"""tally script FILE: all its lines in one transaction, or none of them; --each
keeps one transaction a line and says which lines are kept (issue 13, finding 4)."""

import threading
import time
from pathlib import Path

import pytest

from commands.dice import roll
from ledger.store import Store
from tests.conftest import Tally

FIXTURES = Path(__file__).parent.parent / "fixtures"

SESSION = """\
player add Ann
char new Astrid --player Ann --max-hp 6 --cash 10
cash Astrid +3 --why "a job"
roll 2d6 --for Astrid
{line5}
"""
BAD_LINE = 'cash Nobody +1 --why "a typo"'
FIXED_LINE = 'cash Astrid -1 --why "a fine"'


def write(tmp_path, text: str, name: str = "session.tally") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def state(t: Tally) -> tuple:
    """What the ledger holds: every event, and the chain's head."""
    return t.ok("log", "--json").json, t.ok("db", "status", "--json").json["head"]


def one_line(outcome) -> str:
    (line,) = outcome.stderr.strip().splitlines()
    assert line.startswith("tally: ") and "Traceback" not in outcome.stdout + outcome.stderr
    return line


def test_a_refused_line_5_keeps_nothing_of_the_script_and_names_the_line(campaign, tmp_path):
    script = write(tmp_path, SESSION.format(line5=BAD_LINE))
    before = state(campaign)
    outcome = campaign("script", script)
    assert outcome.exit_code == 1
    message = one_line(outcome)
    assert f"session.tally line 5 ({BAD_LINE}) was refused: no character named 'Nobody'" in message
    assert message.endswith("nothing of the script is recorded")
    assert state(campaign) == before  # lines 1-4 ran, and were rolled back with line 5


def test_the_fixed_script_run_again_is_recorded_once(campaign, tmp_path):
    campaign("script", write(tmp_path, SESSION.format(line5=BAD_LINE)))
    before = campaign.event_count()
    campaign.ok("script", write(tmp_path, SESSION.format(line5=FIXED_LINE)), "--quiet")
    log = campaign.ok("log", "--since-event", str(before), "--json").json
    assert [e["type"] for e in log] == ["player.added", "character.created", "cash.changed", "dice.rolled",
                                        "cash.changed"]
    assert [c["name"] for c in campaign.ok("char", "list", "--json").json] == ["Astrid"]
    assert campaign.ok("char", "show", "Astrid", "--json").json["cash"] == 12  # 10 + 3 - 1, each once


def test_each_commits_line_by_line_and_says_which_lines_are_recorded(campaign, tmp_path):
    before = campaign.event_count()
    outcome = campaign("script", write(tmp_path, SESSION.format(line5=BAD_LINE)), "--each")
    assert outcome.exit_code == 1
    assert f"session.tally: lines 1-4 are recorded; line 5 ({BAD_LINE}) was refused: " in one_line(outcome)
    added = campaign.ok("log", "--since-event", str(before), "--json").json
    assert [e["type"] for e in added] == ["player.added", "character.created", "cash.changed", "dice.rolled"]
    # a refusal on the first line: nothing is recorded, and it says so
    outcome = campaign("script", write(tmp_path, "roll 1d6 --dice 7\nroll 1d6\n", "first.tally"), "--each")
    assert "first.tally: nothing is recorded; line 1 (roll 1d6 --dice 7) was refused: " in one_line(outcome)
    assert campaign.event_count() == before + 4


def test_a_usage_error_names_its_line_and_keeps_nothing(campaign, tmp_path):
    before = state(campaign)
    outcome = campaign("script", write(tmp_path, "roll 1d6\n# the referee forgot the dice\nroll\n"))
    assert outcome.exit_code == 2
    assert "line 3 (roll) was refused: Missing argument" in one_line(outcome)
    assert state(campaign) == before
    outcome = campaign("script", write(tmp_path, "roll 1d6\nrol 1d6\n", "typo.tally"))
    assert outcome.exit_code == 2 and "line 2 (rol 1d6) was refused: No such command" in one_line(outcome)
    assert state(campaign) == before


def test_an_internal_error_in_a_line_rolls_back_the_whole_script(campaign, tmp_path, monkeypatch):
    from projections import replay

    calls = []
    take = replay.take_due_snapshot

    def failing_on_the_third(*args, **kwargs):  # a fault injected after line 3's events are appended
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("disk on fire")
        return take(*args, **kwargs)

    monkeypatch.setattr(replay, "take_due_snapshot", failing_on_the_third)
    before = state(campaign)
    outcome = campaign("script", write(tmp_path, SESSION.format(line5=FIXED_LINE)))
    assert outcome.exit_code == 1
    assert "line 3 (cash Astrid +3 --why \"a job\") was refused: internal error (RuntimeError: disk on fire)" \
        in one_line(outcome)
    assert state(campaign) == before


def test_later_lines_read_what_earlier_lines_wrote_before_it_is_committed(campaign, tmp_path):
    # One transaction, committed after the last line: line 5 reads lines 2 and 3 before any commit.
    script = write(tmp_path, SESSION.format(line5="char show Astrid --json"))
    assert '"cash": 13' in campaign.ok("script", script, "--quiet").stdout


def test_a_new_dice_epoch_rolled_back_with_the_script_can_be_opened_again(campaign, tmp_path):
    opening = ("player add Ann\nchar new Astrid --player Ann --max-hp 6 --cash 2\n"
               "session open --activate Astrid --no-income\nroll 2d6 --for Astrid\n")
    assert campaign("script", write(tmp_path, opening + BAD_LINE + "\n")).exit_code == 1
    campaign.ok("script", write(tmp_path, opening + FIXED_LINE + "\n", "fixed.tally"), "--quiet")
    (committed,) = [e for e in campaign.ok("log", "--type", "dice.committed", "--json").json
                    if e["payload"]["epoch"] == 2]
    assert committed["session"] == 1
    campaign.ok("session", "close", "--days", "1", "--haven", "Astrid")  # reveals epoch 2
    assert campaign.ok("audit", "all", "--json").json["ok"]


@pytest.mark.parametrize("line", ["import x.jsonl", "export x.jsonl", "verify", "db snapshot",
                                  "schedule add remind --text hi", "scheduler run --once",
                                  "bench generate --events 100 --out x.jsonl",
                                  # pages or a server of events not yet committed (the next roll shown
                                  # before it is rolled); a prompt waiting on the terminal with the lock held
                                  "chronicle --out site", "serve --port 8765", "shell"])
def test_a_command_that_cannot_share_the_transaction_is_refused_before_anything_runs(campaign, tmp_path, line):
    before = state(campaign)
    outcome = campaign("script", write(tmp_path, f"roll 1d6\n  tally {line}\n"))
    assert outcome.exit_code == 1 and outcome.stdout == ""  # not even line 1 ran
    message = one_line(outcome)
    assert f"line 2 (tally {line}): `{line.split()[0]}` cannot run inside the script's one transaction" in message
    assert "--each" in message
    assert state(campaign) == before


@pytest.mark.parametrize("line", ["checkpoint --out cp.txt", "checkpoint --out=cp.txt", "proof 1 --out cp.txt"])
def test_a_line_writing_a_file_is_refused_before_anything_runs(campaign, tmp_path, line):
    # A signed checkpoint written by line 2 and a refusal on line 3 would leave a checkpoint of a log
    # that never was: a fork in the players' hands, made by the ledger itself.
    before = state(campaign)
    outcome = campaign("script", write(tmp_path, f"roll 1d6\n{line}\nroll 1d6\n"))
    assert outcome.exit_code == 1 and outcome.stdout == ""
    message = one_line(outcome)
    assert f"line 2 ({line}): --out cannot be used inside the script's one transaction" in message
    assert "--each" in message and "Nothing of the script was run" in message
    assert not (tmp_path / "cp.txt").exists() and not Path("cp.txt").exists()
    assert state(campaign) == before


def test_each_runs_those_commands(campaign, tmp_path):
    before = campaign.event_count()
    outcome = campaign.ok("script", write(tmp_path, "roll 1d6\nverify\n"), "--each")
    assert f"chain intact: {before + 1} event(s)" in outcome.stdout


def test_an_unreadable_line_or_a_nested_script_is_refused_before_anything_runs(campaign, tmp_path):
    before = state(campaign)
    outcome = campaign("script", write(tmp_path, 'roll 1d6\ncash Astrid +1 --why "unclosed\n'), "--each")
    assert outcome.exit_code == 1 and "line 2 (" in one_line(outcome) and "nothing of the script was run" \
        in outcome.stderr
    outcome = campaign("script", write(tmp_path, "roll 1d6\nscript other.tally\n", "nest.tally"), "--each")
    assert "line 2 (script other.tally): a script cannot run another script" in one_line(outcome)
    outcome = campaign("script", write(tmp_path, "roll 1d6\n--db elsewhere.db roll 1d6\n", "db.tally"))
    assert outcome.exit_code == 2 and "line 2 (--db elsewhere.db roll 1d6)" in one_line(outcome)
    assert state(campaign) == before


def test_a_line_may_name_its_campaign_and_actor(campaign, tmp_path):
    campaign.ok("campaign", "new", "Blackmoor", "--start", "1024-03-01")
    campaign.ok("script", write(tmp_path, "--campaign Blackmoor --actor Dave roll 1d6\n"), "--quiet")
    last = campaign.ok("--campaign", "Blackmoor", "log", "--json").json[-1]
    assert (last["campaign"], last["actor"], last["type"]) == ("Blackmoor", "Dave", "dice.rolled")


def test_the_open_table_as_one_transaction_records_what_line_by_line_records(tmp_path):
    whole, each = (Tally(f"sqlite:///{tmp_path / name}") for name in ("whole.db", "each.db"))
    whole.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    each.ok("script", str(FIXTURES / "open-table.tally"), "--quiet", "--each")

    def shape(t):  # the rolls derive from each ledger's own secret seeds; the facts' shape does not
        return [(e["position"], e["type"], e["stream"], e["game_time"], e["session"]) for e in t.ok("log", "--json").json]

    assert shape(whole) == shape(each) and len(shape(whole)) > 100
    assert whole.ok("verify", "--json").json["ok"] and whole.ok("audit", "--json").json["ok"]


def test_another_writer_waits_for_the_batch_rather_than_interleaving(campaign):
    store, other = Store(campaign.url, create=False), Store(campaign.url, create=False)
    head = campaign.event_count()
    started, theirs = threading.Event(), []

    def write_elsewhere():
        started.set()
        theirs.append(roll(other, None, "1d6", actor="another table").position)

    try:
        with store.batch():
            ours = [roll(store, None, "1d6", actor="script").position]
            writer = threading.Thread(target=write_elsewhere)
            writer.start()
            started.wait()
            time.sleep(0.5)  # time enough for it to append, if it could
            assert writer.is_alive() and theirs == []
            ours.append(roll(store, None, "1d6", actor="script").position)
        writer.join(timeout=60)
    finally:
        store.dispose()
        other.dispose()
    assert ours == [head + 1, head + 2] and theirs == [head + 3]


def test_a_script_path_with_a_nul_is_refused_on_one_line(campaign):
    # Found by the CLI fuzz: open() raises ValueError, not OSError, on "\x00".
    said = campaign.refused("script", "plan\x00.tally").stderr
    assert "not a file name" in said and "internal error" not in said


# -- a refused script shows nothing of what its lines printed (issue 25) --------------------------

PEEK = "roll 1d6 --why 'what comes next'\nroll 2d6 --json\n"


def test_a_refused_script_prints_no_derived_roll_it_would_have_made(campaign, tmp_path):
    # Nothing is recorded, so the same roll numbers come again: a roll printed here would be a peek
    # at the epoch's next rolls.
    outcome = campaign("script", write(tmp_path, PEEK + BAD_LINE + "\n"))
    assert outcome.exit_code == 1 and outcome.stdout == ""
    assert "was refused: no character named 'Nobody'" in one_line(outcome)
    # The same script without the bad line prints its rolls, at the end, once they are recorded.
    kept = campaign.ok("script", write(tmp_path, PEEK, "kept.tally")).stdout
    assert "$ tally roll 1d6 --why 'what comes next'" in kept and "roll n=0 of epoch 1" in kept
    assert '"nonce": 1' in kept


def test_with_each_the_kept_lines_print_and_the_refused_line_does_not(campaign, tmp_path):
    from tests.conftest import tamper

    campaign.ok("roll", "1d6")
    campaign.ok("dice", "reveal")
    (rolled,) = campaign.ok("log", "--type", "dice.rolled", "--json").json
    wrong = [7 - rolled["payload"]["dice"][0]]
    tamper(campaign.url, f"UPDATE events SET payload = REPLACE(payload, '\"dice\":{rolled['payload']['dice']}', "
                         f"'\"dice\":{wrong}') WHERE position = {rolled['position']}")
    outcome = campaign("script", write(tmp_path, "roll 1d6 --why 'the door'\naudit\nroll 1d6\n"), "--each")
    assert outcome.exit_code == 1
    assert "$ tally roll 1d6 --why 'the door'\n1d6: [" in outcome.stdout  # line 1, recorded, is shown
    assert "MISMATCH" not in outcome.stdout and "audit" not in outcome.stdout  # line 2 exited 1: not shown
    assert "line 1 is recorded; line 2 (audit) was refused: exit status 1" in one_line(outcome)


def test_the_error_boundary_hands_the_refusal_to_whoever_ran_the_command(capsys):
    # tally script reports a refused line from this object, not by reading its own stderr back.
    import typer

    from cli.context import Options
    from cli.errors import Refusal, boundary
    from ledger.errors import RuleRefused

    quiet, loud = Options(hand_back=True), Options()
    for outcome in (quiet, loud):
        with pytest.raises(typer.Exit):
            with boundary(outcome):
                raise RuleRefused("Bo has 3 Cash and cannot wager 5")
        assert outcome.refusal == Refusal("Bo has 3 Cash and cannot wager 5", 1)
    with pytest.raises(typer.Exit):
        with boundary(quiet):
            raise KeyError("a bug")
    assert quiet.refusal.unexpected and quiet.refusal.message.startswith("internal error (KeyError")
    assert capsys.readouterr().err == "tally: Bo has 3 Cash and cannot wager 5\n"  # only the loud one said it


def test_a_script_reports_the_refusal_its_line_handed_back_in_one_line(tally, tmp_path):
    # The refusal comes from the boundary's object: the report quotes it once, with its line.
    tally.ok("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01")
    script = tmp_path / "s.tally"
    script.write_text("player add Ann\nchar new Bo --player Ann --max-hp 4\nwealth improve Bo --wager 3\n")
    said = tally.refused("script", str(script)).stderr
    assert "line 3 (wealth improve Bo --wager 3) was refused: Bo has 0 Cash and cannot wager 3" in said
    assert said.count("\n") == 1


def test_a_script_of_no_commands_says_so(campaign, tmp_path):
    before = state(campaign)
    for text in ("", "# only a comment\n\n   \n"):
        script = write(tmp_path, text, "empty.tally")
        assert campaign.ok("script", script).stdout == f"{script} holds no commands: nothing was recorded\n"
    assert state(campaign) == before
