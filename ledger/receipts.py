"""Receipts of snapshots that `tally verify` folded: so that the next verify
folds only the tiles written since (projections/verification.py says what a
receipt does and does not prove).

A receipt names a snapshot row by its campaign, its position and its digest
column, which is the row's own MAC (ledger/snapshot_mac.py) over its place in
the tiling, the hash of the event it is bound to, its blobs and its state: a
row changed in any of those no longer matches the receipt it had. The
receipts are one row of the ``kept_heads`` table under a key no campaign can
have (a campaign's name starts with a letter or digit), so they need no
table of their own; they are derived data like the kept histories, and go
with them (`tally db snapshot --drop`). The row carries a MAC under the
ledger's derived-data key (ledger/kept_rows.py's, with a label of its own),
stamped with the read models' shape: a receipt made for read models of
another shape is never believed, nor one someone wrote without the key.
"""

from __future__ import annotations

import hmac
import zlib
from typing import Optional

import msgspec
import sqlalchemy as sa

from ledger.kept_rows import _tag
from ledger.schema import kept_heads

ROW = "#receipts"  # the kept_heads row they live in: not a campaign's name
FORMAT = "receipts-1"
_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(tuple[str, dict[str, dict[int, str]]])

Receipts = dict  # campaign -> {position: the snapshot row's digest when its fold agreed}


def read(tx, key: bytes, shape: str) -> Receipts:
    """The receipts kept, or none if there are none, their MAC fails, or they were made for
    read models of another ``shape``."""
    row = tx.conn.execute(sa.select(kept_heads.c.position, kept_heads.c.data, kept_heads.c.mac)
                          .where(kept_heads.c.campaign == ROW)).first()
    if row is None or not hmac.compare_digest(bytes(row.mac), _tag(key, "receipts", ROW, row.position,
                                                                     data=bytes(row.data))):
        return {}
    try:
        stamp, receipts = _DECODER.decode(zlib.decompress(bytes(row.data)))
    except (zlib.error, msgspec.DecodeError):
        return {}
    return receipts if stamp == f"{FORMAT}:{shape}" else {}


def write(tx, key: bytes, shape: str, head: int, receipts: Receipts) -> None:
    """Replace the receipts kept with ``receipts`` (checked against the log of ``head`` events)."""
    data = zlib.compress(_ENCODER.encode((f"{FORMAT}:{shape}", receipts)), 1)
    tx.conn.execute(kept_heads.delete().where(kept_heads.c.campaign == ROW))
    tx.conn.execute(kept_heads.insert(), {"campaign": ROW, "position": head, "data": data,
                                          "mac": _tag(key, "receipts", ROW, head, data=data)})


def key_for(tx) -> Optional[bytes]:
    """The derived-data key where it can be read here, else None (no receipts used or made)."""
    from ledger.errors import SnapshotUnusable, StoreError

    try:
        return tx.snapshot_key()
    except (SnapshotUnusable, StoreError):
        return None
