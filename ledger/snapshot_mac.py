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

Each message begins with its own label, and the fields are JSON (msgspec's
compact encoding, which holds no newline) followed by a newline, so a
message reads one way only. A row written by a tally from before the MAC carries a 64-digit hex
digest: it is told apart by its form (``signed``) and never used.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from functools import lru_cache
from typing import Optional, Sequence

import msgspec

KIND = "snapshot-key"  # the secret's kind in ledger/secrets.py; one key a ledger
CAMPAIGN = ""  # a key for every campaign: the campaign is in every message
NAME = "hmac-sha256"
PREFIX = "mac1:"
TAG = 16  # bytes kept of each HMAC-SHA256
_TEXT = 22  # characters of a tag in unpadded base64url
_encode = msgspec.json.Encoder().encode


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


@lru_cache(maxsize=8)
def _keyed(key: bytes, label: bytes):
    """HMAC-SHA256 under ``key`` with ``label`` already fed: copied for each message, as a plan
    checks one tile after another (the key's pads are worked out once)."""
    return hmac.new(key, label, hashlib.sha256)


def _header(campaign: str, position: int, since: int, min_game_time: Optional[int], max_game_time: int,
            event_hash: str) -> bytes:
    return _encode([campaign, position, since, min_game_time, max_game_time, event_hash]) + b"\n"


def _text(tag: bytes) -> str:
    return base64.urlsafe_b64encode(tag[:TAG]).rstrip(b"=").decode()


def _tile_tag(key: bytes, header: bytes) -> str:
    mac = _keyed(key, b"tally-snapshot-tile-1\n").copy()
    mac.update(header)
    return _text(mac.digest())


def _state_tag(key: bytes, header: bytes, blobs: Sequence[str], state: bytes) -> str:
    mac = _keyed(key, b"tally-snapshot-state-1\n").copy()
    mac.update(header + _encode(list(blobs)) + b"\n")
    mac.update(state)  # a state may be megabytes: not copied into one message
    return _text(mac.digest())


def _tags(digest: str) -> Optional[tuple[str, str]]:
    """The two tags' text of a stored digest, or None if it is not of the form."""
    if len(digest) != len(PREFIX) + 2 * _TEXT + 1 or not digest.isascii() or not digest.startswith(PREFIX) \
            or digest[len(PREFIX) + _TEXT] != ".":  # (compare_digest takes ASCII text only)
        return None
    return digest[len(PREFIX):len(PREFIX) + _TEXT], digest[len(PREFIX) + _TEXT + 1:]


def seal(key: bytes, campaign: str, position: int, *, since: int, min_game_time: Optional[int],
         max_game_time: int, event_hash: str, blobs: Sequence[str], state: bytes) -> str:
    """The ``digest`` a new snapshot row carries."""
    header = _header(campaign, position, since, min_game_time, max_game_time, event_hash)
    return f"{PREFIX}{_tile_tag(key, header)}.{_state_tag(key, header, blobs, state)}"


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
