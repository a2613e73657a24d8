"""How fast `tally shell` answers: each command run through the shell's own
line runner (cli/shell.py run_line) in a process of its own, after a first
command has loaded what a warm evening has loaded, against a benchmark
campaign. `tally bench run` reports it beside `tally roll`'s cold start.

    python -m bench.shell URL CAMPAIGN   # prints the figures as JSON
"""

from __future__ import annotations

import io
import json
import statistics
import subprocess
import sys
import time
from contextlib import redirect_stdout

REPEATS = 15
# What a referee types at the table, a write among the reads (the roll by hand:
# an imported campaign's dice secret stays where it was rolled).
LINES = {
    "roll": "roll 1d6 --dice 4",
    "char show": 'char show "Hero 1" --json',
    "calendar show": "calendar show",
    "stable": 'stable "Player 1"',
    "company": "company",
}


def figures(url: str, campaign: str) -> dict:
    """The figures, measured in a fresh process (this one's imports would flatter them)."""
    out = subprocess.run([sys.executable, "-m", "bench.shell", url, campaign], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"the shell's benchmark failed: {out.stderr.strip()[-500:]}")
    return json.loads(out.stdout)


def measure(url: str, campaign: str) -> dict:
    import typer.main

    from cli.context import Options
    from cli.main import app

    root = typer.main.get_command(app)
    shared = Options(db=url, campaign=campaign, actor="bench")
    times: dict[str, list[float]] = {name: [] for name in LINES}
    try:
        started = time.perf_counter()
        _run(root, LINES["calendar show"], shared)
        first_ms = (time.perf_counter() - started) * 1000
        for _ in range(REPEATS):
            for name, line in LINES.items():
                started = time.perf_counter()
                _run(root, line, shared)
                times[name].append((time.perf_counter() - started) * 1000)
    finally:
        shared.close()
    every = [t for ts in times.values() for t in ts]
    return {"shell_command_median_ms": round(statistics.median(every), 1),
            **{f"shell_{name.replace(' ', '_')}_median_ms": round(statistics.median(ts), 1)
               for name, ts in times.items()},
            "shell_first_command_ms": round(first_ms, 1)}


def _run(root, line: str, shared) -> int:
    from cli.shell import run_line

    with redirect_stdout(io.StringIO()):
        code = run_line(root, line, shared)
    if code:
        raise RuntimeError(f"`{line}` in the shell exited {code}")
    return code


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], sys.argv[2])))
