"""The architecture (docs/architecture.md): packages import only downward —
bench, cli, chronicle, commands, projections, ledger — imports inside
functions included, and no modules of one package import each other in a
circle. import-linter reads the contracts from pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["ledger", "projections", "commands", "chronicle", "cli", "bench", "migrations"]


def lint(root: Path) -> subprocess.CompletedProcess:
    # In a process of its own, from the tree given: the contracts are checked on that tree's code.
    return subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()", "--no-cache"],
                          cwd=root, capture_output=True, text=True, env={"PYTHONPATH": str(root), "PATH": ""})


def test_every_package_imports_only_downward_and_no_package_has_a_circle():
    checked = lint(ROOT)
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-2000:]
    assert "Contracts: 4 kept, 0 broken." in checked.stdout


def copy_of_the_code(tmp_path: Path) -> Path:
    copy = tmp_path / "tree"
    copy.mkdir()
    shutil.copy(ROOT / "pyproject.toml", copy)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.mark.parametrize("module, planted, broken", [
    # the core reaching up into the read side, at the top of a module
    ("ledger/clock.py", "from projections import world\n", "Packages import only downward"),
    # a read reaching into the write side, inside a function
    ("projections/why.py", "\n\ndef _planted():\n    from commands import base\n    return base\n",
     "Packages import only downward"),
    # the product reaching into the benchmark
    ("cli/output.py", "\n\ndef _planted():\n    import bench.generator\n", "Packages import only downward"),
    # two modules of one package importing each other
    ("ledger/merkle.py", "\n\ndef _planted():\n    from ledger import tree\n", "No circles among the modules"),
    # the core importing the schema's history
    ("ledger/schema.py", "\n\ndef _planted():\n    import migrations.env\n", "Migrations stand on the core alone"),
])
def test_a_planted_wrong_import_breaks_the_contract(tmp_path, module, planted, broken):
    copy = copy_of_the_code(tmp_path)
    target = copy / module
    target.write_text(target.read_text() + planted)
    checked = lint(copy)
    assert checked.returncode == 1, checked.stdout[-2000:]
    assert f"{broken}" in checked.stdout and "BROKEN" in checked.stdout
