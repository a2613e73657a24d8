"""The MAC a snapshot row carries, under a key kept with the ledger's secrets.

A plain digest can be recomputed by anyone who can write the database, so a
forged snapshot (Cash 9999, another campaign's world) with its digest
recomputed would be believed. The MAC can be made only with the ledger's
snapshot key, which is kept where the dice seeds are (ledger/secrets.py: the
0600 secrets file beside a SQLite ledger, the ``ledger_secrets`` table on
PostgreSQL that a reader's role cannot read), never in the database.

A row's ``digest`` column holds two HMAC-SHA256 tags, each cut to 128 bits
so that both fit the column: ``mac1:TILE.STATE`` in unpadded base64url.

* TILE covers the row's place in the tiling — campaign, position, since,
  min_game_time, max_game_time and the hash of the event it is bound to. A
  query plans from the tiles' day ranges before it reads any state, so each
  tile it consults is checked with one HMAC over a few dozen bytes.
* STATE covers all of that again, the names of the blobs the row holds
  (each the SHA-256 of its blob) and the state itself: checked on the one
  snapshot a query starts from.

Each message begins with its own label, and the fields are canonical JSON
(which holds no newline) followed by a newline, so a message reads one way
only. A row written by a tally from before the MAC carries a 64-digit hex
digest: it is told apart by its form (``signed``) and never used.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from typing import Optional, Sequence

from ledger.chain import canonical_json

KIND = "snapshot-key"  # the secret's kind in ledger/secrets.py; one key a ledger
CAMPAIGN = ""  # a key for every campaign: the campaign is in every message
NAME = "hmac-sha256"
PREFIX = "mac1:"
TAG = 16  # bytes kept of each HMAC-SHA256


def new_key() -> str:
    """A new snapshot key: 32 random bytes, as the secret's text (hex)."""
    return secrets.token_hex(32)


def key_bytes(value: str) -> Optional[bytes]:
    """A kept key's bytes, or None if the kept text is not one."""
    try:
        key = bytes.fromhex(value)
    except (ValueError, TypeError):
        return None
    return key if len(key) == 32 else None


def _header(campaign: str, position: int, since: int, min_game_time: Optional[int], max_game_time: int,
            event_hash: str) -> bytes:
    return canonical_json([campaign, position, since, min_game_time, max_game_time, event_hash]).encode()


def _tile_tag(key: bytes, header: bytes) -> bytes:
    return hmac.digest(key, b"tally-snapshot-tile-1\n" + header + b"\n", "sha256")[:TAG]


def _state_tag(key: bytes, header: bytes, blobs: Sequence[str], state: bytes) -> bytes:
    mac = hmac.new(key, b"tally-snapshot-state-1\n" + header + b"\n" + canonical_json(list(blobs)).encode()
                   + b"\n", hashlib.sha256)
    mac.update(state)  # a state may be megabytes: not copied into one message
    return mac.digest()[:TAG]


def _text(tag: bytes) -> str:
    return base64.urlsafe_b64encode(tag).rstrip(b"=").decode()


def _tags(digest: str) -> Optional[tuple[bytes, bytes]]:
    if not digest.startswith(PREFIX):
        return None
    parts = digest[len(PREFIX):].split(".")
    try:
        tags = tuple(base64.urlsafe_b64decode(part + "==") for part in parts)
    except (binascii.Error, ValueError):
        return None
    return tags if len(tags) == 2 and all(len(tag) == TAG for tag in tags) else None


def seal(key: bytes, campaign: str, position: int, *, since: int, min_game_time: Optional[int],
         max_game_time: int, event_hash: str, blobs: Sequence[str], state: bytes) -> str:
    """The ``digest`` a new snapshot row carries."""
    header = _header(campaign, position, since, min_game_time, max_game_time, event_hash)
    return f"{PREFIX}{_text(_tile_tag(key, header))}.{_text(_state_tag(key, header, blobs, state))}"


def signed(digest: str) -> bool:
    """Whether a row carries a MAC at all (a row from before them has a plain digest)."""
    return digest.startswith(PREFIX)


def tile_holds(key: bytes, digest: str, campaign: str, position: int, *, since: int,
               min_game_time: Optional[int], max_game_time: int, event_hash: str) -> bool:
    """Whether the row's place in the tiling is as the key's holder wrote it."""
    tags = _tags(digest)
    header = _header(campaign, position, since, min_game_time, max_game_time, event_hash)
    return tags is not None and hmac.compare_digest(tags[0], _tile_tag(key, header))


def state_holds(key: bytes, digest: str, campaign: str, position: int, *, since: int,
                min_game_time: Optional[int], max_game_time: int, event_hash: str, blobs: Sequence[str],
                state: bytes) -> bool:
    """Whether the row — its place, its blobs' names and its state — is as the key's holder wrote it."""
    tags = _tags(digest)
    header = _header(campaign, position, since, min_game_time, max_game_time, event_hash)
    return (tags is not None and hmac.compare_digest(tags[0], _tile_tag(key, header))
            and hmac.compare_digest(tags[1], _state_tag(key, header, blobs, state)))
