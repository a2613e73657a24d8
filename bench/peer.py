"""The benchmark's side-by-side: the same append / read-back / rebuild
workload through our store and through the `eventsourcing` library's SQLite
application recorder (installed only for the benchmark: `pip install
eventsourcing`), on the same machine, the same disk, the same payloads.

Both sides append single events each in its own durable transaction, append
the rest in batches of 1,000 (the two sides' appends interleaved, turn about), read the whole log back decoding every
payload, and rebuild the same small projection (cash per character) from
it (the read and the rebuild each the best of three). Our side also hashes every event into the chain and checks stream
versions; theirs checks originator versions. Figures, never assertions.

Besides the times, a figure the disk's noise does not move: the pages each
side's single appends write to SQLite's write-ahead log (every page a commit
dirties is one frame of the log, fsynced with it), counted over the first
WAL_SAMPLE single appends of each.
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from importlib.util import find_spec
from pathlib import Path
from typing import Callable, Iterable, NamedTuple, Optional

BATCH = 1000


def _cash(payloads: Iterable[dict]) -> dict:
    """The rebuild both sides run: cash per character from cash.changed."""
    cash: dict = {}
    for p in payloads:
        if "delta" in p:
            cash[p["character"]] = cash.get(p["character"], 0) + p["delta"]
    return cash


def _payloads(count: int) -> list[dict]:
    return [{"character": f"Hero {i % 40 + 1}", "delta": 1 + i % 3, "why": f"bench {i}"} for i in range(count)]


READS = 3  # the read back and the rebuild, repeated: the best of three for each side
WAL_SAMPLE = 100  # single appends whose log pages are counted: fewer pages than SQLite's autocheckpoint (1,000)


class Side(NamedTuple):
    single: Callable[[int], object]  # append payload i alone, in its own durable transaction
    batch: Callable[[int, int], object]  # append payloads [at, to) in one transaction
    read: Callable[[], list]  # every payload, decoded
    close: Callable[[], object]
    file: Path  # the side's SQLite database


def _log_emptied(db: Path) -> bool:
    """Fold the database's write-ahead log back into it and truncate it (False if a reader held it)."""
    with sqlite3.connect(db) as conn:
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return busy == 0


def _log_pages(db: Path) -> int:
    """The frames (pages) written to the database's write-ahead log since it was truncated."""
    with sqlite3.connect(db) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
    log = Path(f"{db}-wal")
    return (log.stat().st_size - 32) // (page + 24) if log.exists() and log.stat().st_size > 32 else 0


def _timed(step) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def _measured(sides: dict[str, Side], count: int, singles: int) -> dict:
    """Time both sides' appends, interleaved — single appends one of ours, one
    of theirs, turn about (who goes first alternating), then the batches the
    same way — so that a disk or a machine busier at one moment weighs on both
    alike: on a shared machine, one side's whole run after the other's measured
    the moment as much as the store. Then each side's read back and the same
    small rebuild over what it read, the best of READS (they write nothing)."""
    figures = {name: {"single_s": 0.0, "batch_s": 0.0} for name in sides}
    order = list(sides)
    counted = all(_log_emptied(side.file) for side in sides.values())
    for i in range(singles):
        for name in order if i % 2 == 0 else reversed(order):
            figures[name]["single_s"] += _timed(lambda: sides[name].single(i))
        if i + 1 == min(WAL_SAMPLE, singles):
            for name, side in sides.items():
                figures[name]["log_pages"] = _log_pages(side.file) / (i + 1) if counted else None
    for n, at in enumerate(range(singles, count, BATCH)):
        for name in order if n % 2 == 0 else reversed(order):
            figures[name]["batch_s"] += _timed(lambda: sides[name].batch(at, min(at + BATCH, count)))
    for name, side in sides.items():
        reads, rebuilds = [], []
        for _ in range(READS):
            reads.append(_timed(side.read))
            start = time.perf_counter()
            figures[name]["cash"] = _cash(side.read())
            rebuilds.append(time.perf_counter() - start)
        figures[name]["read_s"], figures[name]["rebuild_s"] = min(reads), min(rebuilds)
    return figures


def _ours(folder: Path, payloads: list[dict]) -> Side:
    from ledger.envelope import NewEvent
    from ledger.events.stable import CashChanged
    from ledger.store import Store

    store = Store(f"sqlite:///{folder / 'ours.db'}")
    events = [NewEvent(f"character:hero-{p['character'][5:]}", CashChanged(**p), game_time=1) for p in payloads]

    def read() -> list[dict]:
        with store.reading() as tx:
            return [e.payload for e in tx.read("Bench")]

    return Side(lambda i: store.append("Bench", [events[i]], actor="bench"),
                lambda at, to: store.append("Bench", events[at:to], actor="bench"),
                read, store.dispose, folder / "ours.db")


def _theirs(folder: Path, payloads: list[dict]) -> Side:
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

    datastore = SQLiteDatastore(str(folder / "theirs.db"))
    recorder = SQLiteApplicationRecorder(datastore)
    recorder.create_table()
    versions: dict[str, int] = {}
    ids = {f"Hero {n}": uuid.uuid5(uuid.NAMESPACE_OID, f"Hero {n}") for n in range(1, 41)}

    def stored(p: dict) -> StoredEvent:
        versions[p["character"]] = versions.get(p["character"], 0) + 1
        return StoredEvent(originator_id=ids[p["character"]], originator_version=versions[p["character"]],
                           topic="cash.changed", state=json.dumps(p, sort_keys=True).encode())

    def read() -> list[dict]:
        read, after = [], None
        while page := recorder.select_notifications(start=after, limit=BATCH, inclusive_of_start=False):
            read.extend(json.loads(n.state) for n in page)
            after = page[-1].id
        return read

    return Side(lambda i: recorder.insert_events([stored(payloads[i])]),
                lambda at, to: recorder.insert_events([stored(p) for p in payloads[at:to]]),
                read, datastore.close, folder / "theirs.db")


def compare(folder: Path, events: int, singles: int = 300) -> Optional[dict]:
    """Our figures, theirs and the ratios (ours / theirs: above 1 means we are faster);
    None if the library is not installed."""
    if find_spec("eventsourcing") is None:  # installed only for the benchmark (the bench extra)
        return None
    payloads = _payloads(events)
    sides = {"ours": _ours(folder, payloads), "eventsourcing": _theirs(folder, payloads)}
    try:
        figures = _measured(sides, events, singles)
    finally:
        for side in sides.values():
            side.close()
    ours, theirs = figures["ours"], figures["eventsourcing"]
    if ours.pop("cash") != theirs.pop("cash"):
        raise AssertionError("the two stores rebuilt different projections from the same events")
    batched = events - singles
    rates = {}
    for name, side in (("ours", ours), ("eventsourcing", theirs)):
        rates[name] = {"single_appends_per_s": round(singles / side["single_s"]),
                       "batch_appends_per_s": round(batched / side["batch_s"]),
                       "read_back_events_per_s": round(events / side["read_s"]),
                       "rebuild_events_per_s": round(events / side["rebuild_s"])}
    rates["ratio_ours_to_theirs"] = {k: round(rates["ours"][k] / rates["eventsourcing"][k], 2)
                                     for k in rates["ours"]}
    for name, side in (("ours", ours), ("eventsourcing", theirs)):  # pages: fewer is better, so no ratio above
        if side["log_pages"] is not None:
            rates[name]["wal_pages_per_single_append"] = round(side["log_pages"], 2)
    rates["events"] = events
    return rates
