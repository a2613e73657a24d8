"""Derived data built for a whole ledger: after an import, or `tally db snapshot`.

Each campaign gets its snapshots through its history (projections/replay.py)
and its kept histories (projections/kept.py). The two are separate folds of
the whole log, and both are CPU in Python: where a campaign has no histories
yet and is long enough, its histories are folded in a process of their own,
reading the log as committed, while this one folds the snapshots; this
process then stores them and catches them up, in the same transaction as the
snapshots. Everything is derived data: the result is the same as folding one
after the other, only sooner on two cores.
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_all_start_methods, get_context
from typing import Iterator, Optional

from ledger import kept_rows
from ledger.forks import die_with_parent
from ledger.store import Store
from projections import kept
from projections.replay import build_snapshots

# A campaign's events from which its histories are folded apart: a fold of 10,000 takes some
# 0.3 s, against ~30 ms to fork a process and open the ledger again in it.
APART_FROM = 10_000


def build_all(store: Store, *, apart_from: int = APART_FROM, cores: Optional[int] = None) -> dict[str, list[int]]:
    """Every campaign's snapshots and kept histories brought up to its head, in one transaction
    (the derived-data key first, in one of its own, where it is missing: a process apart must
    find it). Each campaign's new snapshots' positions, by name. ``cores``: the machine's."""
    with store.transaction() as tx:
        tx.snapshot_key(create=True)
        names = tx.campaigns()
        apart = [name for name in names if tx.count(name) >= apart_from and _none_kept(tx, name)]
    with _folding_apart(store, apart, os.cpu_count() if cores is None else cores) as histories:
        with store.transaction() as tx:
            taken = {name: build_snapshots(tx, name) for name in names}
            for name in names:
                made = _result(histories.get(name))
                if made is not None:
                    kept.keep_built(tx, name, made)
                else:
                    kept.catch_up(tx, name)
            return taken


def _none_kept(tx, name: str) -> bool:
    key = kept.derived_key(tx, create=False)
    return key is not None and kept_rows.head(tx, key, name) is None


@contextmanager
def _folding_apart(store: Store, names: list[str], cores: Optional[int]) -> Iterator[dict[str, Future]]:
    """Each named campaign's histories, being folded in a process apart; none where a process
    cannot be forked (or one core would run both folds in turn anyway)."""
    if not names or (cores or 1) < 2 or "fork" not in get_all_start_methods():
        yield {}
        return
    # SQLite: no connection of this process open across the fork (SQLite's rule: a child must
    # not inherit one); the store opens new ones after it. Forked, the process apart starts
    # with everything imported, and runs no module's top level again.
    store.dispose()
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("fork"), initializer=die_with_parent,
                             initargs=(os.getpid(),)) as pool:
        yield {name: pool.submit(_histories, store.url, name) for name in names}


def _histories(url: str, name: str):
    """In the process apart: the campaign's histories as the committed log has them."""
    store = Store(url)
    try:
        with store.reading() as tx:
            return kept.built(tx, name)
    finally:
        store.dispose()


def _result(folding: Optional[Future]):
    """What the process apart folded; None where it did not (nothing asked, or it failed: the
    histories are then caught up here, which says what is wrong if anything is)."""
    if folding is None:
        return None
    try:
        return folding.result()
    except Exception:  # noqa: BLE001 - derived data: folded again here rather than lost
        return None
