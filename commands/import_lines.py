"""An exported line read the quick way: one strict msgspec decode of the
envelope, one of the payload against its event type's Struct
(ledger/events/strict.py), one re-encoding to see the line is canonical, one
hash. A line as tally exports it passes all of them; any other line — a
refusal, or a line only the careful path can accept (reformatted by hand,
an older schema, a type without a Struct, text outside the Basic
Multilingual Plane) — gets None here, and transfer._read_line decides it
and words its refusal as before. So the quick path only ever accepts what
the careful one accepts, with the same row (tests/test_import_fast.py).
"""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, Callable, Optional

import msgspec

from ledger.calendar import MAX_DAY, MIN_DAY
from ledger.chain import SAFE_INTEGER
from ledger.events import strict

_INT32 = 2**31 - 1
# What can make a line's canonical JSON differ from RFC 8785's (chain.check_canonical) beyond
# what is_plain sees (a number past 2^53): an escaped surrogate, a character outside the BMP
# (its UTF-8 lead byte). Searched in the line's bytes.
MAYBE_NOT_RFC8785 = re.compile(rb"\\u[dD][89a-fA-F]|[\xf0-\xf4]")
# Only lengths here: a pattern in a Meta costs a Python call each; quick_row checks the digits.
_HEX64 = Annotated[str, msgspec.Meta(min_length=64, max_length=64)]
_NAME = Annotated[str, msgspec.Meta(min_length=1)]
_COUNT32 = Annotated[int, msgspec.Meta(ge=1, le=_INT32)]


class _Envelope(msgspec.Struct, forbid_unknown_fields=True):
    """An exported line's fields, in code-point order of their names (the
    canonical order, in which msgspec writes a Struct's fields), each typed
    and bounded as transfer._check_types requires."""

    actor: _NAME
    campaign: _NAME
    cause: Optional[Annotated[int, msgspec.Meta(ge=1, le=SAFE_INTEGER)]]
    game_time: Annotated[int, msgspec.Meta(ge=MIN_DAY, le=MAX_DAY)]
    hash: _HEX64
    payload: msgspec.Raw
    position: Annotated[int, msgspec.Meta(ge=1, le=SAFE_INTEGER)]
    prev_hash: _HEX64
    recorded_at: Annotated[str, msgspec.Meta(min_length=27, max_length=27)]
    schema: _COUNT32
    session: Optional[_COUNT32]
    stream: _NAME
    type: _NAME
    version: _COUNT32


_ENVELOPE = msgspec.json.Decoder(_Envelope).decode
_ENCODE_SORTED = msgspec.json.Encoder(order="sorted").encode  # a payload: keys sorted at every level
_DECODERS: dict[str, tuple[Optional[int], Optional[Callable]]] = {}  # a type's schema and strict decode
_WIDE_LEAD, _SURROGATE_ESCAPE = re.compile(rb"[\xf0-\xf4]"), re.compile(rb"\\u[dD][89a-fA-F]")
_INSTANT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z")
_QUICK = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


def _decoder(type_name: str) -> tuple[Optional[int], Optional[Callable]]:
    schema, decoder = strict.current(type_name)
    _DECODERS[type_name] = found = (schema, decoder.decode if decoder is not None else None)
    return found


def quick_row(line: bytes, number: int) -> Optional[tuple]:
    """The row (a tuple in chain.COLUMNS order, the payload as its canonical
    text) of a line as tally exports it at ``number``, or None: then the
    careful path decides."""
    if (not line.isascii() and _WIDE_LEAD.search(line)) or (b"\\u" in line and _SURROGATE_ESCAPE.search(line)):
        return None  # what only check_canonical's walk can judge (MAYBE_NOT_RFC8785, a pattern at a time)
    # No depth count: the Structs nest a few levels at most, and msgspec refuses
    # (RecursionError) a payload nested past Python's limit, which it skips as raw.
    try:
        envelope = _ENVELOPE(line)
        schema, decode = _DECODERS.get(envelope.type) or _decoder(envelope.type)
        if decode is None or envelope.schema != schema:
            return None
        raw = bytes(envelope.payload)
        envelope.payload = decode(raw)
    except _QUICK:
        return None
    body = line.rstrip(b"\r\n")
    # Canonical: the line is the envelope written again with its payload as decoded (keys sorted at
    # every level). Then the hashed body is the line without its hash member.
    if envelope.position != number or _ENCODE_SORTED(envelope) != body:
        return None  # out of place (the careful path says so), or not canonical: re-encoded there
    if envelope.prev_hash.strip("0123456789abcdef") or not _INSTANT.fullmatch(envelope.recorded_at):
        return None  # (the hash's own digits are the SHA-256's, below)
    hash_ = envelope.hash
    if hashlib.sha256(body.replace(b',"hash":"' + hash_.encode() + b'"', b"", 1)).hexdigest() != hash_:
        return None
    return (envelope.position, envelope.campaign, envelope.stream, envelope.version, envelope.type,
            envelope.schema, envelope.game_time, envelope.recorded_at, envelope.session, envelope.actor,
            envelope.cause, raw.decode("utf-8"), envelope.prev_hash, hash_)
