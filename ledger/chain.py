"""The hash chain: canonical JSON and the SHA-256 rule.

Anyone can re-verify a ledger from its export with this rule alone:

* The hashed fields of an event are ``position, campaign, stream, version,
  type, schema, game_time, recorded_at, session, actor, cause, payload,
  prev_hash`` — every envelope field except ``hash`` itself.
* Canonical JSON is RFC 8785 (the JSON Canonicalization Scheme): an object
  with keys sorted, no white space (separators ``,`` and ``:``), non-ASCII
  characters written as themselves, encoded as UTF-8; ``null`` for absent
  values. The ledger records nothing on which the simple recipe (keys sorted
  by code point, Python's ``json.dumps(..., sort_keys=True,
  separators=(",", ":"), ensure_ascii=False)``) and RFC 8785 disagree: numbers
  are whole and within ±(2^53 − 1) (RFC 8785 writes numbers as IEEE doubles),
  no object has two keys that UTF-16 order (RFC 8785's) sorts otherwise than
  code-point order (only keys outside the Basic Multilingual Plane can), and
  no string holds a lone surrogate. Anything else is refused on append.
* ``hash = hex(SHA-256(canonical JSON of the hashed fields))``, lower case.
* ``prev_hash`` of position 1 is sixty-four zeros; of position n it is the
  ``hash`` of position n-1. The chain runs over the whole database.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Iterable, Mapping, Optional

import msgspec

from ledger.errors import BadInput, ChainBroken

GENESIS = "0" * 64

HASHED_FIELDS = (
    "position", "campaign", "stream", "version", "type", "schema",
    "game_time", "recorded_at", "session", "actor", "cause", "payload",
    "prev_hash",
)


SAFE_INTEGER = 2**53 - 1  # RFC 8785 (I-JSON): beyond this a number has no exact IEEE double


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def check_canonical(value: Any) -> None:
    """Refuse what RFC 8785 would encode otherwise than ``canonical_json``:
    a float, an integer beyond ±(2^53 − 1), an object whose keys UTF-16 order
    sorts otherwise than code-point order, a lone surrogate in a string."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise BadInput(f"the ledger cannot store text with a lone surrogate ({value[:40]!r}): "
                           "give valid Unicode text")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if not -SAFE_INTEGER <= value <= SAFE_INTEGER:
            raise BadInput(f"the ledger stores whole numbers up to ±{SAFE_INTEGER:,} (RFC 8785), not {value}")
    elif isinstance(value, float):
        raise BadInput(f"the ledger stores whole numbers only, not {value!r}")
    elif isinstance(value, dict):
        keys = list(value)
        for key in keys:
            check_canonical(key)
        wide = [key for key in keys if isinstance(key, str) and max(key, default="") > "\uffff"]
        if wide and sorted(keys) != sorted(keys, key=_utf16):
            raise BadInput(f"the ledger cannot store the name {wide[0]!r} beside the others in one record: "
                           "RFC 8785 (UTF-16 order) and code-point order would sort them differently; "
                           "use a name without characters outside the Basic Multilingual Plane (emoji and the like)")
        for item in value.values():
            check_canonical(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            check_canonical(item)


_SURROGATE = re.compile("[\ud800-\udfff]")


def canonical_json(value: Any) -> str:
    """The one JSON encoding that is hashed and stored: RFC 8785's bytes,
    for every value the ledger accepts (check_canonical refuses the rest).

    Values of plain types (``is_plain``) are written by msgspec, in C, keys
    sorted; its text is byte for byte Python's ``json.dumps`` recipe
    (tests/test_canonical_json.py holds it so, property by property). The
    checks that walk is spared are its own: msgspec refuses a lone
    surrogate, ``is_plain`` a float or an integer beyond ±(2^53 − 1), and a
    character outside the BMP — the only kind that can order keys
    differently in UTF-16 — sends the value down the walk."""
    if is_plain(value):
        try:
            data = _ENCODE(value)
        except UnicodeEncodeError:  # a lone surrogate: the walk says so in its words
            check_canonical(value)
            raise
        if data.isascii():  # no character outside the BMP, without searching for one
            return data.decode("ascii")
        text = data.decode("utf-8")
        if not _WIDE.search(text):
            return text
    check_canonical(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_ENCODE = msgspec.json.Encoder(order="sorted").encode
_WIDE = re.compile("[\U00010000-\U0010ffff]")


def is_plain(value: Any) -> bool:
    """Only dicts with string keys, lists, strings, booleans, None and whole
    numbers within ±(2^53 − 1), of exactly those types (a subclass could
    encode otherwise): what ``_ENCODE`` writes as ``json.dumps`` does."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return -SAFE_INTEGER <= value <= SAFE_INTEGER
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                return False
            kind = type(item)
            if kind is str or kind is bool or item is None:
                continue
            if kind is int:
                if not -SAFE_INTEGER <= item <= SAFE_INTEGER:
                    return False
            elif not is_plain(item):
                return False
        return True
    if kind is list:
        return all(is_plain(item) for item in value)
    return False


def event_hash(fields: dict[str, Any]) -> str:
    """SHA-256 over the canonical JSON of an envelope's hashed fields."""
    body = {name: fields[name] for name in HASHED_FIELDS}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


COLUMNS = ("position", "campaign", "stream", "version", "type", "schema", "game_time", "recorded_at",
           "session", "actor", "cause", "payload", "prev_hash", "hash")  # as stored, in the table's order


def stored_hash(fields: Mapping[str, Any]) -> str:
    """The hash of a stored row, its payload kept as the stored canonical
    text: the same bytes ``event_hash`` hashes, without parsing the payload
    and encoding it again (the byte layout is ``row_hash``'s)."""
    return row_hash(tuple(fields.get(name) for name in COLUMNS))


def verify_rows(rows: Iterable[Mapping[str, Any]]) -> tuple[int, str]:
    """Walk stored rows (payload as canonical text) in position order; return
    (count, head hash) or raise ChainBroken naming the first position that fails.

    The hash is taken over the stored payload text as it is, so a payload
    altered in any byte — even only its spacing — no longer matches."""
    return verify_stored(tuple(fields[c] for c in COLUMNS) for fields in rows)


class _Hashed(msgspec.Struct):
    """The hashed fields, declared in code-point order of their names, as
    msgspec writes a struct's fields: its JSON is the canonical JSON of the
    hashed fields, the payload (a ``msgspec.Raw``) as its stored text."""

    actor: Any
    campaign: Any
    cause: Any
    game_time: Any
    payload: msgspec.Raw
    position: Any
    prev_hash: Any
    recorded_at: Any
    schema: Any
    session: Any
    stream: Any
    type: Any
    version: Any


_ENCODE_ROW = msgspec.json.Encoder().encode
_RAW = msgspec.Raw


def row_hash(row: tuple) -> str:
    """The hash of a stored row as a tuple in COLUMNS order, over the bytes of
    canonical JSON: keys in code-point order, the payload as its stored
    canonical text, no mapping built. Each value is written as JSON writes
    its type, so a value stored as another type than it was hashed with (a
    number as text, text as bytes) gives other bytes and fails the check;
    strings are escaped as canonical_json escapes them (prev_hash and
    recorded_at never need it). Written by msgspec, in C: tests/test_chain.py
    holds it to ``event_hash`` byte for byte."""
    return fields_hash(*row[:13])


def fields_hash(position, campaign, stream, version, type_, schema, game_time, recorded_at, session, actor, cause,
                payload: str, prev_hash: str) -> str:
    """``row_hash`` of the row these values make, without the row (the append path's)."""
    return hashlib.sha256(_ENCODE_ROW(_Hashed(actor, campaign, cause, game_time, _RAW(payload), position, prev_hash,
                                              recorded_at, schema, session, stream, type_, version))).hexdigest()


def verify_stored(rows: Iterable[tuple], *, start: int = 1, prev: str = GENESIS,
                  leaves: Optional[bytearray] = None) -> tuple[int, str]:
    """verify_rows over rows as tuples in COLUMNS order (as the store reads them),
    from position ``start`` whose prev_hash must be ``prev``; (count, last hash).
    With ``leaves``, each row's Merkle leaf hash (ledger/merkle.py) is added to it
    as its hash is checked: the tree is checked from the same reading of the rows."""
    expected_position = start
    sha256, hashed, raw, encode = hashlib.sha256, _Hashed, _RAW, _ENCODE_ROW
    for row in rows:
        (position, campaign, stream, version, type_, schema, game_time, recorded_at, session, actor, cause,
         payload, prev_hash, stored) = row
        if position != expected_position:
            raise ChainBroken(expected_position, f"position {expected_position} is missing (found {position})")
        if prev_hash != prev:
            raise ChainBroken(position, "prev_hash does not match the hash of the event before it")
        try:  # row_hash, inlined: a call a row is a tenth of the walk
            digest = sha256(encode(hashed(actor, campaign, cause, game_time, raw(payload), position, prev_hash,
                                          recorded_at, schema, session, stream, type_, version))).digest()
        except (TypeError, ValueError):  # a value no JSON type holds
            digest = None
        if digest is None or digest.hex() != stored:
            raise ChainBroken(position, "stored hash does not match its contents (altered?)")
        prev = stored
        if leaves is not None:
            leaves += sha256(b"\x00" + digest).digest()  # merkle.leaf_hash of the hash just checked
        expected_position += 1
    return expected_position - start, prev


def stored_line(row: tuple) -> str:
    """A stored row (COLUMNS order) as its export line: the canonical JSON of the
    envelope with the payload exactly as stored, never decoded or upcast, so the
    line carries the bytes the hash covers, under the schema they were recorded in.
    (A quote inside a string value is escaped, so the first unescaped
    ``"payload":null`` is the member itself.)"""
    fields = dict(zip(COLUMNS, row))
    stored = fields.pop("payload")
    return canonical_json({**fields, "payload": None}).replace('"payload":null', '"payload":' + stored, 1)
