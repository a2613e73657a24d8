"""PostgreSQL at many campaigns (issue 29): per-campaign appends and reads with
one campaign loaded and with a thousand, and many writers against one, on a
throwaway server with fsync on (ledger/pgserver.py, durable), its data on the
machine's disk.

    .venv/bin/python scripts/pg-campaigns.py [--campaigns 1000] [--events 1000] [--writers 1,2,4]

In a database of its own, campaign c0000 is loaded
first (``--events`` single-stream events in one transaction), measured, the
other campaigns loaded the same way, and c0000 measured again; the writers
(each appending one event a transaction to a campaign of its own, all
starting at one agreed instant) run at both points. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

START_DAY = 373_703


def _events(count: int, salt: str):
    from ledger.envelope import NewEvent
    from ledger.events.stable import CashChanged

    return [NewEvent(f"character:hero-{i % 5}", CashChanged(character=f"Hero {i % 5}", delta=1, why=f"{salt} {i}"),
                     game_time=START_DAY + i // 10) for i in range(count)]


def load(url: str, first: int, count: int, per: int) -> float:
    """Campaigns c{first}… of ``per`` events each, one transaction a campaign; events/s."""
    from ledger.store import Store

    store = Store(url)
    started = time.perf_counter()
    for n in range(first, first + count):
        store.append(f"c{n:04d}", _events(per, "load"), actor="bench")
    seconds = time.perf_counter() - started
    with store.transaction() as tx:
        tx.conn.exec_driver_sql("ANALYZE events")  # as autovacuum would have by then
    store.dispose()
    return count * per / seconds


def _median_ms(work, times: int) -> float:
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        work()
        spent.append(time.perf_counter() - started)
    return round(statistics.median(spent) * 1000, 3)


def per_campaign(url: str, campaign: str, appends: int) -> dict:
    """One campaign's figures: single appends, its events in fold order, a few seeks."""
    from ledger.store import Store

    store = Store(url)
    started = time.perf_counter()
    for event in _events(appends, "append"):
        store.append(campaign, [event], actor="bench")
    rate = appends / (time.perf_counter() - started)
    with store.reading() as tx:
        fold = _median_ms(lambda: sum(1 for _ in tx.read(campaign, fold_order=True)), 9)
        seeks = _median_ms(lambda: (tx.head(), tx.stream_version(campaign, "character:hero-1"),
                                    tx.latest_of(campaign, "cash.changed"), tx.campaign_head(campaign)), 200)
        leaves = _median_ms(lambda: tx.get_many(range(1, 4001, 40)), 20)
    store.dispose()
    return {"append_events_per_s": round(rate), "fold_read_ms": fold, "four_seeks_ms": seeks,
            "get_100_positions_ms": leaves}


def writers(url: str, count: int, per_writer: int, first: int) -> dict:
    """``count`` processes, each appending to a campaign of its own, started together."""
    from ledger.store import Store

    store = Store(url)
    with store.reading() as tx:
        before = tx.head()[0]
    start_at = time.time() + 2.0
    procs = [subprocess.Popen([sys.executable, __file__, "write", url, f"c{first + n:04d}", str(per_writer),
                               str(start_at)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for n in range(count)]
    outputs = [p.communicate() for p in procs]
    failed = [err.decode()[-300:] for p, (_, err) in zip(procs, outputs) if p.returncode]
    if failed:
        raise RuntimeError(f"a writer failed: {failed[0]}")
    answers = [json.loads(out) for out, _ in outputs]
    # From the instant the first began (a writer that came up late on a busy machine
    # began after start_at) to the last one's end.
    began = max(start_at, min(a["began"] for a in answers))
    ended = max(a["ended"] for a in answers)
    with store.reading() as tx:
        added = tx.head()[0] - before
    store.dispose()
    assert added == count * per_writer, (added, count * per_writer)
    return {"writers": count, "events_per_s": round(added / (ended - began))}


def _write(url: str, campaign: str, count: int, start_at: float) -> None:
    from ledger.store import Store

    store = Store(url)
    events = _events(count, "writer")
    with store.reading() as tx:
        tx.head()
    time.sleep(max(0.0, start_at - time.time()))
    began = time.time()
    for event in events:
        store.append(campaign, [event], actor="bench")
    ended = time.time()
    store.dispose()
    print(json.dumps({"began": began, "ended": ended}))


def measure(server, campaigns: int, per: int, appends: int, writer_counts: list[int]) -> dict:
    from ledger.store import Store

    url = server.new_database()
    Store(url).dispose()
    figures: dict = {}
    figures["load_events_per_s"] = round(load(url, 0, 1, per))
    figures["one_campaign"] = per_campaign(url, "c0000", appends)
    figures["one_campaign_writers"] = [writers(url, n, appends, 9000 + 10 * n) for n in writer_counts]
    figures["load_events_per_s_all"] = round(load(url, 1, campaigns - 1, per))
    figures[f"{campaigns}_campaigns"] = per_campaign(url, "c0000", appends)
    figures[f"{campaigns}_campaigns_other"] = per_campaign(url, f"c{campaigns - 1:04d}", appends)
    figures[f"{campaigns}_campaigns_writers"] = [writers(url, n, appends, 9500 + 10 * n) for n in writer_counts]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--events", type=int, default=1000, help="events a campaign")
    parser.add_argument("--appends", type=int, default=200, help="single appends a measurement (and a writer)")
    parser.add_argument("--writers", default="1,4", help="writer counts, comma-separated")
    args = parser.parse_args()
    from ledger.pgserver import PostgresServer, find_bindir

    server = PostgresServer(find_bindir(), durable=True).start()
    try:
        counts = [int(n) for n in args.writers.split(",")]
        with open("/proc/loadavg") as f:
            load_before = f.read().split()[:3]
        out = {"campaigns": args.campaigns, "events_each": args.events, "fsync": True, "load_before": load_before,
               "run": measure(server, args.campaigns, args.events, args.appends, counts)}
        with open("/proc/loadavg") as f:
            out["load_after"] = f.read().split()[:3]
        print(json.dumps(out, indent=1))
    finally:
        server.stop()


if __name__ == "__main__":
    if sys.argv[1:2] == ["write"]:
        _write(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    else:
        main()
