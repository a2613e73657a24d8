"""Verifying a whole database's hash chain, on every core when the log is long.

Each event's hash depends only on its own row, and the chain only links each
row to the one before, so the log splits into stretches that are checked
side by side: every stretch in its own process, on its own connection, and
then each stretch's first prev_hash against the hash that ends the stretch
before it. The log is append-only, so rows up to the head read at the start
are the same whichever connection reads them. The first broken position is
reported, as a single pass would.
"""

from __future__ import annotations

import os
from contextlib import closing
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context
from typing import Optional

from ledger.chain import GENESIS, verify_stored
from ledger.errors import ChainBroken
from ledger.store import Store

PARALLEL_FROM = 200_000  # below this a second process costs more than it saves


def verify_database(store: Store, workers: Optional[int] = None) -> tuple[int, str]:
    """(events, head hash) of the whole chain, or ChainBroken at the first bad position."""
    with store.reading() as tx:
        head = tx.head()[0]
    workers = workers or min(os.cpu_count() or 1, 4)
    if head < PARALLEL_FROM or workers < 2 or "fork" not in get_all_start_methods():
        with store.reading() as tx, closing(tx.raw_rows()) as rows:
            return verify_stored(rows)
    bounds = [head * i // workers for i in range(workers + 1)]
    stretches = list(zip(bounds, bounds[1:]))
    with ProcessPoolExecutor(max_workers=workers - 1, mp_context=get_context("fork")) as pool:
        futures = [pool.submit(_stretch, store.url, after, upto) for after, upto in stretches[1:]]
        results = [_stretch_in(store, *stretches[0])] + [f.result() for f in futures]
    prev, count = GENESIS, 0
    for (after, _), result in zip(stretches, results):
        if result[0] == "broken":
            raise ChainBroken(result[1], result[2])
        _, first_prev, n, last = result
        if first_prev != prev:
            raise ChainBroken(after + 1, "prev_hash does not match the hash of the event before it")
        count, prev = count + n, last
    return count, prev


def _stretch_in(store: Store, after: int, upto: int) -> tuple:
    with store.reading() as tx, closing(tx.raw_rows(after, upto)) as rows:
        first = next(rows, None)
        if first is None:
            return ("broken", after + 1, f"position {after + 1} is missing")
        try:
            count, last = verify_stored(_chain(first, rows), start=after + 1, prev=first[12])
        except ChainBroken as broken:
            return ("broken", broken.position, broken.reason)
    if count != upto - after:
        return ("broken", after + count + 1, f"position {after + count + 1} is missing")
    return ("ok", first[12], count, last)


def _stretch(url: str, after: int, upto: int) -> tuple:
    store = Store(url, create=False)
    try:
        return _stretch_in(store, after, upto)
    finally:
        store.dispose()


def _chain(first, rest):
    yield first
    yield from rest
