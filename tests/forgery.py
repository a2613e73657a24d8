"""Snapshot rows written by hand, as a forger would: with a plain digest
recomputed (what anyone who can write the database can do), with a MAC
copied or made under another key, or sealed with the ledger's own key (a
holder of its secrets: only a fold of the log tells that one from the truth)."""

from __future__ import annotations

import hashlib
import json
from typing import Optional, Sequence

import sqlalchemy as sa

from ledger import snapshot_mac
from ledger.chain import canonical_json


def plain_digest(campaign: str, position: int, *, since: int, min_game_time: Optional[int], max_game_time: int,
                 event_hash: str, blobs: Sequence[str], state: bytes) -> str:
    """The digest a snapshot row carried before the MAC: SHA-256 over the row, no key."""
    header = canonical_json([campaign, position, since, min_game_time, max_game_time, event_hash, list(blobs)])
    return hashlib.sha256(b"tally-snapshot-1\n" + header.encode() + b"\n" + state).hexdigest()


def seal_row(tx, campaign: str, position: int, key: Optional[bytes] = None) -> str:
    """Recompute the MAC of the stored row at (campaign, position) with ``key``
    (default: the ledger's own), store it, and return it."""
    row = tx.conn.execute(sa.text("SELECT * FROM snapshots WHERE campaign = :c AND position = :p"),
                          {"c": campaign, "p": position}).one()
    digest = snapshot_mac.seal(key or tx.snapshot_key(), campaign, position, since=row.since,
                               min_game_time=row.min_game_time, max_game_time=row.max_game_time,
                               event_hash=row.event_hash, blobs=json.loads(row.blobs), state=row.state)
    tx.conn.execute(sa.text("UPDATE snapshots SET digest = :d WHERE campaign = :c AND position = :p"),
                    {"d": digest, "c": campaign, "p": position})
    return digest
