"""The benchmark (`tally bench run`): the same generated campaign through
every path a referee waits on, one figure each. Figures, not assertions:
the targets are printed beside them and docs/performance.md records a run.

Run as a module it is also the benchmark's helper processes: `rebuild`
(a full rebuild in a fresh process, so its peak memory is its own) and
`write` (one of the concurrent writers).
"""

from __future__ import annotations

import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Iterator, Optional

TARGETS = {  # issue 7, on the 2-core machine, SQLite, 1,000,000 events
    "import_events_per_s": 100_000, "append_events_per_s": 3_000, "rebuild_events_per_s": 200_000,
    "rebuild_peak_rss_mb": 500, "as_of_median_ms_with_snapshots": 50, "verify_events_per_s": 500_000,
    "cli_roll_vs_import_sqlalchemy": 1.5, "late_fact_check_median_ms": 50,  # issue 11
    "cli_char_show_vs_import_sqlalchemy": 1.5, "cli_help_vs_import_sqlalchemy": 1.5,  # issue 29
    "proof_hashes_max": 20, "proof_median_ms": 100, "verify_against_median_ms": 100,  # issue 17
    "shell_command_median_ms": 30,  # issue 12: a command inside `tally shell` (bench/shell.py)
    "chronicle_slowest_page_median_ms": 200,  # issue 18 (bench/pages.py); issue 26: at a million events
    "chronicle_first_character_page_ms": 200,  # issue 26: the first character page after an append
}
# issue 20: on PostgreSQL, four writers on one campaign at least twice one writer's rate (one run)
PG_TARGETS = {"writers_vs_one": 2.0}
LOWER_IS_BETTER = {"rebuild_peak_rss_mb", "as_of_median_ms_with_snapshots", "cli_roll_vs_import_sqlalchemy",
                   "cli_char_show_vs_import_sqlalchemy", "cli_help_vs_import_sqlalchemy",
                   "late_fact_check_median_ms", "proof_hashes_max", "proof_median_ms", "verify_against_median_ms",
                   "shell_command_median_ms", "chronicle_slowest_page_median_ms",
                   "chronicle_first_character_page_ms"}
WRITERS = 4


