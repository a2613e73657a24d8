"""The benchmark's small mode as a smoke test (figures are printed, never asserted
against time), and the generator's promises: valid, chained, deterministic."""

import io

from bench.benchmark import run
from bench.generator import generate
from tests.conftest import Tally


def test_the_generator_is_deterministic_valid_and_audits(tmp_path):
    first, second = io.StringIO(), io.StringIO()
    generate(first, events=3000, seed=7)
    generate(second, events=3000, seed=7)
    assert first.getvalue() == second.getvalue()
    other = io.StringIO()
    generate(other, events=3000, seed=8)
    assert other.getvalue() != first.getvalue()
    path = tmp_path / "gen.jsonl"
    path.write_text(first.getvalue())
    t = Tally(f"sqlite:///{tmp_path / 'g.db'}")
    t.ok("import", str(path))
    types = {e["type"] for e in t.ok("log", "--json").json}
    assert {"dice.rolled", "income.rolled", "wealth.attempted", "treasure.divided", "boon.gained",
            "god.black_mark", "calendar.advanced", "cash.changed", "ledger.voided"} <= types
    audit = t.ok("audit", "--json").json
    assert audit["ok"] and sum(e["rolls_checked"] for e in audit["epochs"]) > 500


def test_bench_run_small_mode_reports_every_figure():
    figures = run(20_000)
    assert figures["generated"] >= 20_000
    for name, target in figures["targets"].items():
        assert figures[name] > 0 and target["met"] in (True, False), name
    # Nothing lost by the concurrent writers, and the chain still whole.
    assert figures["writers_lost"] == 0 and figures["writers_failed"] == 0 and figures["writers_chain_valid"]
    peer = figures["eventsourcing"]  # installed by the test command, for this side-by-side
    assert set(peer["ratio_ours_to_theirs"]) == {"single_appends_per_s", "batch_appends_per_s",
                                                 "read_back_events_per_s", "rebuild_events_per_s"}
    for side in ("ours", "eventsourcing"):  # a commit writes at least its row's page to the log, and not dozens
        pages = peer[side]["wal_pages_per_single_append"]
        assert pages >= 1 and pages < 12, (side, pages)
    print({k: v for k, v in figures.items() if k != "targets"})


def test_bench_run_refuses_bad_input_in_one_line(tmp_path):
    t = Tally(f"sqlite:///{tmp_path / 'unused.db'}")
    assert "at least 1000" in t.refused("bench", "run", "--events", "10").stderr
    assert "sqlite or postgresql" in t.refused("bench", "run", "--backend", "mysql").stderr
    assert "PostgreSQL URL" in t.refused("bench", "run", "--bench-db", "sqlite:///x.db").stderr
    assert "at least 100 events" in t.refused("bench", "generate", "--events", "5", "--out",
                                              str(tmp_path / "x.jsonl")).stderr


def test_bench_run_on_postgresql_reports_figures_json_can_carry(pg_server):
    import json

    figures = run(2000, backend="postgresql", url=pg_server.new_database(), peer=False, appends=40, queries=3)
    assert figures["backend"] == "postgresql" and figures["database_mb"] > 0
    assert figures["writers_lost"] == 0 and figures["writers_chain_valid"]
    assert json.loads(json.dumps(figures))["import_events_per_s"] > 0
