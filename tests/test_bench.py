"""The benchmark's small mode as a smoke test (figures are printed, never asserted
against time), and the generator's promises: valid, chained, deterministic."""

import io

from ledger.benchmark import TARGETS, run
from ledger.generator import generate
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
    for name in TARGETS:
        assert figures[name] > 0, name
    print({k: v for k, v in figures.items() if k != "targets"})