def _timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def _peak_rss_mb() -> float:
    """This process's peak resident memory. VmHWM where Linux has it: ru_maxrss
    carries a forking parent's peak over exec, so a helper started from a large
    benchmark process would report the parent's memory, not its own."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _helper(*args: str) -> dict:
    """Run this module as a helper process; its JSON answer."""
    out = subprocess.run([sys.executable, "-m", "bench.benchmark", *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"benchmark helper {args[0]} failed: {out.stderr.strip()[-500:]}")
    return json.loads(out.stdout)


@contextmanager
def _database(backend: str, url: Optional[str], work: Path) -> Iterator[str]:
    """The URL to measure: a SQLite file, the PostgreSQL URL given, or a throwaway server."""
    if url or backend == "sqlite":
        yield url or f"sqlite:///{work / 'bench.db'}"
        return
    from ledger.errors import BadInput
    from ledger.pgserver import PostgresServer, find_bindir

    bindir = find_bindir()
    if bindir is None:
        raise BadInput("--backend postgresql needs the PostgreSQL server binaries (initdb, pg_ctl) or --bench-db URL")
    server = PostgresServer(bindir, durable=True).start()
    try:
        yield server.new_database()
    finally:
        server.stop()


def run(events: int, *, backend: str = "sqlite", url: Optional[str] = None, seed: int = 1,
        appends: int = 500, queries: int = 20, peer: bool = True) -> dict:
    from bench.pages import pages as chronicle_pages
    from ledger.chain import verify_stored
    from ledger.files import writing
    from bench.generator import NAME, generate
    from projections.verification import verify_database
    from ledger.store import Store
    from commands.transfer import build_all_snapshots, import_file

    work = Path(tempfile.mkdtemp(prefix="tally-bench-"))
    figures: dict = {"events": events, "backend": backend, "date": date.today().isoformat(),
                     "machine": f"{os.cpu_count()} cores, {platform.machine()}, {platform.system()}",
                     "python": platform.python_version()}
    try:
        with _database(backend, url, work) as target:
            path = work / "campaign.jsonl"
            with writing(str(path)) as out:
                written, seconds = _timed(lambda: generate(out, events=events, seed=seed))
            figures.update(generated=written, generate_s=round(seconds, 1))

            store = Store(target)
            result, imported_s = _timed(lambda: import_file(store, str(path), snapshots=False))
            figures["import_events_per_s"] = round(result.added / imported_s)
            made, seconds = _timed(lambda: build_all_snapshots(store))
            figures["snapshots_built"] = made
            figures["snapshot_build_events_per_s"] = round(written / seconds)
            # What `tally import` takes in all: the events, then the snapshots and kept histories.
            figures["import_with_derived_events_per_s"] = round(result.added / (imported_s + seconds))
            figures.update(_sizes(store, target))

            # The first verify folds the log under every snapshot (as --refold does) and gives them receipts;
            # the next, what `tally verify` costs on a ledger verified before, holds them by their receipts.
            verified, seconds = _timed(lambda: verify_database(store, receipts=True))
            figures["verify_refold_events_per_s"] = round(verified.events / seconds)
            verified, seconds = _timed(lambda: verify_database(store, receipts=True))
            figures["verify_events_per_s"] = round(verified.events / seconds)
            with store.reading() as tx:
                (count, _), seconds = _timed(lambda: verify_stored(tx.raw_rows()))
            figures["verify_one_process_events_per_s"] = round(count / seconds)

            rebuild = _helper("rebuild", target, NAME)
            figures["rebuild_events_per_s"] = round(written / rebuild["seconds"])
            figures["rebuild_peak_rss_mb"] = rebuild["peak_rss_mb"]

            figures.update(_as_of(store, NAME, seed, queries, slow=1 if events > 100_000 else 3))
            figures.update(_late_fact(store, NAME, seed, queries))
            figures.update(_appends(store, NAME, appends))
            figures.update(_cli_start(target, NAME))
            from bench.shell import figures as shell_figures  # beside it, a command in `tally shell`
            figures.update(shell_figures(target, NAME))
            figures.update(_checkpoints(store, target, NAME, work, seed, queries))
            figures.update(chronicle_pages(store, NAME, seed))
            store.dispose()
            one = _writers(target, per_writer=max(50, appends) * 2, count=1)
            figures["one_writer_events_per_s"] = one["writers_events_per_s"]
            figures.update(_writers(target, per_writer=max(50, appends)))
            figures["writers_vs_one"] = round(figures["writers_events_per_s"] / max(1, one["writers_events_per_s"]), 2)
            figures["writers_lost"] += one["writers_lost"]
            figures["writers_failed"] += one["writers_failed"]
            figures["writers_chain_valid"] = figures["writers_chain_valid"] and one["writers_chain_valid"]
        if peer:
            figures["eventsourcing"] = _peer(work, min(events, 200_000))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    goals = {**TARGETS, **(PG_TARGETS if backend == "postgresql" else {})}
    figures["targets"] = {name: {"target": goal, "met": _met(name, figures.get(name), goal)}
                          for name, goal in goals.items()}
    return figures


def _met(name: str, value, goal) -> Optional[bool]:
    if value is None:
        return None
    return value <= goal if name in LOWER_IS_BETTER else value >= goal


def _sizes(store, url: str) -> dict:
    """What the ledger costs on disk: the database, and a snapshot."""
    import sqlalchemy as sa

    with store.reading() as tx:
        average = tx.conn.execute(sa.text("SELECT avg(length(state)) FROM snapshots")).scalar() or 0
        if url.startswith("sqlite"):
            pages = tx.conn.exec_driver_sql("PRAGMA page_count").scalar()
            size = pages * tx.conn.exec_driver_sql("PRAGMA page_size").scalar()
        else:
            size = tx.conn.execute(sa.text("SELECT pg_database_size(current_database())")).scalar()
    # PostgreSQL answers avg() with a Decimal
    return {"database_mb": round(int(size) / 2**20), "snapshot_kb": round(float(average) / 1024, 1)}


def _as_of(store, name: str, seed: int, queries: int, slow: int) -> dict:
    """Median milliseconds of a query at random points on each axis, with and without snapshots."""
    from projections.reading import load
    from projections.timeline import Pin

    rng = random.Random(seed)
    with store.reading() as tx:
        head = tx.head()[0]
        first, last = tx.first(name).game_time, tx.last_day(name, head)
        instants = [tx.get(rng.randint(1, head)).recorded_at for _ in range(queries)]
    axes = {"position": [Pin(at_event=rng.randint(1, head)) for _ in range(queries)],
            "game_time": [Pin(as_of=f"day:{rng.randint(first, last)}") for _ in range(queries)],
            "recorded": [Pin(as_recorded=at) for at in instants]}
    figures = {}
    for snapshots, label, count in ((True, "with_snapshots", queries), (False, "without_snapshots", slow)):
        every = []
        for axis, points in axes.items():
            times = []
            with store.reading() as tx:
                for point in points[:count]:
                    _, seconds = _timed(lambda: load(tx, name, point=point, use_snapshots=snapshots))
                    times.append(seconds * 1000)
            figures[f"as_of_{axis}_median_ms_{label}"] = round(statistics.median(times), 1)
            every += times
        figures[f"as_of_median_ms_{label}"] = round(statistics.median(every), 1)
        figures[f"as_of_max_ms_{label}"] = round(max(every), 1)
    return figures


def _late_fact(store, name: str, seed: int, queries: int) -> dict:
    """Median milliseconds to check a fact logged late along the timeline to
    now (commands/late_facts.py), nothing written: a Cash gain, which
    breaks nothing, so the whole stretch after it is folded. It lands on the
    day before that of the session two to six sessions back, so it precedes
    at least those sessions (at a million events, a dozen sessions a day:
    about one game day of the log)."""
    from projections.reading import load
    from commands.late_facts import first_break
    from ledger.envelope import NewEvent
    from ledger.events.stable import CashChanged

    rng = random.Random(seed)
    times = []
    with store.reading() as tx:
        head = tx.head()[0]
        opened = [e.game_time for e in tx.read(name, types=["session.opened"], after=max(0, head - 20_000))]
        if len(opened) < 7:
            return {}
        for _ in range(queries):
            day = opened[-rng.randint(2, 6)] - 1
            ctx = load(tx, name, "bench", game_date=f"day:{day}")
            late = [NewEvent("character:hero-1", CashChanged(character="Hero 1", delta=1, why="remembered late"),
                             game_time=day)]
            _, seconds = _timed(lambda: first_break(ctx, late))
            times.append(seconds * 1000)
    return {"late_fact_check_median_ms": round(statistics.median(times), 1),
            "late_fact_check_max_ms": round(max(times), 1)}


def _appends(store, name: str, count: int) -> dict:
    """Single durable appends: through the store alone, and through a whole command."""
    from commands.economy import change_cash
    from ledger.envelope import NewEvent
    from ledger.events.stable import CashChanged

    with store.reading() as tx:
        day = tx.last_day(name, tx.head()[0])

    def one(i):
        store.append(name, [NewEvent("character:hero-1", CashChanged(character="Hero 1", delta=1, why=f"append {i}"),
                                     game_time=day)], actor="bench")

    _, seconds = _timed(lambda: [one(i) for i in range(count)])
    commands = max(10, count // 5)
    _, command_s = _timed(lambda: [change_cash(store, name, "Hero 2", 1, why=f"command {i}", actor="bench")
                                   for i in range(commands)])
    return {"append_events_per_s": round(count / seconds), "command_appends_per_s": round(commands / command_s)}


def _cli_start(url: str, name: str) -> dict:
    tally = str(Path(sys.executable).parent / "tally")
    # An installed tally starts from compiled bytecode: a development shell's PYTHONDONTWRITEBYTECODE
    # would time Python compiling tally's sources on every start instead (the first run caches them).
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "TALLY_ACTOR": "bench"}

    # A hand-logged roll: the imported epoch's secret stays where it was rolled, and the
    # path (start, load the campaign, decide, append) is the same. The four are run in turn,
    # five rounds, the best of each kept: a passing load on the machine falls on all alike.
    commands = {"roll": [tally, "--db", url, "--campaign", name, "roll", "1d6", "--dice", "4"],
                "show": [tally, "--db", url, "--campaign", name, "char", "show", "Hero 1", "--json"],
                "help": [tally, "--help"], "baseline": [sys.executable, "-c", "import sqlalchemy"]}
    times: dict[str, list[float]] = {key: [] for key in commands}
    for _ in range(5):
        for key, cmd in commands.items():
            start = time.perf_counter()
            subprocess.run(cmd, env=env, capture_output=True, check=True)
            times[key].append(time.perf_counter() - start)
    roll, show, helped, baseline = (min(times[key]) for key in commands)
    return {"cli_roll_s": round(roll, 3), "cli_char_show_s": round(show, 3), "cli_help_s": round(helped, 3),
            "import_sqlalchemy_s": round(baseline, 3), "cli_roll_vs_import_sqlalchemy": round(roll / baseline, 2),
            "cli_char_show_vs_import_sqlalchemy": round(show / baseline, 2),
            "cli_help_vs_import_sqlalchemy": round(helped / baseline, 2)}


def _checkpoints(store, url: str, name: str, work: Path, seed: int, queries: int) -> dict:
    """Signed checkpoints at this size (issue 17): the tree's interior on disk
    and recomputed; signing one; an inclusion proof of a random event against
    it (in-process, and `tally proof` end to end); a checkpoint of a random
    earlier size held against the log now (`verify --against` less the walk
    of the whole log it starts with: its signature and consistency proof)."""
    import sqlalchemy as sa

    from ledger import notes, tlog, tree
    from commands.checkpoints import new_key, sign
    from projections.verification import check_kept
    from projections.checkpoints import inclusion

    rng = random.Random(seed)
    key_file = str(work / "referee.key")
    new_key(store, name, actor="bench", key_file=key_file)
    signed, seconds = _timed(lambda: sign(store, name, actor="bench", key_file=key_file))
    figures = {"checkpoint_sign_ms": round(seconds * 1000, 1)}
    size = signed.payload["size"]
    with store.reading() as tx:
        figures["merkle_nodes"] = tx.conn.execute(sa.text("SELECT count(*) FROM merkle_nodes")).scalar()
        _, seconds = _timed(lambda: tree.check(tx.conn, size))
    figures["tree_check_events_per_s"] = round(size / seconds)

    proofs, lengths = [], []
    for _ in range(queries):
        position = rng.randint(1, size)
        with store.reading() as tx:
            found, seconds = _timed(lambda: inclusion(tx, name, position))
        proofs.append(seconds * 1000)
        lengths.append(len(found.path))
    figures.update(proof_median_ms=round(statistics.median(proofs), 2), proof_max_ms=round(max(proofs), 2),
                   proof_hashes_max=max(lengths))

    signer = notes.parse_skey(Path(key_file).read_text(), key_file)
    checks, lengths = [], []
    for _ in range(queries):
        old = rng.randint(1, size)
        with store.reading() as tx:
            body = tlog.body(signer.name, old, tree.root(tx.conn, old))
        kept = tlog.parse_checkpoint(f"{body}\n\u2014 {signer.name} {signer.sign(body)}\n")
        (results, parting), seconds = _timed(lambda: check_kept(store, [("kept", kept)]))
        if parting is not None or not results[0].consistent:
            raise RuntimeError(f"the benchmark's own checkpoint of {old} events does not hold")
        checks.append(seconds * 1000)
        lengths.append(len(results[0].proof))
    figures.update(verify_against_median_ms=round(statistics.median(checks), 2),
                   verify_against_max_ms=round(max(checks), 2), consistency_hashes_max=max(lengths))

    tally = str(Path(sys.executable).parent / "tally")
    env = {**os.environ, "TALLY_ACTOR": "bench"}
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([tally, "--db", url, "--campaign", name, "proof", str(rng.randint(1, size))],
                       env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    figures["cli_proof_s"] = round(min(times), 3)
    return figures


def _writers(url: str, per_writer: int, count: int = WRITERS) -> dict:
    """``count`` processes appending at once: nothing lost, the chain still valid.
    They start together at an agreed instant, after their imports, so the
    figure is appends over the time they contended, not process start-up.
    The benchmark runs it with one writer, then with WRITERS, back to back."""
    from ledger.chain import verify_stored
    from ledger.store import Store

    store = Store(url)
    with store.reading() as tx:
        before = tx.head()[0]
    start_at = time.time() + 3.0
    procs = [subprocess.Popen([sys.executable, "-m", "bench.benchmark", "write", url, f"writer-{n}",
                               str(per_writer), str(start_at)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for n in range(count)]
    outputs = [p.communicate() for p in procs]
    failed = [err.decode()[-300:] for p, (_, err) in zip(procs, outputs) if p.returncode != 0]
    ended = [json.loads(out)["ended"] for p, (out, _) in zip(procs, outputs) if p.returncode == 0]
    with store.reading() as tx:
        added = tx.head()[0] - before
        verified, _ = verify_stored(tx.raw_rows())
    store.dispose()
    seconds = max(ended, default=start_at + 1) - start_at
    return {"writers": count, "writers_events_per_s": round(added / seconds),
            "writers_lost": count * per_writer - added, "writers_failed": len(failed),
            "writers_chain_valid": verified == before + added}


def _peer(work: Path, events: int) -> Optional[dict]:
    from bench.peer import compare

    folder = work / "peer"
    folder.mkdir()
    return compare(folder, events)


def _rebuild(url: str, name: str) -> dict:
    """A full rebuild from nothing, streamed: every read model at the head."""
    from projections.replay import world_at
    from ledger.store import Store
    from projections.timeline import NOW

    store = Store(url)
    with store.reading() as tx:
        _, seconds = _timed(lambda: world_at(tx, name, NOW, use_snapshots=False))
    store.dispose()
    return {"seconds": seconds, "peak_rss_mb": round(_peak_rss_mb())}


def _write(url: str, actor: str, count: int, start_at: float) -> dict:
    from ledger.envelope import NewEvent
    from ledger.events.stable import CashChanged
    from bench.generator import NAME
    from ledger.store import Store

    store = Store(url)
    with store.reading() as tx:
        day = tx.last_day(NAME, tx.head()[0])
    time.sleep(max(0.0, start_at - time.time()))
    for i in range(count):
        store.append(NAME, [NewEvent(f"character:hero-{i % 3 + 1}", CashChanged(
            character=f"Hero {i % 3 + 1}", delta=1, why=f"{actor} {i}"), game_time=day)], actor=actor)
    store.dispose()
    return {"appended": count, "ended": time.time()}


if __name__ == "__main__":
    verb, *rest = sys.argv[1:]
    answer = _rebuild(rest[0], rest[1]) if verb == "rebuild" else _write(rest[0], rest[1], int(rest[2]),
                                                                         float(rest[3]))
    print(json.dumps(answer))
