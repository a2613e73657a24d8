"""The benchmark (`tally bench run`): the same generated campaign through
every path a referee waits on, one figure each. Figures, not assertions:
the targets live in docs/performance.md."""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

from ledger.chain import verify_rows
from ledger.envelope import NewEvent
from ledger.events.stable import CashChanged
from ledger.generator import NAME, generate
from ledger.store import Store
from ledger.transfer import import_file

TARGETS = {  # issue 7, on the 2-core machine, SQLite, 1,000,000 events
    "import_events_per_s": 100_000, "append_events_per_s": 3_000, "rebuild_events_per_s": 200_000,
    "as_of_median_ms_with_snapshots": 50, "verify_events_per_s": 500_000, "cli_roll_vs_import_sqlalchemy": 1.5,
    "peak_rss_mb": 500,
}


def _timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(events: int, url: Optional[str] = None, seed: int = 1, appends: int = 300, queries: int = 5) -> dict:
    from ledger.commands.base import load, take_snapshot
    from projections import world as world_model
    from projections.timeline import Pin, visible

    work = Path(tempfile.mkdtemp(prefix="tally-bench-"))
    url = url or f"sqlite:///{work / 'bench.db'}"
    figures: dict = {"events": events, "backend": url.split(":", 1)[0], "python": sys.version.split()[0]}
    path = work / "campaign.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        written, seconds = _timed(lambda: generate(out, events=events, seed=seed))
    figures.update(generated=written, generate_s=round(seconds, 2))

    store = Store(url)
    result, seconds = _timed(lambda: import_file(store, str(path)))
    figures["import_events_per_s"] = round(result.added / seconds)

    with store.reading() as tx:
        (count, _), seconds = _timed(lambda: verify_rows(r._mapping for r in tx.raw_rows()))
    figures["verify_events_per_s"] = round(count / seconds)

    with store.reading() as tx:
        envelopes, read_s = _timed(lambda: list(tx.read(NAME)))
        _, fold_s = _timed(lambda: world_model.fold(visible(envelopes)))
    figures["read_events_per_s"] = round(len(envelopes) / read_s)
    figures["rebuild_events_per_s"] = round(len(envelopes) / (read_s + fold_s))
    figures["fold_only_events_per_s"] = round(len(envelopes) / fold_s)

    def append_one(i):
        store.append(NAME, [NewEvent("bench", CashChanged(character="Hero 1", delta=1, why=f"append {i}"),
                                     game_time=envelopes[-1].game_time)], actor="bench")

    _, seconds = _timed(lambda: [append_one(i) for i in range(appends)])
    figures["append_events_per_s"] = round(appends / seconds)

    rng = random.Random(seed)
    head = len(envelopes)
    days = (envelopes[0].game_time, max(e.game_time for e in envelopes))
    points = ([Pin(at_event=rng.randint(head // 2, head)) for _ in range(queries)]
              + [Pin(as_of=f"day:{rng.randint(*days)}") for _ in range(queries)]
              + [Pin(as_recorded=rng.choice(envelopes).recorded_at) for _ in range(queries)])

    def median_ms(use_snapshots: bool) -> float:
        times = []
        with store.reading() as tx:
            for point in points:
                _, seconds = _timed(lambda: load(tx, NAME, point=point, use_snapshots=use_snapshots))
                times.append(seconds * 1000)
        return round(statistics.median(times), 1)

    figures["as_of_median_ms_without_snapshots"] = median_ms(False)
    with store.transaction() as tx:
        take_snapshot(tx, NAME, list(tx.read(NAME)))
    figures["as_of_median_ms_with_snapshots"] = median_ms(True)

    figures.update(_cli_start(url))
    figures["peak_rss_mb"] = round(_peak_rss_mb())
    store.dispose()
    figures["targets"] = TARGETS
    return figures


def _cli_start(url: str) -> dict:
    tally = str(Path(sys.executable).parent / "tally")
    env = {**os.environ, "TALLY_ACTOR": "bench"}

    def best(cmd) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run(cmd, env=env, capture_output=True, check=True)
            times.append(time.perf_counter() - start)
        return min(times)

    # A hand-logged roll: the imported epoch's secret stays where it was rolled, and the
    # path (load the campaign, decide, append) is the same.
    roll = best([tally, "--db", url, "--campaign", NAME, "roll", "1d6", "--dice", "4"])
    baseline = best([sys.executable, "-c", "import sqlalchemy"])
    return {"cli_roll_s": round(roll, 3), "import_sqlalchemy_s": round(baseline, 3),
            "cli_roll_vs_import_sqlalchemy": round(roll / baseline, 2)}
