"""The snapshots' rows on a transaction: the tiling read without states,
a snapshot's state and blobs once every check that needs no decoding holds
(its MAC under the ledger's snapshot key, its binding to its event, its
blobs' digests), a snapshot stored with its MAC, and the drops. Snapshots
are derived data (projections/snapshots.py makes and reads their states)."""

from __future__ import annotations

import hashlib
import json
from typing import Mapping, NamedTuple, Optional, Sequence

import sqlalchemy as sa

from ledger import snapshot_mac
from ledger.errors import SnapshotUnusable, StoreError
from ledger.schema import events, snapshot_blobs, snapshots


class Tile(NamedTuple):
    """A snapshot's place in the tiling, without its state."""

    position: int
    since: int
    min_game_time: Optional[int]
    max_game_time: int
    event_hash: str
    digest: str


class _SnapshotRow(NamedTuple):
    since: int
    min_game_time: Optional[int]
    max_game_time: int
    blobs: str
    event_hash: str
    digest: str
    state: bytes


class SnapshotRows:
    """The snapshot methods of ledger.store.Transaction, which provides what
    they use: ``conn``, ``secrets``, ``_snapshot_key``, ``_row`` and ``_rows``
    (one driver statement's first row or all rows), ``secret`` and ``put_secret``."""

    # A tile: a snapshot's place in the tiling, without its state (ledger/snapshot_mac.py checks it).
    _TILE = "SELECT position, since, min_game_time, max_game_time, event_hash, digest FROM snapshots"

    def snapshot_tiles(self, campaign: str, upto: Optional[int] = None) -> list[Tile]:
        """The campaign's snapshots up to ``upto``, oldest first, without their state
        (unchecked: ``check_tile`` checks one)."""
        bound, params = ("", (campaign,)) if upto is None else (" AND position <= ?", (campaign, upto))
        return [Tile(*row) for row in self._rows(f"{self._TILE} WHERE campaign = ?{bound} ORDER BY position", params)]

    def snapshot_heads(self, campaign: str) -> list[tuple[int, bytes]]:
        """(position, the first bytes of its state) of each of the campaign's snapshots, oldest
        first: enough to read the shape stamp a state begins with (projections/snapshots.py
        ``stamp``), without reading the states whole. Unchecked."""
        return [(position, bytes(head)) for position, head in self._rows(
            "SELECT position, substr(state, 1, 256) FROM snapshots WHERE campaign = ? ORDER BY position", (campaign,))]

    def snapshotted(self) -> list[str]:
        """The campaigns the snapshots table holds rows for (whatever the log says)."""
        return list(self.conn.execute(sa.select(snapshots.c.campaign).distinct().order_by(snapshots.c.campaign))
                    .scalars())

    def last_tile(self, campaign: str) -> Optional[Tile]:
        """The campaign's latest snapshot, without its state (unchecked)."""
        row = self._row(f"{self._TILE} WHERE campaign = ? ORDER BY position DESC LIMIT 1", (campaign,))
        return Tile(*row) if row else None

    def snapshot_key(self, *, create: bool = False) -> bytes:
        """The key of the snapshots' MACs, kept with the ledger's secrets, or
        SnapshotUnusable (kind "unkeyed") saying why there is none to use here (a
        copy of the ledger without its secrets, a reader's role). ``create``: a
        writer makes one if the ledger has none yet, or is refused (StoreError)."""
        key = self.secrets.snapshot_key or self._snapshot_key
        if key is not None:
            return key
        try:
            why = self.secrets.unreadable(self.conn)
            value = None if why else self.secret(snapshot_mac.KIND, snapshot_mac.CAMPAIGN, snapshot_mac.NAME)
        except StoreError as exc:
            if create:
                raise
            why, value = str(exc), None
        made = value is None and not why and create
        if made:
            value = snapshot_mac.new_key()
            self.put_secret(snapshot_mac.KIND, snapshot_mac.CAMPAIGN, snapshot_mac.NAME, value)
        key = snapshot_mac.key_bytes(value) if value is not None else None
        if key is None:
            why = why or (self.secrets.no_key() if value is None
                          else f"the snapshot key in {self.secrets.where} is not 32 bytes in hex")
            if create:
                raise StoreError(f"cannot make a snapshot: {why}")
            raise SnapshotUnusable(why, kind="unkeyed")
        self._snapshot_key = key
        # Kept for the store's later transactions once it is surely committed: not one this transaction
        # made; on PostgreSQL, where it is written in the ledger's transaction, not one read inside a
        # batch either (an earlier command of the batch may have made it). A secrets file commits each
        # secret on its own before the ledger's transaction ends: what is read from it stays.
        if not made and (self.secrets.apart or not self.conn.in_nested_transaction()):
            self.secrets.snapshot_key = key
        return key

    def check_tile(self, campaign: str, tile) -> None:
        """Refuse (SnapshotUnusable) a tile whose place in the tiling — since, day
        range, event — is not as a holder of the snapshot key wrote it: one HMAC
        over a few dozen bytes, no state read."""
        if not snapshot_mac.signed(tile.digest):
            raise SnapshotUnusable("it carries no MAC", kind="unsigned")
        if not snapshot_mac.tile_holds(self.snapshot_key(), tile.digest, campaign, tile.position, since=tile.since,
                                       min_game_time=tile.min_game_time, max_game_time=tile.max_game_time,
                                       event_hash=tile.event_hash):
            raise SnapshotUnusable("its MAC does not hold")

    def snapshot(self, campaign: str, position: int, *, authenticate: bool = True) -> tuple[bytes, dict[str, bytes]]:
        """A snapshot's state and the blobs it names, once its row has passed
        every check that needs no decoding: its MAC under the ledger's snapshot
        key (ledger/snapshot_mac.py: its place in the tiling, its event, its
        blobs' names and its state), its binding to the campaign's event at its
        position (one primary-key lookup), and each blob present and matching
        its name. Otherwise SnapshotUnusable, saying which check failed.
        ``authenticate`` false: every check but the MAC (verify, which holds
        the state against a fold of the log, where there is no key to check it)."""
        found = self._row("SELECT since, min_game_time, max_game_time, blobs, event_hash, digest, state "
                          "FROM snapshots WHERE campaign = ? AND position = ?", (campaign, position))
        if found is None:
            raise SnapshotUnusable("there is no such snapshot")
        row = _SnapshotRow(*found[:6], bytes(found[6]))
        try:
            names = json.loads(row.blobs)
        except ValueError:
            names = None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise SnapshotUnusable("its list of blobs is not readable")
        if authenticate:
            if not snapshot_mac.signed(row.digest):
                raise SnapshotUnusable("it carries no MAC", kind="unsigned")
            if not snapshot_mac.state_holds(self.snapshot_key(), row.digest, campaign, position, since=row.since,
                                            min_game_time=row.min_game_time, max_game_time=row.max_game_time,
                                            event_hash=row.event_hash, blobs=names, state=row.state):
                raise SnapshotUnusable("its MAC does not hold")
        chained = self._row("SELECT hash FROM events WHERE position = ? AND campaign = ?", (position, campaign))
        if chained is None or chained[0] != row.event_hash:
            raise SnapshotUnusable(f"its event hash is not the hash of event {position} of the campaign")
        blobs = {digest: bytes(data) for digest, data in self._rows(
            f"SELECT digest, data FROM snapshot_blobs WHERE campaign = ? AND digest IN ({', '.join('?' * len(names))})",
            (campaign, *names))} if names else {}
        for name in names:
            if name not in blobs:
                raise SnapshotUnusable(f"blob {name[:12]}… is missing")
            if hashlib.sha256(blobs[name]).hexdigest() != name:
                raise SnapshotUnusable(f"blob {name[:12]}… does not match its digest")
        return row.state, blobs

    def put_snapshot(self, campaign: str, position: int, *, since: int, min_game_time: Optional[int],
                     max_game_time: int, state: bytes, blobs: Mapping[str, bytes]) -> None:
        """Store a snapshot bound to the campaign's event at ``position``, with
        its MAC (the ledger's snapshot key made on first need), and the blobs
        it names that are not stored yet."""
        exists = self.conn.execute(sa.select(snapshots.c.position).where(
            snapshots.c.campaign == campaign, snapshots.c.position == position)).first()
        if exists:
            return
        key = self.snapshot_key(create=True)
        held = set(self.conn.execute(sa.select(snapshot_blobs.c.digest).where(
            snapshot_blobs.c.campaign == campaign, snapshot_blobs.c.digest.in_(list(blobs)))).scalars()) \
            if blobs else set()
        new = [{"campaign": campaign, "digest": d, "data": data} for d, data in blobs.items() if d not in held]
        if new:
            self.conn.execute(snapshot_blobs.insert(), new)
        event_hash = self.conn.execute(sa.select(events.c.hash).where(
            events.c.position == position, events.c.campaign == campaign)).scalar_one()
        names = sorted(blobs)
        digest = snapshot_mac.seal(key, campaign, position, since=since, min_game_time=min_game_time,
                                   max_game_time=max_game_time, event_hash=event_hash, blobs=names, state=state)
        self.conn.execute(snapshots.insert(), {
            "campaign": campaign, "position": position, "since": since, "min_game_time": min_game_time,
            "max_game_time": max_game_time, "state": state, "blobs": json.dumps(names),
            "event_hash": event_hash, "digest": digest})

    def drop_snapshots_at(self, campaign: str, positions: Sequence[int]) -> int:
        """Delete the campaign's snapshots at ``positions`` (their blobs stay, for the
        snapshots that replace them, unless the campaign has none left)."""
        dropped = self.conn.execute(snapshots.delete().where(
            snapshots.c.campaign == campaign, snapshots.c.position.in_(list(positions)))).rowcount
        if self.last_tile(campaign) is None:
            self.conn.execute(snapshot_blobs.delete().where(snapshot_blobs.c.campaign == campaign))
        return dropped

    def drop_unnamed_blobs(self, campaign: str) -> int:
        """Delete the campaign's blobs that none of its snapshots names any more (left by
        snapshots dropped while others stayed); how many. Where a row's list of names cannot
        be read, every blob stays (derived data: verify names that row)."""
        named: set = set()
        for (names,) in self._rows("SELECT blobs FROM snapshots WHERE campaign = ?", (campaign,)):
            try:
                named.update(json.loads(names))
            except (ValueError, TypeError):
                return 0
        held = self._rows("SELECT digest FROM snapshot_blobs WHERE campaign = ?", (campaign,))
        unnamed = [digest for (digest,) in held if digest not in named]
        if unnamed:
            self.conn.execute(snapshot_blobs.delete().where(snapshot_blobs.c.campaign == campaign,
                                                            snapshot_blobs.c.digest.in_(unnamed)))
        return len(unnamed)

    def drop_snapshots(self) -> int:
        self.conn.execute(snapshot_blobs.delete())
        return self.conn.execute(snapshots.delete()).rowcount
