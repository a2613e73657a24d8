"""`tally --help` groups the commands by the rules module they belong to
(cli/help_panels.py) and, given a ledger and a campaign, says which of those
modules the campaign runs; with no ledger it opens and imports nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from cli.help_panels import MEMBERS, MODULES, PANELS
from cli.main import COMMANDS, GROUPS

ROOT = Path(__file__).resolve().parent.parent
PANEL_TITLE = re.compile(r"^╭─ (.+?) ─+╮$")
LISTED = re.compile(r"^│ ([a-z][a-z-]*) {2,}\S")


def panels(shown: str) -> dict[str, list[str]]:
    """The help's panels by title, each with the commands listed in it."""
    found, title = {}, None
    for line in shown.splitlines():
        if m := PANEL_TITLE.match(line):
            title = m.group(1)
            found[title] = []
        elif (m := LISTED.match(line)) and title is not None:
            found[title].append(m.group(1))
    return found


def closing(shown: str) -> str:
    return " ".join(shown.rsplit("╯", 1)[1].split())


def test_every_command_sits_in_exactly_one_panel():
    placed = Counter(name for names in MEMBERS.values() for name in names)
    assert [name for name, n in placed.items() if n > 1] == []
    assert set(placed) == set(GROUPS) | set(COMMANDS)
    assert list(MEMBERS) == list(PANELS) and set(MODULES) < set(PANELS)


def test_help_groups_the_commands_by_ruleset_and_says_which_the_campaign_runs(tally):
    tally.ok("campaign", "new", "Band", "--rules", "wolves,xp", "--start", "1024-03-01")
    shown = panels(tally.ok("--help").stdout)
    titles = [t for t in shown if t != "Options"]
    assert titles == [
        "Every campaign: players, characters, sessions, dice, time, the log",
        "coeac (004): Wealth, Cash, the Company, hit points, inventory, Boons · not used by Band",
        "wolves (000): silver, equipment, hirelings, companions, boasts, ships · used by Band",
        "gods (001): alignments, gods, marks, prayers · not used by Band",
        "xp (002): XP and levels, skill rolls, expertise, hit dice, vows · used by Band",
        "skirmish (003): luck, wounds, levels, stats and skills · not used by Band",
        "The ledger itself: checking, signing, copying, serving, the database"]
    assert [shown[t] for t in titles] == [list(names) for names in MEMBERS.values()]
    assert closing(tally.ok("--help").stdout) == (
        "Campaign Band runs wolves (000), xp (002); the commands under coeac (004), gods (001), skirmish (003) "
        "belong to rules it does not run.")

    # Two campaigns: the help asks which, and --campaign before --help answers.
    tally.ok("campaign", "new", "Open Table", "--rules", "coeac", "--start", "1024-03-01")
    said = closing(tally.ok("--help").stdout)
    assert said.startswith("Commands are grouped by the rules module") and \
        "Here: this database holds 2 campaigns (Band, Open Table): choose one with --campaign NAME." in said
    assert all(" used by" not in t for t in panels(tally.ok("--help").stdout))
    shown = tally.ok("--campaign", "Open Table", "--help").stdout
    used = [t.split(":")[0] for t in panels(shown) if t.endswith("· used by Open Table")]
    assert used == ["coeac (004)"]
    assert closing(shown).startswith("Campaign Open Table runs coeac (004); the commands under wolves (000)")


def test_a_module_panels_commands_are_the_ones_a_campaign_without_it_refuses(tally_sqlite):
    # One command of each module's panel, in a campaign that runs no module: refused, naming the module.
    t = tally_sqlite
    t.ok("campaign", "new", "Bare", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Bo", "--player", "Ann")
    tried = {"coeac": ("rep", "Guild", "+1", "--why", "a favour"), "wolves": ("silver", "Bo", "+1", "--why", "found"),
             "gods": ("god", "align", "Bo", "2E"), "xp": ("xp", "Bo", "+1", "--why", "a trap"),
             "skirmish": ("luck", "regain", "Bo")}
    for module, line in tried.items():
        assert line[0] in MEMBERS[module]
        assert f"does not run the {module} rules" in t.refused(*line).stderr
    t.ok("roll", "1d6", "--dice", "3")  # the core's commands serve any campaign


def test_help_without_a_ledger_opens_nothing_and_loads_no_database_code(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TALLY_DB"}
    program = ("import sys\nfrom cli.main import app\ntry:\n    app(sys.argv[1:], prog_name='tally')\n"
               "except SystemExit:\n    pass\nprint('sqlalchemy' in sys.modules, 'ledger.store' in sys.modules)\n")
    for args in ([], ["--db", str(tmp_path / "missing.db")]):
        shown = subprocess.run([sys.executable, "-c", program, *args, "--help"], cwd=tmp_path, env={**env,
                               "COLUMNS": "200", "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.rstrip().endswith("False False"), shown.stdout[-300:]
        assert "Give the ledger (--db, or TALLY_DB) and --campaign before --help" in " ".join(shown.stdout.split())
        assert len(panels(shown.stdout)) == len(PANELS) + 1
    assert list(tmp_path.iterdir()) == []  # no tally.db made, nor missing.db


def test_the_shells_help_marks_the_shells_own_campaign(tally_sqlite, capsys):
    import typer.main

    from cli.context import Options
    from cli.main import app
    from cli.shell import run_line

    tally_sqlite.ok("campaign", "new", "Rifles", "--rules", "skirmish", "--start", "1024-03-01")
    tally_sqlite.ok("campaign", "new", "Gods", "--rules", "gods", "--start", "1024-03-01")
    root, shared = typer.main.get_command(app), Options(db=tally_sqlite.url, campaign="Rifles")
    try:
        assert run_line(root, "campaign list", shared) == 0  # `campaign` loaded: still in its panel
        capsys.readouterr()
        assert run_line(root, "help", shared) == 0
        shown = capsys.readouterr().out
    finally:
        shared.close()
    used = [t.split(":")[0] for t in panels(shown) if "· used by" in t]
    assert used == ["skirmish (003)"] and "Campaign Rifles runs skirmish (003)" in closing(shown)
    assert "Commands" not in panels(shown) and "campaign" in panels(shown)[PANELS["core"]]
