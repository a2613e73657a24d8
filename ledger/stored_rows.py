"""From a row of the events table (a tuple in its column order) to the
Envelope every reader gets, and UNREAD, the payload of a row read without it."""

from __future__ import annotations

from typing import Sequence

import msgspec

from ledger.envelope import Envelope
from ledger.events.upcasters import CURRENT, upcast


class _Unread(dict):
    """The payload of an event read without it: reading it is a bug, said loudly."""

    def _refuse(self, *_args, **_kwargs):
        raise RuntimeError("this event's payload was not read (payload_if said it is not needed)")

    __getitem__ = get = items = keys = values = __iter__ = __contains__ = __len__ = _refuse


UNREAD = _Unread()


def envelope_from_row(row: Sequence, read_payload: bool = True) -> Envelope:
    """The one place a stored row becomes an envelope, for every reader: its
    payload decoded (unless ``read_payload`` is false: then UNREAD) and lifted
    to its type's current schema by the upcasters. Nearly every row is at the
    current schema already, and costs one look-up more than ``json.loads``."""
    # The table's columns are the envelope's fields, in the same order.
    (position, campaign, stream, version, type_, schema, game_time, recorded_at, session, actor, cause,
     payload, prev_hash, hash_) = row
    body = _decode(payload) if read_payload else UNREAD
    current = CURRENT.get(type_, 1)  # a look-up, not a call: this runs for every row read
    if schema == current:
        return Envelope(position, campaign, stream, version, type_, schema, game_time, recorded_at, session,
                        actor, cause, body, prev_hash, hash_)
    # An unread payload stays unread; a schema newer than this tally knows is refused either way.
    body = upcast(type_, schema, body) if read_payload or schema > current else UNREAD
    return Envelope(position, campaign, stream, version, type_, current, game_time, recorded_at, session,
                    actor, cause, body, prev_hash, hash_, schema)


_decode = msgspec.json.Decoder().decode  # a stored payload is canonical JSON: plain dicts, lists, str, int
