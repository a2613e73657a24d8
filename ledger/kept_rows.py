"""The rows of the kept histories (projections/kept.py says what they hold):
written and read here, each under a MAC, so a row someone wrote straight
into the database — a forged figure, a row copied from another campaign or
subject — is never believed: a head that fails its MAC is no head (the
histories are built again), a step that fails it makes the whole history
unusable until it is rebuilt.

The MAC is keyed BLAKE2b (32 bytes; RFC 7693's keyed mode, a MAC in its own
right and several times quicker than HMAC for the many short rows a
character page reads) under the ledger's derived-data key, kept with its
secrets (ledger/secrets.py: never in the events' database file on SQLite,
unreadable by reader roles on PostgreSQL), over the row's identity and its
bytes: campaign, subject, game day and position for a step, campaign and
position for a head."""

from __future__ import annotations

import hmac
from hashlib import blake2b
from typing import Iterator, Optional, Sequence

import sqlalchemy as sa

from ledger.cursors import stream_rows
from ledger.errors import SnapshotUnusable
from ledger.schema import kept_heads, kept_steps


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


def steps(tx, key: bytes, campaign: str, subjects: Sequence[str],
          until_day: Optional[int] = None) -> Iterator[tuple[str, int, int, bytes]]:
    """(subject, game day, position, data) of the subjects' steps, in fold order per subject;
    SnapshotUnusable at the first row that fails its MAC."""
    subjects = list(subjects)
    sql = (f"SELECT subject, game_time, position, data, mac FROM kept_steps WHERE campaign = ? "
           f"AND subject IN ({', '.join('?' * len(subjects))})")
    params = [campaign, *subjects]
    if until_day is not None:
        sql += " AND game_time <= ?"
        params.append(until_day)
    for subject, day, position, data, mac in stream_rows(tx.conn, sql + " ORDER BY subject, game_time, position",
                                                         tuple(params)):
        data = bytes(data)
        if not hmac.compare_digest(bytes(mac), _tag(key, "step", campaign, subject, day, position, data=data)):
            raise SnapshotUnusable(f"a kept step of {subject} at event {position} fails its MAC")
        yield subject, day, position, data


def put_steps(tx, key: bytes, campaign: str, rows: Sequence[tuple[str, int, int, bytes]]) -> None:
    if rows:
        tx.conn.execute(kept_steps.insert(), [
            {"campaign": campaign, "subject": subject, "game_time": day, "position": position, "data": data,
             "mac": _tag(key, "step", campaign, subject, day, position, data=data)}
            for subject, day, position, data in rows])


def drop_from(tx, campaign: str, day: Optional[int]) -> None:
    """Forget the campaign's steps from a game day on (all of them, and its head, for None)."""
    query = kept_steps.delete().where(kept_steps.c.campaign == campaign)
    if day is not None:
        query = query.where(kept_steps.c.game_time >= day)
    else:
        tx.conn.execute(kept_heads.delete().where(kept_heads.c.campaign == campaign))
    tx.conn.execute(query)


def drop_all(tx) -> int:
    tx.conn.execute(kept_heads.delete())
    return tx.conn.execute(kept_steps.delete()).rowcount
