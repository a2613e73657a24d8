"""verify splits a long log into stretches checked side by side; it must
answer exactly as one pass does — the same count and head, and the same
first broken position wherever the break is."""

from contextlib import closing

import pytest

from ledger import verification
from ledger.chain import verify_stored
from ledger.errors import ChainBroken
from ledger.store import Store
from tests.conftest import generated, tamper


@pytest.fixture
def long_log(tmp_path, monkeypatch):
    url = generated(tmp_path, events=3000, seed=2)
    monkeypatch.setattr(verification, "PARALLEL_FROM", 100)  # split even this short log
    return url


def one_pass(url):
    store = Store(url)
    try:
        with store.reading() as tx, closing(tx.raw_rows()) as rows:
            return verify_stored(rows)
    finally:
        store.dispose()


def test_stretches_side_by_side_give_what_one_pass_gives(long_log):
    store = Store(long_log)
    for workers in (2, 3, 4):
        assert verification.verify_database(store, workers=workers) == one_pass(long_log)
    store.dispose()


@pytest.mark.parametrize("position", [2, 999, 1000, 1001, 1500, 2999])
def test_a_break_in_any_stretch_is_reported_at_its_first_position(long_log, position):
    tamper(long_log, f"UPDATE events SET actor = 'mallory' WHERE position = {position}")
    store = Store(long_log)
    with pytest.raises(ChainBroken) as single:
        one_pass(long_log)
    with pytest.raises(ChainBroken) as split:
        verification.verify_database(store, workers=3)
    assert split.value.position == single.value.position == position
    store.dispose()


def test_a_missing_event_at_a_stretch_boundary_is_found(long_log):
    tamper(long_log, "DELETE FROM events WHERE position = 1001")
    store = Store(long_log)
    with pytest.raises(ChainBroken, match="position 1001 is missing"):
        verification.verify_database(store, workers=3)
    store.dispose()
