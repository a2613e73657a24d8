"""Import links a whole block of checked lines at once when it follows on
(commands/transfer.py _linked) and line by line only where it does not: a
break in the chain, time running backwards, or lines the database already
holds must still be named at their own line, wherever they fall against
the blocks, in one process and with workers alike."""

from __future__ import annotations

import hashlib
import io
import json

import pytest

from bench.generator import generate
from commands import transfer
from ledger.errors import BadInput
from ledger.store import Store


def _text(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chained(events: list[dict]) -> str:
    """The events as an export, every hash and link made right for what they hold."""
    out, prev = [], "0" * 64
    for event in events:
        body = {k: v for k, v in event.items() if k != "hash"}
        body["prev_hash"] = event.get("_prev", prev)
        body.pop("_prev", None)
        digest = hashlib.sha256(_text(body).encode()).hexdigest()
        out.append(_text({**body, "hash": digest}) + "\n")
        prev = digest
    return "".join(out)


@pytest.fixture(scope="module")
def events() -> list[dict]:
    buffer = io.StringIO()
    generate(buffer, events=1200, seed=11)
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(transfer, "_BLOCK", 20_000)  # a block is some thirty lines


def refusals(tmp_path, text: str, before: str = "") -> list[str]:
    """The refusal of importing ``text`` (after ``before``, if any) in one process and with
    two workers; each time nothing of ``text`` is kept."""
    path = tmp_path / "log.jsonl"
    messages = []
    for workers in (0, 2):
        store = Store(f"sqlite:///{tmp_path / f'w{workers}.db'}")
        if before:
            (tmp_path / "before.jsonl").write_text(before)
            transfer.import_file(store, str(tmp_path / "before.jsonl"), snapshots=False, workers=0)
        with store.reading() as tx:
            held = tx.head()[0]
        path.write_text(text)
        with pytest.raises(BadInput) as refused:
            transfer.import_file(store, str(path), snapshots=False, workers=workers)
        with store.reading() as tx:
            assert tx.head()[0] == held
        store.dispose()
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    return messages


def test_a_chain_that_follows_on_is_imported_whole_by_blocks(tmp_path, events):
    (tmp_path / "log.jsonl").write_text(chained(events))
    rows = []
    for workers in (0, 2):
        store = Store(f"sqlite:///{tmp_path / f'w{workers}.db'}")
        result = transfer.import_file(store, str(tmp_path / "log.jsonl"), snapshots=False, workers=workers)
        assert (result.lines, result.added, result.already) == (len(events), len(events), 0)
        with store.reading() as tx:
            rows.append([tuple(r) for r in tx.raw_rows()])
        store.dispose()
    assert rows[0] == rows[1] and len(rows[0]) == len(events)


@pytest.mark.parametrize("line", [2, 31, 32, 33, 600, 1200])
def test_a_line_that_does_not_follow_is_named(tmp_path, events, line):
    altered = [dict(e) for e in events]
    altered[line - 1]["_prev"] = "ab" * 32  # hashed over its own wrong link: sound on its own
    message = refusals(tmp_path, chained(altered))[0]
    assert message.startswith(f"line {line}: does not follow the line before it")


@pytest.mark.parametrize("line", [2, 31, 32, 600, 1200])
def test_time_running_backwards_is_named_at_its_line(tmp_path, events, line):
    altered = [dict(e) for e in events]
    altered[line - 1]["recorded_at"] = "2000-01-01T00:00:00.000000Z"
    message = refusals(tmp_path, chained(altered))[0]
    assert f"line {line}: recorded_at runs backwards (2000-01-01T00:00:00.000000Z after" in message


def test_a_file_that_goes_on_from_the_database_adds_only_its_new_lines(tmp_path, events):
    whole = chained(events)
    lines = whole.splitlines(keepends=True)
    for workers in (0, 2):
        store = Store(f"sqlite:///{tmp_path / f'w{workers}.db'}")
        (tmp_path / "start.jsonl").write_text("".join(lines[:700]))
        transfer.import_file(store, str(tmp_path / "start.jsonl"), snapshots=False, workers=0)
        (tmp_path / "all.jsonl").write_text(whole)
        result = transfer.import_file(store, str(tmp_path / "all.jsonl"), snapshots=False, workers=workers)
        assert (result.lines, result.added, result.already) == (len(events), len(events) - 700, 700)
        with store.reading() as tx:
            assert tx.head()[0] == len(events)
        store.dispose()


def test_a_file_from_another_ledger_is_named_where_it_parts(tmp_path, events):
    other = [dict(e) for e in events]
    other[499]["actor"] = "someone else"  # the same log up to line 499, another from line 500
    message = refusals(tmp_path, chained(other), before="".join(chained(events).splitlines(keepends=True)[:700]))[0]
    assert "line 500: this database holds a different event at position 500" in message


def test_rows_a_worker_cannot_pack_come_back_pickled(tmp_path, events, monkeypatch):
    def cannot(rows):
        raise ValueError("not packable")

    monkeypatch.setattr(transfer, "_PACK", cannot)  # the forked workers inherit it
    (tmp_path / "log.jsonl").write_text(chained(events))
    store = Store(f"sqlite:///{tmp_path / 'pickled.db'}")
    result = transfer.import_file(store, str(tmp_path / "log.jsonl"), snapshots=False, workers=2)
    assert result.added == len(events)
    store.dispose()
