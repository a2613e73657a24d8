"""A command killed outright takes the processes it forked with it
(ledger/forks.py): `tally import` killed with SIGKILL while its forked
process folded the kept histories left that process waiting for ever on a
pipe (found by a hostile test: still there minutes later)."""

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.generator import generate
from commands.derived import APART_FROM

TALLY = str(Path(sys.executable).parent / "tally")


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:  # the process or its thread ended meanwhile
            pass
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"  # a zombie has ended
    except (OSError, IndexError):
        return False


def test_the_histories_fold_forked_by_an_import_ends_when_the_import_is_killed(tmp_path):
    buffer = io.StringIO()
    generate(buffer, events=APART_FROM + 500, seed=3)  # enough for the histories to be folded apart
    export = tmp_path / "big.jsonl"
    export.write_text(buffer.getvalue())
    env = {**os.environ, "TALLY_DB": str(tmp_path / "t.db"), "TALLY_ACTOR": "referee"}
    importing = subprocess.Popen([TALLY, "import", str(export)], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
    try:
        children: set[int] = set()
        deadline = time.monotonic() + 120
        while not children and importing.poll() is None and time.monotonic() < deadline:
            children = _children(importing.pid)
            time.sleep(0.01)
        assert children, "the import never forked (it ended, or took two minutes)"
        importing.send_signal(signal.SIGKILL)
        importing.wait()
        deadline = time.monotonic() + 30
        while any(_alive(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [c for c in children if _alive(c)], "a forked process outlived the killed import"
    finally:
        importing.kill()
        for child in _children(importing.pid):
            os.kill(child, signal.SIGKILL)
