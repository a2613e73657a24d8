"""Export and import of the whole log as JSON Lines, hashes included.

Import re-verifies every line before anything is kept: its fields, its
payload against the event registry, its hash and its link to the line
before, and that transaction time never runs backwards. The file must be a
full log from position 1; lines the database already holds must match it
exactly (importing twice is a no-op), and only the lines beyond the
database's head are appended. All or nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import deque
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing import get_all_start_methods, get_context
from typing import Any, Iterator, Optional

import msgspec

from ledger.calendar import MAX_DAY, MIN_DAY
from ledger.chain import (COLUMNS, GENESIS, HASHED_FIELDS, SAFE_INTEGER, canonical_json, check_canonical, is_plain,
                          stored_hash, stored_line)
from ledger.errors import BadInput, TallyError
from ledger.events.registry import decode
from ledger.files import open_regular, writing
from ledger.forks import die_with_parent
from commands.import_lines import MAYBE_NOT_RFC8785 as _MAYBE_NOT_RFC8785, quick_row
from commands.imports.json_input import MAX_DEPTH, measure
from ledger.schema import events
from ledger.store import Store

_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z", re.ASCII)  # ASCII: \d alone is any script's digit
_HEX64 = re.compile(r"[0-9a-f]{64}")
_INTS = ("position", "version", "schema", "game_time")
_OPTIONAL_INTS = ("session", "cause")
_STRINGS = ("campaign", "stream", "type", "actor")
_BATCH = 1000
_BLOCK = 2**20  # bytes of whole lines checked at a time
_PARALLEL_FROM = 16 * 2**20  # bytes: a smaller file is checked in this process
_CHECKPOINT_FROM = 10_000  # events imported at once
_REINDEX_FROM = 2**20  # bytes: a file this large loaded into an empty ledger builds its indexes after the rows
_LATER_INDEXES = tuple(index for index in events.indexes if not index.unique)  # the read paths' indexes
_LINE_LIMIT = 16 * 2**20  # bytes: an event is far smaller; a longer line is refused, never read whole
_INT32 = 2**31 - 1  # the columns' own range
# Each whole number's range: the database's columns hold no more, and game time is a day the ledger keeps.
_RANGES = {"position": (1, SAFE_INTEGER), "version": (1, _INT32), "schema": (1, _INT32),
           "game_time": (MIN_DAY, MAX_DAY), "session": (1, _INT32), "cause": (1, SAFE_INTEGER)}


@dataclass
class ImportResult:
    lines: int = 0
    added: int = 0
    already: int = 0
    secrets_missing: list[str] = field(default_factory=list)


def export(store: Store, path: str, *, force: bool = False) -> int:
    """Write the whole log to ``path``, all of it or nothing (see ledger.files)."""
    count = 0
    with writing(path, force=force, ledger=store.url) as out, store.reading() as tx, closing(tx.raw_rows()) as rows:
        for row in rows:
            out.write(stored_line(row) + "\n")
            count += 1
    return count


def import_file(store: Store, path: str, *, snapshots: bool = True, workers: Optional[int] = None) -> ImportResult:
    """Verify and append the file's new events (all or nothing), then, as
    derived data in a second transaction, snapshot the campaigns through
    their history so the first query after a large import is as quick as any.

    Each line is checked on its own (JSON, fields, payload, hash) — in worker
    processes, one a core, for a large file — and the chain is linked here,
    line by line in order, so the first bad line is the one reported."""
    handle = open_regular(path, "the export")  # never a pipe or a device: either could hold the import up
    size = os.fstat(handle.fileno()).st_size
    workers = workers if workers is not None else (os.cpu_count() or 1) if size >= _PARALLEL_FROM else 0
    result = ImportResult()
    with handle, _checked_lines(handle, path, workers) as blocks, store.transaction() as tx:
        head, _, _ = tx.head()
        # A bulk load into an empty SQLite ledger builds the secondary indexes once, after
        # the rows, rather than row by row (the primary key and the stream-version constraint
        # stay, and so do their checks); in the same transaction, so a refusal restores them.
        # Not on PostgreSQL: dropping an index needs the table's owner, and would lock
        # every reader out of the table until the load commits.
        deferred = _LATER_INDEXES if (head == 0 and size >= _REINDEX_FROM
                                      and tx.conn.dialect.name == "sqlite") else ()
        for index in deferred:
            index.drop(tx.conn)
        prev_hash, last_recorded, batch = GENESIS, "", []
        for first, block, error in blocks:  # rows as tuples in COLUMNS order, then the block's refusal
            if block and block[0][0] > head and _linked(block, prev_hash, last_recorded):
                # The whole block follows on and is new (what nearly every block of a load is):
                # checked in a few passes in C, not a row at a time.
                prev_hash, last_recorded = block[-1][13], block[-1][7]
                result.lines += len(block)
                batch += block
            else:  # line by line, so that the first line at fault is the one named
                for number, row in enumerate(block, first):
                    position, recorded_at, prev, hash_ = row[0], row[7], row[12], row[13]
                    if prev != prev_hash:
                        raise BadInput(f"line {number}: does not follow the line before it (reordered or cut?); "
                                       "nothing imported")
                    prev_hash = hash_
                    if recorded_at < last_recorded:
                        raise BadInput(f"{path} line {number}: recorded_at runs backwards ({recorded_at} after "
                                       f"{last_recorded}); a ledger's transaction time never does: nothing imported")
                    last_recorded = recorded_at
                    result.lines += 1
                    if position <= head:
                        held = tx.get(position)
                        if held is None or held.hash != hash_:
                            raise BadInput(
                                f"{path} line {number}: this database holds a different event at position "
                                f"{position}; the file comes from another ledger (import it into a new database)"
                            )
                        result.already += 1
                        continue
                    batch.append(row)
            if len(batch) >= _BATCH:
                tx.insert_tuples(batch)
                result.added += len(batch)
                batch = []
            if error is not None:
                raise BadInput(error)
        tx.insert_tuples(batch)
        result.added += len(batch)
        for index in deferred:
            index.create(tx.conn)
        result.secrets_missing = _unrevealed_without_secret(tx)
    if result.added >= _CHECKPOINT_FROM:
        store.checkpoint()
    if snapshots and result.added:
        build_all_snapshots(store)
    return result


@contextmanager
def _checked_lines(handle, path: str, workers: int) -> Iterator[Iterator[tuple[int, list[tuple], Optional[str]]]]:
    """(first line number, checked rows, refusal) for each block of lines, in order: a block's
    rows are those before its first line that fails its own checks, and the refusal is that
    line's (else None; the caller stops at it). With workers, blocks of the file are checked
    side by side, a bounded number ahead of the one being linked.

    A worker is told only where its block lies and reads it itself, so every
    message to it is tiny; and the pool is closed and joined, never
    terminated: after a refusal the few blocks in flight are finished and
    thrown away (terminating a pool while a large task is half written to a
    worker's pipe can leave it waiting for ever)."""
    if workers < 2 or "fork" not in get_all_start_methods():  # one process where fork is not offered
        yield (_check_block(path, *block) for block in _blocks(handle))
        return
    blocks = _blocks(handle)
    pool = get_context("fork").Pool(workers, initializer=die_with_parent, initargs=(os.getpid(),))
    try:
        pending = deque(pool.apply_async(_check_block_packed, (path, *block))
                        for block in islice(blocks, 2 * workers))

        def results():
            while pending:
                first, packed, error = pending.popleft().get()
                following = next(blocks, None)
                if following is not None:
                    pending.append(pool.apply_async(_check_block_packed, (path, *following)))
                yield first, _UNPACK(packed) if isinstance(packed, bytes) else packed, error

        yield results()
    finally:
        pool.close()
        pool.join()


def _blocks(handle) -> Iterator[tuple[int, int, int]]:
    """(first line number, byte offset, byte length) of blocks of whole lines.
    A line longer than _LINE_LIMIT ends the blocks: read no further, its check refuses it."""
    number, offset = 1, 0
    while data := handle.read(_BLOCK):
        if not data.endswith(b"\n"):
            data += handle.readline(_LINE_LIMIT + 1)  # finish the last line
        lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        yield number, offset, len(data)
        end = len(data) - data.endswith(b"\n")
        if end - (data.rfind(b"\n", 0, end) + 1) > _LINE_LIMIT:
            return
        number, offset = number + lines, offset + len(data)


def _check_block(path: str, first: int, offset: int, length: int) -> tuple[int, list[tuple], Optional[str]]:
    with open_regular(path, "the export") as handle:
        handle.seek(offset)
        data = handle.read(length)
    lines = data.split(b"\n")  # as iterating the file splits: at newlines only
    if lines[-1] == b"":
        lines.pop()
    return _check_chunk(first, lines)


def _check_block_packed(path: str, first: int, offset: int, length: int) -> tuple[int, bytes, Optional[str]]:
    """_check_block's rows packed as MessagePack for the way back: a pool pickles what a worker
    returns, and pickling the rows cost a worker a fifth of its time; msgspec packs them in C."""
    first, rows, error = _check_block(path, first, offset, length)
    try:
        return first, _PACK(rows), error
    except (TypeError, ValueError, OverflowError):  # nothing a checked row holds; pickled if it ever did
        return first, rows, error


_PACK = msgspec.msgpack.Encoder().encode
_UNPACK = msgspec.msgpack.Decoder(list[tuple]).decode


def _check_chunk(first: int, lines: list[bytes]) -> tuple[int, list[tuple], Optional[str]]:
    rows = []
    for number, line in enumerate(lines, first):
        try:
            if len(line) > _LINE_LIMIT:
                raise BadInput(f"line {number}: longer than {_LINE_LIMIT // 2**20} MiB, which no exported event is; "
                               "nothing imported")
            row = quick_row(line, number)  # a line as tally exports it; None: the careful way decides
            if row is None:
                row = _read_line(line, number)
                row = tuple(row[c] for c in COLUMNS)
            rows.append(row)
        except BadInput as exc:
            return first, rows, str(exc)
    return first, rows, None


def _linked(block: list[tuple], prev_hash: str, last_recorded: str) -> bool:
    """Whether each row of ``block`` links to the one before (the first to ``prev_hash``)
    and none is recorded before the one before it (the first not before ``last_recorded``)."""
    times = [row[7] for row in block]
    return (last_recorded <= times[0] and times == sorted(times) and block[0][12] == prev_hash
            and [row[12] for row in block[1:]] == [row[13] for row in block[:-1]])


def build_all_snapshots(store: Store) -> int:
    """After an import: the snapshots through each campaign's history, and its kept histories
    (commands/derived.py), so the first query and the first page after it are as quick as any."""
    from commands.derived import build_all

    return sum(len(taken) for taken in build_all(store).values())


def _no_floats(text: str):
    raise ValueError(f"the ledger stores whole numbers only, not {text}")


def _read_line(line: bytes, number: int) -> dict[str, Any]:
    """A line checked on its own, as the row to store (payload as its canonical
    text); its link to the line before is checked by the caller."""
    where = f"line {number}"
    try:  # msgspec, in C; anything it will not read goes the way that says why
        data = _DECODE(line)
        text = line.decode("utf-8").rstrip("\r\n")
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError):
        data, text = _read_json(line, where)
    if line.count(b"[") + line.count(b"{") > MAX_DEPTH:  # only then can it be nested deeper
        try:
            measure(data)
        except ValueError as exc:
            raise BadInput(f"{where}: {exc}, which no exported event is; nothing imported") from None
    if not isinstance(data, dict):
        raise BadInput(f"{where}: not an event object")
    if not is_plain(data) or _MAYBE_NOT_RFC8785.search(line):  # only then is the walk worth its cost
        try:
            check_canonical(data)
        except BadInput as exc:
            raise BadInput(f"{where}: {exc}; nothing imported") from None
    missing = [f for f in (*HASHED_FIELDS, "hash") if f not in data]
    if missing or len(data) != len(HASHED_FIELDS) + 1:
        extra = sorted(set(data) - set(HASHED_FIELDS) - {"hash"})
        raise BadInput(f"{where}: {'missing field ' + missing[0] if missing else 'unknown field ' + extra[0]}")
    _check_types(data, where)
    try:
        decode(data["type"], data["schema"], data["payload"])
    except TallyError as exc:
        raise BadInput(f"{where}: {exc}") from None
    if _CANONICAL(data) == line.rstrip(b"\r\n"):
        # As tally exports it: the line is the canonical JSON of the envelope, so the
        # hashed body is the line without its hash member, and the payload text is
        # already canonical. No second encoding. (Every value here is of a type
        # canonical_json writes with msgspec too: tests/test_canonical_json.py.)
        body = text.replace(f',"hash":"{data["hash"]}"', "", 1)
        matches = hashlib.sha256(body.encode("utf-8")).hexdigest() == data["hash"]
        payload_text = text[text.index(',"payload":') + 11:text.rindex(',"position":')]
    else:  # reformatted by hand or by another tool: re-encode, then hash
        payload_text = canonical_json(data["payload"])
        matches = stored_hash({**data, "payload": payload_text}) == data["hash"]
    if not matches:
        raise BadInput(f"{where}: the hash does not match the event's contents (altered?); nothing imported")
    if data["position"] != number:
        raise BadInput(
            f"{where}: holds position {data['position']}, expected {number} "
            "(the file must be a full log in order); nothing imported"
        )
    data["payload"] = payload_text
    return data


