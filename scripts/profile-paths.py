"""Profile the paths the benchmark measures, one pyinstrument profile each,
written as HTML (and the call tree as text) under docs/profiles/ (docs/performance.md links them).

    .venv/bin/python scripts/profile-paths.py [--events 100000] [--out docs/profiles]

Paths: single durable appends and appends in batches of 1,000 (the
side-by-side's workload), reading the log back, a full rebuild, import and
verify (in one process, so the profile sees the work rather than a pool
waiting on its workers). Each runs in this process on a fresh SQLite file
in a temporary folder; the load average is printed beside each.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyinstrument import Profiler  # noqa: E402


def profiled(name: str, out: Path, fn):
    profiler = Profiler(interval=0.0005)
    start = time.perf_counter()
    profiler.start()
    result = fn()
    profiler.stop()
    seconds = time.perf_counter() - start
    (out / f"{name}.html").write_text(profiler.output_html())
    (out / f"{name}.txt").write_text(profiler.output_text(unicode=False, color=False, short_mode=False))
    print(f"{name}: {seconds:.2f} s (load {os.getloadavg()[0]:.2f}) -> {out / name}.html")
    return result, seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--out", default="docs/profiles")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from bench.peer import BATCH, _payloads
    from ledger.chain import verify_stored
    from ledger.envelope import NewEvent
    from ledger.events.stable import CashChanged
    from ledger.files import writing
    from bench.generator import NAME, generate
    from projections.replay import world_at
    from ledger.store import Store
    from commands.transfer import import_file
    from projections.timeline import NOW

    work = Path(tempfile.mkdtemp(prefix="tally-profile-"))
    store = Store(f"sqlite:///{work / 'peer.db'}")
    events = [NewEvent(f"character:hero-{p['character'][5:]}", CashChanged(**p), game_time=1)
              for p in _payloads(args.events)]
    profiled("append-single", out, lambda: [store.append("Bench", [e], actor="bench") for e in events[:300]])
    profiled("append-batch", out, lambda: [store.append("Bench", events[at:at + BATCH], actor="bench")
                                           for at in range(300, len(events), BATCH)])

    def read_back():
        with store.reading() as tx:
            return sum(1 for e in tx.read("Bench") if e.payload)
    profiled("read-back", out, read_back)
    store.dispose()

    path = work / "campaign.jsonl"
    with writing(str(path)) as handle:
        generate(handle, events=args.events, seed=1)
    store = Store(f"sqlite:///{work / 'bench.db'}")
    profiled("import", out, lambda: import_file(store, str(path), snapshots=False, workers=0))

    def verify_chain():
        with store.reading() as tx:
            return verify_stored(tx.raw_rows())
    profiled("verify-chain", out, verify_chain)

    def rebuild():
        with store.reading() as tx:
            return world_at(tx, NAME, NOW, use_snapshots=False)
    profiled("rebuild", out, rebuild)
    store.dispose()


if __name__ == "__main__":
    main()
