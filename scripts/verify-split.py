"""Each of verify's checks on its own, in one process, CPU and wall seconds, on an existing
SQLite ledger: `python scripts/verify-split.py LEDGER.db [--folds]` — the chain alone, the
chain and the tree from one reading of each of two stretches (as `tally verify` cuts them on
two cores), the snapshots held by their receipts, and with --folds the fold under every
snapshot (what --refold and a first verify pay). Reads only (docs/performance.md, issue 29)."""

import sys
import time
from contextlib import closing

from ledger.chain import verify_stored
from ledger.store import Store
from projections import verification


def clock(label, fn):
    cpu, wall = time.process_time(), time.perf_counter()
    result = fn()
    print(f"{label}: {time.process_time() - cpu:.2f} CPU-s, {time.perf_counter() - wall:.2f} s wall", flush=True)
    return result


def main(path: str, folds: bool) -> None:
    store = Store(f"sqlite:///{path}", create=False)
    with store.reading() as tx:
        head = tx.head()[0]
        tiles = {name: [tuple(t[:4]) for t in tx.snapshot_tiles(name)] for name in tx.snapshotted()}

    def chain():
        with store.reading() as tx, closing(tx.raw_rows(0, head)) as rows:
            return verify_stored(rows)

    clock(f"the chain alone, {head} events", chain)
    top, bounds = verification._bounds(head, 2)
    for after, upto in zip(bounds, bounds[1:]):
        clock(f"chain and tree, events {after + 1}-{upto}", lambda: verification._stretch_in(store, after, upto, top, []))
    with store.reading() as tx:
        for name, every in tiles.items():
            clock(f"{len(every)} snapshots of {name} by receipt",
                  lambda: verification._covered_in(tx, name, every, list(range(len(every)))))
            if folds:
                clock(f"the fold under {len(every)} snapshots of {name}",
                      lambda: verification._tiles_in(tx, name, every, 0, len(every)))
    store.dispose()


if __name__ == "__main__":
    main(sys.argv[1], "--folds" in sys.argv[2:])
