"""Before and after in one sitting: `tally bench run --json` from two checkouts,
turn about, on the same machine, then every figure side by side.

    python scripts/bench-side-by-side.py --before ../before --events 100000 --rounds 2 \
        --out docs/performance-100k-sqlite-round4.json

``--before`` and ``--after`` are checkouts, each with its own .venv (`make install`);
``--after`` defaults to this one. The runs alternate (before, after, before, after …)
so that a machine busier at one moment weighs on both sides; each figure is the
best of a side's rounds (the most for rates, the least for times), and the table
printed is Markdown: figure, before, after, after / before. ``--out`` keeps every
run's JSON and the table's figures; ``--again FILE`` prints such a file's table again."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

# A figure where less is better (a time, a size, a ratio to import sqlalchemy, a loss).
LOWER = ("_ms", "_s", "_mb", "_kb", "_vs_import_sqlalchemy", "_lost", "_failed", "hashes_max", "_per_single_append")


def flat(figures: dict, prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    for key, value in figures.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            if key != "targets":
                out.update(flat(value, name + "."))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[name] = value
    return out


def lower_is_better(name: str) -> bool:
    if name.endswith(("_per_s", "_vs_one")) or ".ratio_" in name:  # a rate, or a ratio where more is better
        return False
    return name.endswith(LOWER) or "_ms_" in name


def best(name: str, values: list[float]) -> float:
    return min(values) if lower_is_better(name) else max(values)


def run(checkout: Path, events: int, backend: str) -> dict:
    tally = checkout / ".venv" / "bin" / "tally"
    started = time.time()
    done = subprocess.run([str(tally), "bench", "run", "--events", str(events), "--backend", backend, "--json"],
                          cwd=checkout, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench-side-by-side: the bench in {checkout} failed:\n{done.stderr[-2000:]}")
    figures = json.loads(done.stdout)
    figures["wall_s"] = round(time.time() - started, 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path)
    parser.add_argument("--after", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--backend", default="sqlite")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--again", type=Path, help="print the table of an --out file again, running nothing")
    args = parser.parse_args()
    if args.again:
        runs = json.loads(args.again.read_text())["runs"]
        args.rounds, args.out = len(runs["after"]), None
    else:
        runs = {"before": [], "after": []}
        for _ in range(args.rounds):
            for side in ("before", "after"):
                runs[side].append(run(getattr(args, side), args.events, args.backend))
                print(f"{side}: done in {runs[side][-1]['wall_s']} s", file=sys.stderr)
    sides = {side: [flat(r) for r in found] for side, found in runs.items()}
    names = [n for n in sides["after"][0] if n in sides["before"][0] and n != "events"]
    table = {}
    print(f"| figure ({args.events:,} events, {args.backend}, best of {args.rounds}) | before | after | after / before |")
    print("|---|---|---|---|")
    for name in names:
        before = best(name, [r[name] for r in sides["before"] if name in r])
        after = best(name, [r[name] for r in sides["after"] if name in r])
        ratio = f"{after / before:.2f}" if before else ""
        table[name] = {"before": before, "after": after}
        print(f"| {name} | {before:,} | {after:,} | {ratio} |")
    new = [n for n in sides["after"][0] if n not in sides["before"][0]]
    if new:
        print("\nNew figures (after only): " + ", ".join(f"{n} = {sides['after'][0][n]:,}" for n in new))
    if args.out:
        args.out.write_text(json.dumps({"runs": runs, "best": table}, indent=1) + "\n")


if __name__ == "__main__":
    main()
