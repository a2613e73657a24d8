"""A command starts with what it needs (issue 29): `tally --help`, a roll and a
sheet, each in a fresh interpreter, must not import the heavy modules they
have no use for. Which modules were loaded is a fact, not a timing: this
fails the day an import at a module's top pulls one of them back in."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

# The command runs as `tally` would run it; then the names of every module it loaded.
PROBE = """
import json, sys
sys.argv = ["tally"] + json.loads(sys.argv[1])
from cli.main import main
try:
    main()
except SystemExit as exit:
    code = exit.code
else:
    code = 0
print("\\n" + json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

# What no command below needs: the web chronicle, the signing keys, migrations, and Typer's
# Pydantic adapters (cli/plain_params.py takes plain text and numbers as they are).
NEVER = ("alembic", "jinja2", "starlette", "uvicorn", "cryptography", "mako", "typer._adapters")


def loaded(tmp_path, *args: str) -> set[str]:
    env = {**os.environ, "TALLY_ACTOR": "referee", "COLUMNS": "120"}
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(args))], capture_output=True, text=True,
                         env=env, cwd=tmp_path)
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert probe["code"] in (0, None), out.stderr
    return set(probe["modules"])


def heavy(modules: set[str], *names: str) -> list[str]:
    pattern = re.compile(r"(" + "|".join(map(re.escape, names)) + r")(\.|$)")
    return sorted(m for m in modules if pattern.match(m))


@pytest.fixture
def ledger(tmp_path) -> str:
    db = str(tmp_path / "tally.db")
    from tests.conftest import Tally

    t = Tally(f"sqlite:///{db}")
    t.ok("campaign", "new", "Greyhawk", "--rules", "coeac,gods,xp", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "4")
    return db


def test_help_loads_no_database_code_and_no_models(tmp_path):
    modules = loaded(tmp_path, "--help")
    assert "cli.main" in modules and "rich" in modules  # the probe ran, and the help is Typer's rich one
    assert heavy(modules, *NEVER, "pydantic", "sqlalchemy", "msgspec", "lark", "commands", "projections",
                 "ledger.store", "ledger.events") == []


def test_a_roll_loads_no_event_models_and_no_parser(tmp_path, ledger):
    modules = loaded(tmp_path, "--db", ledger, "roll", "1d6", "--dice", "3")
    assert "commands.dice" in modules and "ledger.events.rolled" in modules  # it did roll
    # It records dice.rolled as a plain record (ledger/events/rolled.py): no Pydantic, no model.
    assert heavy(modules, "pydantic", "pydantic_core", "ledger.events.registry", "ledger.events.dice") == []
    assert heavy(modules, *NEVER, "rich", "projections.kept", "projections.views", "chronicle") == []
    assert heavy(modules, "lark") == []  # 1d6 is read without the grammar's parser (ledger/dice/expression.py)
    assert heavy(modules, *(f"ledger.events.{area}" for area in
                            ("campaign", "gods", "wolves", "skirmish", "xp", "coeac", "downtime", "stable",
                             "checkpoints"))) == []


def test_a_sheet_loads_no_write_side_and_no_models(tmp_path, ledger):
    modules = loaded(tmp_path, "--db", ledger, "char", "show", "Bo", "--json")
    assert "projections.sheet" in modules  # it did read the sheet
    assert heavy(modules, *NEVER, "pydantic", "lark", "commands", "ledger.events.registry", "rich") == []
    assert heavy(modules, "ledger.dice.expression") == []  # a sheet parses no dice (its 8 node classes)


@pytest.mark.parametrize("given", ["7", "+7", " 7", "07", "7_0"])
def test_a_number_reads_as_typers_own_adapter_reads_it(tmp_path, given):
    """Plain digits are taken at once (cli/plain_params.py); the rest go to Typer's adapter, which
    reads them exactly as it always did."""
    from pydantic import TypeAdapter

    from tests.conftest import Tally

    t = Tally(f"sqlite:///{tmp_path / 'none.db'}")
    out = t.ok("odds", "2d6", "--at-least", given, "--json").json
    assert out["target"] == TypeAdapter(int).validate_python(given)


@pytest.mark.parametrize("given", ["x", "\u0667", "7.5", ""])
def test_a_word_where_a_number_belongs_gets_typers_own_message(tmp_path, given):
    from tests.conftest import Tally

    t = Tally(f"sqlite:///{tmp_path / 'none.db'}")
    out = t("odds", "2d6", "--at-least", given)
    assert out.exit_code == 2 and "Invalid value for '--at-least'" in out.stderr
    assert "valid integer" in out.stderr
