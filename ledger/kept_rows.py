"""The rows of the kept histories (projections/kept.py says what they hold):
written and read here, each under a MAC, so a row someone wrote straight
into the database — a forged figure, a row copied from another campaign or
subject — is never believed: a head that fails its MAC is no head (the
histories are built again), a step that fails it makes the whole history
unusable until it is rebuilt.

The MAC is HMAC-SHA256 under the ledger's derived-data key, kept with its
secrets (ledger/secrets.py: never in the events' database file on SQLite,
unreadable by reader roles on PostgreSQL), over the row's identity and its
bytes: campaign, subject, game day and position for a step, campaign and
position for a head."""

from __future__ import annotations

import hmac
from hashlib import sha256
from typing import Iterator, Optional, Sequence

import sqlalchemy as sa

from ledger.errors import SnapshotUnusable
from ledger.schema import kept_heads, kept_steps


def _tag(key: bytes, *identity, data: bytes) -> bytes:
    message = "\x1f".join(str(part) for part in identity).encode() + b"\x1e" + data
    return hmac.new(key, message, sha256).digest()


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
    query = sa.select(kept_steps.c.subject, kept_steps.c.game_time, kept_steps.c.position, kept_steps.c.data,
                      kept_steps.c.mac).where(kept_steps.c.campaign == campaign,
                                              kept_steps.c.subject.in_(list(subjects)))
    if until_day is not None:
        query = query.where(kept_steps.c.game_time <= until_day)
    for subject, day, position, data, mac in tx.conn.execute(
            query.order_by(kept_steps.c.subject, kept_steps.c.game_time, kept_steps.c.position)):
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
