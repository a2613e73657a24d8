"""The benchmark's side-by-side: the same append / read-back / rebuild
workload through our store and through the `eventsourcing` library's SQLite
application recorder (installed only for the benchmark: `pip install
eventsourcing`), on the same machine, the same disk, the same payloads.

Both sides append single events each in its own durable transaction, append
the rest in batches of 1,000, read the whole log back decoding every
payload, and rebuild the same small projection (cash per character) from
it (the read and the rebuild each the best of three). Our side also hashes every event into the chain and checks stream
versions; theirs checks originator versions. Figures, never assertions.
"""

from __future__ import annotations

import json
import time
import uuid
from importlib.util import find_spec
from pathlib import Path
from typing import Iterable, Optional

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


def _measured(single, batch, read) -> dict:
    """Time one side's appends, then its read back and the same small rebuild
    over what it read, each the best of READS (they write nothing, so they
    can be repeated; on a shared machine the best is the least disturbed)."""
    figures = {}
    for name, step in (("single_s", single), ("batch_s", batch)):
        start = time.perf_counter()
        step()
        figures[name] = time.perf_counter() - start
    reads, rebuilds = [], []
    for _ in range(READS):
        start = time.perf_counter()
        read()
        reads.append(time.perf_counter() - start)
        start = time.perf_counter()
        figures["cash"] = _cash(read())
        rebuilds.append(time.perf_counter() - start)
    figures["read_s"], figures["rebuild_s"] = min(reads), min(rebuilds)
    return figures


def _ours(folder: Path, payloads: list[dict], singles: int) -> dict:
    from ledger.envelope import NewEvent
    from ledger.events.stable import CashChanged
    from ledger.store import Store

    store = Store(f"sqlite:///{folder / 'ours.db'}")
    events = [NewEvent(f"character:hero-{p['character'][5:]}", CashChanged(**p), game_time=1) for p in payloads]

    def read() -> list[dict]:
        with store.reading() as tx:
            return [e.payload for e in tx.read("Bench")]

    try:
        return _measured(lambda: [store.append("Bench", [new], actor="bench") for new in events[:singles]],
                         lambda: [store.append("Bench", events[at:at + BATCH], actor="bench")
                                  for at in range(singles, len(events), BATCH)],
                         read)
    finally:
        store.dispose()


def _theirs(folder: Path, payloads: list[dict], singles: int) -> dict:
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

    try:
        return _measured(lambda: [recorder.insert_events([stored(p)]) for p in payloads[:singles]],
                         lambda: [recorder.insert_events([stored(p) for p in payloads[at:at + BATCH]])
                                  for at in range(singles, len(payloads), BATCH)],
                         read)
    finally:
        datastore.close()


def compare(folder: Path, events: int, singles: int = 300) -> Optional[dict]:
    """Our figures, theirs and the ratios (ours / theirs: above 1 means we are faster);
    None if the library is not installed."""
    if find_spec("eventsourcing") is None:  # installed only for the benchmark (the bench extra)
        return None
    payloads = _payloads(events)
    ours, theirs = _ours(folder, payloads, singles), _theirs(folder, payloads, singles)
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
    rates["events"] = events
    return rates
