"""`tally shell` driven as a person drives it: in a real terminal (tmux),
keys sent, the screen read back."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from cli.shell import Completer, Names, _tokens

TALLY = shutil.which("tally", path=str(Path(sys.executable).parent)) or "tally"
WAIT = 30.0  # seconds a screen may take to show what it must (a loaded machine)
PROMPT = "tally>"


class Terminal:
    """A tmux session of its own (its own server socket) running one command."""

    def __init__(self, command: str, env: dict[str, str]) -> None:
        if shutil.which("tmux") is None:
            pytest.fail("tmux is not installed: the shell is tested in a real terminal "
                        "(make test installs it: scripts/ensure-tmux.sh)")
        self.socket = f"tally-test-{uuid.uuid4().hex[:12]}"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        script = f"env {exports} {command}; echo \"[shell exited: $?]\"; sleep 600"
        self.tmux("new-session", "-d", "-s", "t", "-x", "200", "-y", "60", script)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-u", "-L", self.socket, *args], check=True, capture_output=True,
                              text=True, env={**os.environ, "LANG": "C.UTF-8"}).stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-t", "t", "-p", "-S", "-2000")

    def wait_for(self, text: str, after: int = 0, count: int = 1) -> str:
        """The screen once it shows ``text`` ``count`` times counting from its ``after``-th
        character: a step waits for what it produces itself, never for what is already shown."""
        deadline = time.monotonic() + WAIT
        while True:
            shown = self.screen()
            if shown[after:].count(text) >= count:
                return shown
            if time.monotonic() > deadline:
                pytest.fail(f"the terminal never showed {text!r} {count} time(s); it shows:\n{shown}")
            time.sleep(0.05)

    def mark(self) -> tuple[int, int]:
        """Where the screen ends now, and how many prompts it has shown."""
        shown = self.screen().rstrip()
        return len(shown), shown.count(PROMPT)

    def next_prompt(self, prompts: int) -> str:
        """The screen once a prompt after the ``prompts`` already shown is drawn."""
        return self.wait_for(PROMPT, count=prompts + 1)

    def run(self, line: str, until: str | None = None, prompt: bool = True) -> str:
        """Type a line, press Enter, and return what it printed: once ``until`` shows after the line
        and (unless the line ends the shell) the prompt after it, a new one counted, not the last."""
        before, prompts = self.mark()
        self.type(line)
        self.keys("Enter")
        if until is not None:
            self.wait_for(until, before)
        shown = self.next_prompt(prompts) if prompt else self.screen()
        return shown[before:]

    def complete(self, typed: str, shows: str) -> None:
        """Type the start of a line and press Tab: once the line reads ``shows`` after the prompt."""
        before, _ = self.mark()
        self.type(typed)
        self.keys("Tab")
        self.wait_for(shows, before)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def table(tally, tmp_path):
    """A campaign with Bo and Astrid, a faction of two words, on each backend."""
    tally.ok("campaign", "new", "Greyhawk", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "4", "--cash", "5")
    tally.ok("char", "new", "Astrid", "--player", "Ann", "--max-hp", "6")
    tally.ok("rep", "River Guild", "+1", "--why", "a favour", "--new")
    return tally


@pytest.fixture
def terminal(table, tmp_path):
    history = tmp_path / "history"
    term = Terminal(f"{TALLY} shell --history {shlex.quote(str(history))}",
                    {"TALLY_DB": table.url, "TALLY_ACTOR": "referee", "COLUMNS": "200"})
    term.history = history
    term.wait_for("tally>")
    yield term
    term.close()


def test_an_evening_in_the_shell(table, terminal):
    t = terminal
    # Tab completes the group's sub-command, then the character's name.
    t.complete("char sh", " char show")
    t.complete("B", "Bo")
    said = t.run("", until="inventory")  # and the prompt after the whole sheet
    one_shot = table.ok("char", "show", "Bo").stdout
    assert [line.rstrip() for line in one_shot.splitlines()] == \
        [line.rstrip() for line in said.splitlines()[1:len(one_shot.splitlines()) + 1]]

    # A faction of two words completes quoted, and the command runs on it.
    t.complete("rep Ri", " rep 'River Guild'")
    t.run("+1 --why 'paid well'")
    assert table.ok("company", "--json").json["reputation"] == {"River Guild": 2}

    # Options complete after a dash.
    t.complete("roll 1d6 --di", " roll 1d6 --dice")
    said = t.run("4", until="1d6: [4] = 4")

    # The same one-line refusal as the command line, and the prompt comes back.
    said = t.run("roll 1d6 --dice 9", until="is not a face")
    assert "tally: 9 is not a face of a d6 (it shows 1 to 6)" in said
    said = t.run("roll", until="Missing argument 'expression'")
    said = t.run("char show Nobody", until="no character named")
    assert "tally: no character named 'Nobody'" in said and "Traceback" not in said

    # History: the arrow brings back the last line.
    before, _ = t.mark()  # the line is on the screen already, above: wait for it after the new prompt
    t.keys("Up")
    t.wait_for("char show Nobody", before)
    t.keys("C-u")

    # What the shell recorded is in the ledger, as one-shot commands see it.
    rolls = [e["payload"]["dice"] for e in table.ok("log", "--type", "dice.rolled", "--json").json]
    assert rolls == [[4]]

    t.keys("C-d")
    t.wait_for("[shell exited: 0]")
    assert "+roll 1d6 --dice 9" in t.history.read_text()


def test_exit_leaves_with_status_0_and_a_bad_quote_is_one_line(table, terminal):
    said = terminal.run("cash Bo +1 --why \"unclosed", until="cannot read that line")
    assert "tally: cannot read that line (No closing quotation): close the quote" in said
    # Ctrl-C drops the line being typed; nothing of it runs.
    before = table.event_count()
    shown, prompts = terminal.mark()
    terminal.type("roll 1d6 --dice 3")
    terminal.wait_for("roll 1d6 --dice 3", shown)
    terminal.keys("C-c")
    terminal.next_prompt(prompts)
    terminal.run("calendar show", until="campaign began")
    assert table.event_count() == before
    terminal.run("exit", until="[shell exited: 0]", prompt=False)


def test_completion_is_keyed_on_the_option_or_argument_name(table):
    import typer.main

    from cli.context import Options
    from cli.main import app

    shared = Options(db=table.url)
    completer = Completer(typer.main.get_command(app), Names(shared))
    try:
        assert completer.candidates(["session", "open", "--activate"], "") == ["Astrid", "Bo"]
        assert completer.candidates(["char", "new", "Cy", "--player"], "") == ["Ann"]
        assert completer.candidates(["char", "new"], "") == []  # a new name: nothing to offer
        assert completer.candidates(["stronghold", "improve", "Greyhold", "--by"], "") == \
            ["Astrid", "Bo", "company"]
        assert completer.candidates(["rep"], "") == ["River Guild"]
        assert completer.candidates(["why"], "") == ["Astrid", "Bo", "company", "rep:River Guild"]
        assert completer.candidates(["--campaign", "Greyhawk", "calendar"], "")[:2] == ["show", "who"]
        assert "--max-hp" in completer.candidates(["char", "new", "X"], "--")
        assert completer.candidates(["roll", "1d6", "--why"], "") == []
    finally:
        shared.close()


def test_words_are_split_as_the_shell_will_read_them():
    assert _tokens('rep "River G') == (["rep"], "River G", 8)
    assert _tokens("char show ") == (["char", "show"], "", 0)
    assert _tokens("cash 'Bo B' +1") == (["cash", "Bo B"], "+1", 2)


def test_the_benchmark_times_commands_through_the_shells_own_runner(tmp_path):
    """bench/shell.py: real commands on a generated campaign, each through run_line."""
    from bench.shell import LINES, REPEATS, figures
    from bench.generator import NAME
    from tests.conftest import Tally, generated

    url = generated(tmp_path, events=2000, seed=3)
    t = Tally(url)
    before = len(t.ok("log", "--type", "dice.rolled", "--json").json)
    measured = figures(url, NAME)
    assert set(measured) == {"shell_command_median_ms", "shell_first_command_ms",
                             *(f"shell_{n.replace(' ', '_')}_median_ms" for n in LINES)}
    assert all(v > 0 for v in measured.values())
    # The roll really went through the shell each time: recorded in the ledger.
    assert len(t.ok("log", "--type", "dice.rolled", "--json").json) == before + REPEATS
    with pytest.raises(RuntimeError, match="the shell's benchmark failed"):
        figures(url, "No Such Campaign")


def test_help_and_refusals_through_the_shells_runner(table, capsys):
    import typer.main

    from cli.context import Options
    from cli.main import app
    from cli.shell import run_line

    root, shared = typer.main.get_command(app), Options(db=table.url)
    try:
        assert run_line(root, "help char", shared) == 0
        assert "Usage: tally char" in capsys.readouterr().out
        assert run_line(root, "help", shared) == 0
        assert "session" in capsys.readouterr().out
        assert run_line(root, "shell", shared) == 1
        assert capsys.readouterr().err == "tally: this is the shell already (Ctrl-D or `exit` leaves it)\n"
        assert run_line(root, "cash Bo -3 --why 'a bribe'", shared) == 0  # a negative number is an argument
        assert run_line(root, "cash Bo -30 --why 'a bribe'", shared) == 1
        said = capsys.readouterr()
        assert said.err.count("\n") == 1 and said.err.startswith("tally: ")
        assert run_line(root, "tally roll", shared) == 2  # a pasted `tally` is dropped; a usage error is 2
        assert run_line(root, "   ", shared) == 0 and run_line(root, "exit", shared) is None
    finally:
        shared.close()


def test_tab_before_any_ledger_exists_offers_commands_and_no_names(tmp_path):
    import typer.main

    from cli.context import Options
    from cli.main import app

    shared = Options(db=str(tmp_path / "none.db"))
    completer = Completer(typer.main.get_command(app), Names(shared))
    try:
        assert completer.candidates(["char", "show"], "") == []
        assert "campaign" in completer.candidates([], "")
        assert completer.candidates(["campaign"], "")[:2] == ["new", "list"]
    finally:
        shared.close()
    assert not (tmp_path / "none.db").exists()  # completing created nothing


def test_a_refused_line_prints_no_derived_roll_in_the_shell(table, capsys, tmp_path):
    # A script run from the shell, refused at its last line: the rolls its first lines derived are
    # not recorded and their numbers come again, so printing them would be a peek (issue 25).
    import typer.main

    from cli.context import Options
    from cli.main import app
    from cli.shell import run_line

    plan = tmp_path / "plan.tally"
    plan.write_text("roll 2d6 --for Bo\nroll 1d6 --json\ncash Nobody +1 --why typo\n")
    root, shared = typer.main.get_command(app), Options(db=table.url)
    try:
        assert run_line(root, f"script {plan}", shared) == 1
        said = capsys.readouterr()
        assert said.out == "" and said.err.count("\n") == 1 and "line 3 (cash Nobody +1 --why typo)" in said.err
        assert run_line(root, "roll 1d6 --dice 9", shared) == 1  # a refused roll of its own prints none either
        said = capsys.readouterr()
        assert said.out == "" and said.err.startswith("tally: 9 is not a face of a d6")
        assert run_line(root, "roll 1d6", shared) == 0  # the prompt goes on; what is kept prints
        assert "roll n=0 of epoch 1" in capsys.readouterr().out
    finally:
        shared.close()


class Replayed(Terminal):
    """A Terminal whose screen is a film: each look at it shows the next frame (the last one stays)."""

    def __init__(self, frames: list[str]) -> None:
        self.frames, self.looks, self.typed = frames, 0, []

    def screen(self) -> str:
        frame = self.frames[min(self.looks, len(self.frames) - 1)]
        self.looks += 1
        return frame

    def type(self, text: str) -> None:
        self.typed.append(text)

    def keys(self, *keys: str) -> None:
        self.typed.extend(keys)


def test_a_line_waits_for_its_own_prompt_not_the_one_on_the_screen():
    # A loaded machine: the line's output shows before the prompt after it is drawn. The step is not over
    # until a new prompt is counted, so the next step never measures the screen before that prompt.
    echoed = "tally> roll 1d6 --dice 4"
    frames = ["tally>", "tally>", echoed, f"{echoed}\n1d6: [4] = 4", f"{echoed}\n1d6: [4] = 4",
              f"{echoed}\n1d6: [4] = 4\ntally>"]
    film = Replayed(frames)
    said = film.run("roll 1d6 --dice 4", until="1d6: [4] = 4")
    assert said.endswith("tally>") and film.looks >= len(frames)
    # A refusal that comes late: the prompt already on the screen does not end the wait.
    refused = f"{frames[-1]} roll 1d6 --dice 9\ntally: 9 is not a face of a d6 (it shows 1 to 6)\ntally>"
    film = Replayed([frames[-1], frames[-1], f"{frames[-1]} roll 1d6 --dice 9", refused])
    assert "9 is not a face" in film.run("roll 1d6 --dice 9")
