"""A large file is checked by worker processes, a block each, and linked
here in order: it must import exactly what one pass imports, and refuse a
bad file at the same first line with the same message, wherever the bad
line falls against the blocks."""

import io

import pytest

from commands import transfer
from ledger.errors import BadInput
from bench.generator import generate
from ledger.store import Store


@pytest.fixture
def exported(tmp_path, monkeypatch):
    monkeypatch.setattr(transfer, "_BLOCK", 20_000)  # many blocks, even for a short file
    buffer = io.StringIO()
    generate(buffer, events=1500, seed=5)
    path = tmp_path / "log.jsonl"
    path.write_text(buffer.getvalue())
    return path


def imported(tmp_path, path, workers, name):
    store = Store(f"sqlite:///{tmp_path / name}")
    try:
        result = transfer.import_file(store, str(path), snapshots=False, workers=workers)
        with store.reading() as tx:
            return result.added, [tuple(r) for r in tx.raw_rows()]
    finally:
        store.dispose()


def test_workers_import_what_one_pass_imports(tmp_path, exported):
    one = imported(tmp_path, exported, 0, "one.db")
    assert one[0] >= 1500
    assert imported(tmp_path, exported, 2, "two.db") == one


@pytest.mark.parametrize("line", [1, 100, 101, 750, 1500])
@pytest.mark.parametrize("damage", ["hash", "link"])
def test_a_bad_line_is_reported_as_one_pass_reports_it(tmp_path, exported, line, damage):
    lines = exported.read_text().splitlines(keepends=True)
    if damage == "hash":
        lines[line - 1] = lines[line - 1].replace('"actor":"referee"', '"actor":"mallory"')
    else:  # a line dropped: the next one no longer follows
        del lines[line - 1]
    exported.write_text("".join(lines))
    messages = []
    for workers, name in ((0, "one.db"), (2, "two.db")):
        store = Store(f"sqlite:///{tmp_path / name}")
        with pytest.raises(BadInput) as refused:
            transfer.import_file(store, str(exported), snapshots=False, workers=workers)
        with store.reading() as tx:
            assert tx.head()[0] == 0  # nothing imported
        store.dispose()
        messages.append(str(refused.value))
    assert messages[0] == messages[1] and f"line {line}" in messages[0]


def _indexes(store) -> set[str]:
    import sqlalchemy as sa

    with store.reading() as tx:
        return {index["name"] for index in sa.inspect(tx.conn).get_indexes("events")}


def test_a_bulk_load_into_an_empty_ledger_builds_its_indexes_after_the_rows(db_url, tmp_path, monkeypatch):
    # On SQLite, dropped at the start of the import's transaction and built once at its end:
    # afterwards the schema is the migration's, and a refused load leaves them in place. (On
    # PostgreSQL they stay throughout; the same load and refusal hold there too.)
    monkeypatch.setattr(transfer, "_REINDEX_FROM", 1)
    later = {index.name for index in transfer._LATER_INDEXES}
    assert later == {"ix_events_campaign_game_time", "ix_events_type_campaign"}
    buffer = io.StringIO()
    generate(buffer, events=1500, seed=6)
    lines = buffer.getvalue().splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines[:1400]) + lines[1400].replace('"actor":"referee"', '"actor":"someone"')
                   + "".join(lines[1401:]))
    store = Store(db_url)
    with pytest.raises(BadInput, match="line 1401: the hash does not match"):
        transfer.import_file(store, str(bad), snapshots=False, workers=0)
    assert later <= _indexes(store)
    with store.reading() as tx:
        assert tx.head()[0] == 0
    good = tmp_path / "good.jsonl"
    good.write_text("".join(lines))
    result = transfer.import_file(store, str(good), snapshots=False, workers=0)
    assert result.added == len(lines) and later <= _indexes(store)
    from projections.verification import verify_database

    assert verify_database(store).events == len(lines)
    store.dispose()