def _read_json(line: bytes, where: str) -> tuple[Any, str]:
    """A line msgspec would not read, read by Python's json to say what is wrong
    with it in the ledger's words (or to read what msgspec refuses and json
    reads: an escaped lone surrogate, which check_canonical then refuses)."""
    try:
        text = line.decode("utf-8").rstrip("\r\n")
        return json.loads(text, parse_float=_no_floats, parse_constant=_no_floats), text
    except UnicodeDecodeError:
        raise BadInput(f"{where}: not UTF-8 text") from None
    except RecursionError:
        raise BadInput(f"{where}: nested more than {MAX_DEPTH} deep, which no exported event is; nothing imported") from None
    except ValueError as exc:
        detail = str(exc) if "whole numbers" in str(exc) else "not valid JSON (each line must be one exported event)"
        raise BadInput(f"{where}: {detail}") from None

_CANONICAL = msgspec.json.Encoder(order="sorted").encode
_DECODE = msgspec.json.Decoder(float_hook=_no_floats).decode


def _check_types(data: dict[str, Any], where: str) -> None:
    for name in _INTS:
        if type(data[name]) is not int:
            raise BadInput(f"{where}: {name} must be a whole number")
    for name in _OPTIONAL_INTS:
        if data[name] is not None and type(data[name]) is not int:
            raise BadInput(f"{where}: {name} must be a whole number or null")
    for name, (low, high) in _RANGES.items():
        if data[name] is not None and not low <= data[name] <= high:
            raise BadInput(f"{where}: {name} {data[name]} is outside what a ledger holds ({low:,} to {high:,}); "
                           "nothing imported")
    for name in _STRINGS:
        if not isinstance(data[name], str) or not data[name]:
            raise BadInput(f"{where}: {name} must be a non-empty string")
    if not isinstance(data["payload"], dict):
        raise BadInput(f"{where}: payload must be an object")
    if not isinstance(data["recorded_at"], str) or not _INSTANT.fullmatch(data["recorded_at"]):
        raise BadInput(f"{where}: recorded_at must look like 2026-11-23T20:15:00.000000Z")
    for name in ("prev_hash", "hash"):
        if not isinstance(data[name], str) or not _HEX64.fullmatch(data[name]):
            raise BadInput(f"{where}: {name} must be 64 lower-case hex digits")


def _unrevealed_without_secret(tx) -> list[str]:
    from ledger.dice.derivation import commitment
    from projections.replay import current_epoch_state
    from ledger.secrets import DICE_SEED

    missing = []
    for name in tx.campaigns():
        current = current_epoch_state(tx, name, tx.head()[0]).current
        if current is None:
            continue
        seed = tx.secret(DICE_SEED, name, current.commitment)  # kept by its commitment
        try:
            kept = seed is not None and commitment(seed) == current.commitment
        except ValueError:  # not hex: not a seed
            kept = False
        if not kept:
            missing.append(f"{name} epoch {current.number}")
    return missing
