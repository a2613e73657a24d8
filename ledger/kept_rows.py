"""The rows of the kept histories (projections/kept.py says what they hold):
written and read here, each under a MAC, so a row someone wrote straight
into the database — a forged figure, a row copied from another campaign or
subject — is never believed: a head that fails its MAC is no head (the
histories are built again), a chunk that fails it makes the histories
unusable until they are rebuilt.

A subject's steps are stored in chunks of up to CHUNK steps in fold order,
one row each, keyed by the chunk's first step (game day, position) and
knowing its last step's day: a page reads a long history in a few dozen
rows, an append rewrites the subject's last chunk, and a fact logged late
rewrites only the chunks that reach its day.

The MAC is keyed BLAKE2b (32 bytes; RFC 7693's keyed mode, a MAC in its own
right) under the ledger's key for derived data (the snapshots' key,
ledger/snapshot_mac.py, kept with its secrets: never in the events'
database file on SQLite, unreadable by reader roles on PostgreSQL), over the
row's identity and its bytes: campaign, subject and first step for a chunk,
campaign and position for a head."""

from __future__ import annotations

import hmac
from hashlib import blake2b
from typing import Iterator, Optional, Sequence

import msgspec
import sqlalchemy as sa

from ledger.cursors import stream_rows
from ledger.errors import SnapshotUnusable
from ledger.schema import kept_heads, kept_steps

CHUNK = 256  # steps a row holds
Step = tuple  # (game day, position, kind, fields, void, late): projections/kept.py reads them
_ENCODER = msgspec.msgpack.Encoder()
_CHUNK = msgspec.msgpack.Decoder(list[tuple[int, int, int, dict, Optional[int], Optional[int]]])


def _tag(key: bytes, *identity, data: bytes) -> bytes:
    message = "\x1f".join(str(part) for part in identity).encode() + b"\x1e" + data
    return blake2b(message, key=key, digest_size=32).digest()


def head(tx, key: bytes, campaign: str) -> Optional[tuple[int, bytes]]:
    """The campaign's kept head (position, data), or None if there is none or it fails its MAC."""
    row = tx.conn.execute(sa.select(kept_heads.c.position, kept_heads.c.data, kept_heads.c.mac)
                          .where(kept_heads.c.campaign == campaign)).first()
    if row is None or not hmac.compare_digest(bytes(row.mac), _tag(key, "head", campaign, row.position,
                                                                     data=bytes(row.data))):
        return None
    return row.position, bytes(row.data)


def put_head(tx, key: bytes, campaign: str, position: int, data: bytes) -> None:
    tx.conn.execute(kept_heads.delete().where(kept_heads.c.campaign == campaign))
    tx.conn.execute(kept_heads.insert(), {"campaign": campaign, "position": position, "data": data,
                                          "mac": _tag(key, "head", campaign, position, data=data)})


def _chunks(tx, key: bytes, campaign: str, subjects: Sequence[str], where: str = "",
            params: tuple = ()) -> Iterator[tuple[str, int, int, list[Step]]]:
    subjects = list(subjects)
    sql = (f"SELECT subject, game_time, position, data, mac FROM kept_steps WHERE campaign = ? "
           f"AND subject IN ({', '.join('?' * len(subjects))}){where} ORDER BY subject, game_time, position")
    for subject, day, position, data, mac in stream_rows(tx.conn, sql, (campaign, *subjects, *params)):
        data = bytes(data)
        if not hmac.compare_digest(bytes(mac), _tag(key, "chunk", campaign, subject, day, position, data=data)):
            raise SnapshotUnusable(f"a kept chunk of {subject} from event {position} fails its MAC")
        try:
            yield subject, day, position, _CHUNK.decode(data)
        except msgspec.DecodeError:
            raise SnapshotUnusable(f"a kept chunk of {subject} from event {position} does not decode") from None


def steps(tx, key: bytes, campaign: str, subjects: Sequence[str],
          until_day: Optional[int] = None) -> Iterator[tuple[str, Step]]:
    """(subject, step) of the subjects' steps up to a game day, in fold order per subject;
    SnapshotUnusable at the first chunk that fails its MAC."""
    where, params = ("", ()) if until_day is None else (" AND game_time <= ?", (until_day,))
    for subject, _, _, chunk in _chunks(tx, key, campaign, subjects, where, params):
        for step in chunk:
            if until_day is not None and step[0] > until_day:
                break
            yield subject, step


def put_steps(tx, key: bytes, campaign: str, new: dict[str, list[Step]], from_day: Optional[int]) -> None:
    """Store each subject's new steps after those kept: the steps from ``from_day`` on (every
    subject's) are dropped first; with None, the new steps all follow the kept ones, and
    only each subject's last chunk is rewritten."""
    rewrite: dict[str, list[Step]] = {}
    gone: list[tuple[str, int, int]] = []
    if from_day is not None:
        every = [r[0] for r in tx.conn.execute(sa.select(kept_steps.c.subject).distinct().where(
            kept_steps.c.campaign == campaign, kept_steps.c.last_time >= from_day))]
        for subject, day, position, chunk in (_chunks(tx, key, campaign, every, " AND last_time >= ?", (from_day,))
                                              if every else ()):
            gone.append((subject, day, position))
            rewrite.setdefault(subject, []).extend(s for s in chunk if s[0] < from_day)
    else:
        for subject in new:
            last = tx.conn.execute(sa.select(kept_steps.c.game_time, kept_steps.c.position).where(
                kept_steps.c.campaign == campaign, kept_steps.c.subject == subject)
                .order_by(kept_steps.c.game_time.desc(), kept_steps.c.position.desc()).limit(1)).first()
            if last is None:
                continue
            ((_, day, position, chunk),) = _chunks(tx, key, campaign, [subject], " AND game_time = ? AND position = ?",
                                                   (last.game_time, last.position))
            if len(chunk) < CHUNK:
                gone.append((subject, day, position))
                rewrite[subject] = chunk
    for subject, day, position in gone:
        tx.conn.execute(kept_steps.delete().where(kept_steps.c.campaign == campaign,
                                                  kept_steps.c.subject == subject,
                                                  kept_steps.c.game_time == day, kept_steps.c.position == position))
    rows = []
    for subject in rewrite.keys() | new.keys():
        held = rewrite.get(subject, []) + new.get(subject, [])
        for start in range(0, len(held), CHUNK):
            chunk = held[start:start + CHUNK]
            data = _ENCODER.encode(chunk)
            rows.append({"campaign": campaign, "subject": subject, "game_time": chunk[0][0],
                         "position": chunk[0][1], "last_time": chunk[-1][0], "data": data,
                         "mac": _tag(key, "chunk", campaign, subject, chunk[0][0], chunk[0][1], data=data)})
    if rows:
        tx.conn.execute(kept_steps.insert(), rows)


def drop(tx, campaign: str) -> None:
    """Forget the campaign's histories, head and all."""
    tx.conn.execute(kept_heads.delete().where(kept_heads.c.campaign == campaign))
    tx.conn.execute(kept_steps.delete().where(kept_steps.c.campaign == campaign))


def drop_all(tx) -> int:
    tx.conn.execute(kept_heads.delete())
    return tx.conn.execute(kept_steps.delete()).rowcount
