"""A large file is checked by worker processes, a block each, and linked
here in order: it must import exactly what one pass imports, and refuse a
bad file at the same first line with the same message, wherever the bad
line falls against the blocks."""

import io

import pytest

from ledger import transfer
from ledger.errors import BadInput
from ledger.generator import generate
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
