"""A campaign's world at any point on the three time axes, from the nearest
usable snapshot, reading only the stretches of the log that can change it.

Snapshots tile the log. Snapshot k, at position P(k), was taken after P(k-1)
(its ``since``) and knows the earliest game day among the campaign's events
in (P(k-1), P(k)] and the latest game day G(k) up to P(k). A snapshot at P
serves a query that sees the events up to N when

* every event up to P is seen (P ≤ N);
* no event in (P, N] belongs to a day before G (a fact logged late would
  have to be folded before events already inside the snapshot);
* no void in (P, N] withdraws an event at or before P;
* a game-date pin T is not before G.

The events then folded on top are those in (P, N] on days up to T that no
void withdraws; a tile whose earliest day is after T holds none and is never
read. Without a usable snapshot the world is folded from nothing, streamed
from the database in fold order, so memory stays flat however long the log.

The events a pin sees are a prefix of the log: transaction time never runs
backwards along positions, so "recorded by an instant" is "up to the last
position recorded by then".

Every tile the plan consults must carry its MAC under the ledger's
snapshot key (ledger/snapshot_mac.py: one HMAC over its place in the tiling,
no state read), and the snapshot chosen serves only if its whole row passes
the store's checks (its MAC over the state too) and its state decodes into
the read models (``usable``). One that does not is ignored — the query
starts from an earlier snapshot, or from nothing, and its answer is the
same — and a note is left on the transaction for the command line to print.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterable, Iterator, Optional

from ledger.envelope import Envelope
from ledger.errors import SnapshotUnusable, StoreError
from ledger.store import Transaction
from projections import dice as dice_model
from projections import snapshots
from projections import world as world_model
from projections.timeline import VOID, Point

SNAPSHOT_EVERY = 1000  # campaign events between snapshots
TRIES = 3  # snapshots a query tries, the latest usable first, before it folds from nothing
DICE_TYPES = ("dice.committed", "dice.client_seed_set", "dice.revealed", "dice.rolled")
_NEVER = float("inf")


def seen_upto(tx: Transaction, point: Point) -> int:
    """The last position the point sees: everything up to it, nothing after."""
    limit = tx.head()[0]
    if point.at_event is not None:
        limit = min(limit, point.at_event)
    if point.as_recorded is not None:
        limit = min(limit, tx.recorded_prefix(point.as_recorded))
    return limit


@dataclass(frozen=True)
class Plan:
    base: int  # the snapshot to start from
    ranges: list[tuple[int, int]]  # the (after, upto] stretches to read and fold on top
    withdrawn: set[int]  # what the voids after the snapshot withdraw


@dataclass(frozen=True)
class SnapshotIgnored:
    """A note for the user: a snapshot failed its checks and a query did without it."""

    campaign: str
    position: int  # 0 for "unkeyed": every snapshot of the campaign alike
    reason: str
    kind: str = "failed"  # SnapshotUnusable.kind

    @property
    def stale(self) -> bool:  # written for read models of another shape: sound, merely out of date
        return self.kind == "stale"

    def __str__(self) -> str:
        if self.kind == "stale":
            return (f"the snapshot of campaign {self.campaign} at event {self.position} was written for read "
                    "models of another shape and was ignored; the next command that records, or tally db snapshot, "
                    "takes the campaign's snapshots again")
        if self.kind == "unsigned":
            return (f"the snapshot of campaign {self.campaign} at event {self.position} carries no MAC (an older "
                    "tally's, or forged) and was ignored; the next snapshot, or tally db snapshot, replaces it")
        if self.kind == "unkeyed":
            return (f"the snapshots of campaign {self.campaign} cannot be told from forgeries here ({self.reason}) "
                    "and were ignored: queries fold from the log")
        return (f"the snapshot of campaign {self.campaign} at event {self.position} failed its check "
                f"({self.reason}) and was ignored; run tally verify, then tally db snapshot --drop")


def ignored(name: str, position: int, unusable: SnapshotUnusable) -> SnapshotIgnored:
    return SnapshotIgnored(name, 0 if unusable.kind == "unkeyed" else position, unusable.reason, unusable.kind)


class TileRefused(Exception):
    """A tile a plan consulted is not as the snapshot key's holder wrote it."""

    def __init__(self, position: int, unusable: SnapshotUnusable) -> None:
        super().__init__(unusable.reason)
        self.position, self.unusable = position, unusable


def usable(tx: Transaction, name: str, position: int) -> Optional[world_model.World]:
    """The world of the campaign's snapshot at ``position`` if it passes every
    check, else None, with a note on the transaction saying why."""
    try:
        return snapshots.load(*tx.snapshot(name, position))
    except SnapshotUnusable as unusable:
        tx.note(ignored(name, position, unusable))
        return None


def holds(tx: Transaction, name: str, tile) -> bool:
    """Whether a tile carries its MAC under the ledger's snapshot key (no state read)."""
    try:
        tx.check_tile(name, tile)
    except SnapshotUnusable:
        return False
    return True


def world_at(tx: Transaction, name: str, point: Point, *, use_snapshots: bool = True,
             upto: Optional[int] = None, below: Optional[int] = None) -> world_model.World:
    """Every read model of the campaign as the point sees it. ``below``: use
    only the snapshots before that position."""
    upto = seen_upto(tx, point) if upto is None else upto
    plan, base = None, None
    for _ in range(TRIES if use_snapshots else 0):
        try:
            plan = plan_for(tx, name, upto, point.as_of, below=below)
            if plan is None:
                break
            at = plan.base
            base = snapshots.load(*tx.snapshot(name, at))
            break
        except TileRefused as refused:
            at, unusable = refused.position, refused.unusable
        except SnapshotUnusable as refused:
            unusable = refused
        tx.note(ignored(name, at, unusable))
        if unusable.kind != "failed":  # stale, unsigned or unkeyed: the snapshots before it are no better
            break
        below = at
    if base is None:  # fold from nothing, streamed in fold order
        withdrawn = {v.payload["target"] for v in tx.read(name, types=[VOID], upto=upto)}
        return world_model.fold(_facts(tx.read(name, upto=upto, until_day=point.as_of, fold_order=True,
                                               payload_if=payload_needed), withdrawn))
    facts = [e for after, until in plan.ranges
             for e in _facts(tx.read(name, after=after, upto=until, until_day=point.as_of,
                                     payload_if=payload_needed), plan.withdrawn)]
    facts.sort(key=lambda e: (e.game_time, e.position))
    return world_model.fold(facts, base)


def payload_needed(event_type: str) -> bool:
    """Whether a fold (a void withdrawing its target included) reads this event type's payload."""
    return event_type == VOID or world_model.needs_payload(event_type)


def _facts(envelopes: Iterable[Envelope], withdrawn: set[int]) -> Iterator[Envelope]:
    return (e for e in envelopes if e.type != VOID and e.position not in withdrawn)


def plan_for(tx: Transaction, name: str, upto: int, day: Optional[int],
             below: Optional[int] = None) -> Optional[Plan]:
    """Where a query that sees the events up to ``upto`` (and the days up to
    ``day``) starts and what it reads, or None to fold from nothing. The
    voids are read tile by tile as the walk goes back, not all of them.
    ``below``: only the snapshots before that position may serve. A tile
    consulted that does not carry its MAC: TileRefused."""
    tiles = tx.snapshot_tiles(name, upto if below is None else min(upto, below - 1))
    if not tiles:
        return None
    last = tiles[-1].position
    tail_first_day = tx.game_days(name, last, upto)[0] if upto > last else None
    earliest_after = _NEVER if tail_first_day is None else tail_first_day  # over (P(k), upto]
    withdrawn: set[int] = set()  # targets of the voids read so far: those in (voids_from, upto]
    voids_from = upto
    chosen = None
    for k in range(len(tiles) - 1, -1, -1):
        tile = tiles[k]
        try:  # its since, days and position decide what the query reads: as the key's holder wrote them
            tx.check_tile(name, tile)
        except SnapshotUnusable as unusable:
            raise TileRefused(tile.position, unusable) from None
        if (day is None or tile.max_game_time <= day) and earliest_after >= tile.max_game_time:
            # A candidate: the voids since it (read once, in one stretch) must leave it whole.
            withdrawn.update(v.payload["target"] for v in tx.read(name, types=[VOID], after=tile.position,
                                                                  upto=voids_from))
            voids_from = tile.position
            if min(withdrawn, default=_NEVER) > tile.position:
                chosen = k
                break
        if k == 0 or tile.since != tiles[k - 1].position:
            return None  # the tiles below are not contiguous with this one: fold from nothing
        if tile.min_game_time is not None:
            earliest_after = min(earliest_after, tile.min_game_time)
    if chosen is None:
        return None
    ranges = [(t.since, t.position) for t in tiles[chosen + 1:]
              if day is None or (t.min_game_time is not None and t.min_game_time <= day)]
    if upto > last and (day is None or (tail_first_day is not None and tail_first_day <= day)):
        ranges.append((last, upto))
    return Plan(tiles[chosen].position, _merged(ranges), withdrawn)


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for after, until in ranges:
        if merged and merged[-1][1] == after:
            merged[-1] = (merged[-1][0], until)
        else:
            merged.append((after, until))
    return merged


def current_epoch_state(tx: Transaction, name: str, upto: int) -> dice_model.DiceState:
    """The dice state of the latest epoch alone: what a roll needs, read with
    one index seek and the events since that epoch opened."""
    committed = tx.latest_of(name, "dice.committed", upto=upto)
    if committed is None:
        return dice_model.DiceState()
    return dice_model.fold(tx.read(name, after=committed.position - 1, upto=upto, types=DICE_TYPES))


def take_snapshot(tx: Transaction, name: str, position: Optional[int] = None,
                  world: Optional[world_model.World] = None) -> Optional[int]:
    """Snapshot the world after the campaign's events up to ``position`` (default:
    all); its position, or None if a snapshot is already there or later.
    ``world``: that world, when the caller has already folded it."""
    position = tx.campaign_head(name, position)
    last = tx.last_tile(name)
    since = last.position if last else 0
    if position is None or position <= since:
        return None
    if world is None:
        world = world_at(tx, name, Point(), upto=position)
    first_day, last_day = tx.game_days(name, since, position)  # over this tile only: an indexed range
    if last is not None:
        # The latest day up to ``since``: the last tile's, if its MAC says so; else from the log itself,
        # so that a forged day range is never carried into a snapshot that carries a MAC.
        before = last.max_game_time if holds(tx, name, last) else tx.last_day(name, since)
        if before is not None:
            last_day = before if last_day is None else max(before, last_day)
    state, blobs = snapshots.dump(world)
    tx.put_snapshot(name, position, since=since, min_game_time=first_day, max_game_time=last_day,
                    state=state, blobs=blobs)
    return position


def take_due_snapshot(tx: Transaction, name: str, appended: list[Envelope]) -> Optional[int]:
    """After an append: a snapshot if SNAPSHOT_EVERY campaign events have passed
    since the last one, or at once if the append made the last one unusable
    (a void of an event inside it, or a fact for a day before its last), or
    the last one does not carry its MAC (an older tally's, a forged one, one
    made under another key): those are dropped first, so the next command
    starts from a snapshot again. Derived data: if the snapshot key cannot be
    read or made here, no snapshot is taken and the command goes on."""
    if any(isinstance(n, SnapshotIgnored) and n.stale and n.campaign == name for n in tx.notes):
        return _taken_again(tx, name)
    last = tx.last_tile(name)
    if last is not None:
        unsound = not holds(tx, name, last)
        spoiled = unsound or any(e.game_time < last.max_game_time
                                 or (e.type == VOID and e.payload["target"] <= last.position) for e in appended)
        if not spoiled and tx.count(name, after=last.position) < SNAPSHOT_EVERY:
            return None
    elif tx.count(name) < SNAPSHOT_EVERY:
        return None
    try:
        tx.snapshot_key(create=True)
    except StoreError:
        return None
    if last is not None and unsound:
        drop_unsound(tx, name)
    return take_snapshot(tx, name)


def _taken_again(tx: Transaction, name: str) -> Optional[int]:
    """The campaign's snapshots, which this command found written for read models of another
    shape (an older tally's: never used, so every query folded the campaign from its start),
    dropped and taken again through its history, in the command's transaction: the first
    command that records after an upgrade pays for one build, not every query after it. Said
    in one note in place of the ones that found them; the last snapshot's position."""
    try:
        tx.snapshot_key(create=True)
    except StoreError:  # derived data: where the key cannot be made, queries fold as before
        return None
    taken = build_snapshots(tx, name)
    found = [n for n in tx.notes if isinstance(n, SnapshotIgnored) and n.stale and n.campaign == name]
    for note in found:
        tx.notes.remove(note)
    tx.note(f"the snapshots of campaign {name} were written for read models of another shape (an older "
            f"tally's) and were taken again through its history: {len(taken)} snapshot(s)")
    return taken[-1] if taken else None


def drop_stale(tx: Transaction, name: str) -> int:
    """Drop the campaign's snapshots written for read models of another shape (never used),
    and every one after the first of them, so the tiles left before it stay whole; how many."""
    here = snapshots.shape()
    stale = [position for position, head in tx.snapshot_heads(name)
             if (stamp := snapshots.stamp(head)) is not None and stamp != here]
    if not stale:
        return 0
    return tx.drop_snapshots_at(name, [t.position for t in tx.snapshot_tiles(name) if t.position >= stale[0]])


def drop_unsound(tx: Transaction, name: str) -> int:
    """Drop the campaign's snapshots whose tiles do not carry their MAC under the
    ledger's snapshot key (never used, so nothing is lost); how many. The key
    must be readable here (``snapshot_key(create=True)`` first)."""
    unsound = [t.position for t in tx.snapshot_tiles(name) if not holds(tx, name, t)]
    return tx.drop_snapshots_at(name, unsound) if unsound else 0


def build_snapshots(tx: Transaction, name: str, every: int = SNAPSHOT_EVERY) -> list[int]:
    """Snapshots every ``every`` campaign events from the last one to the head
    (after an import, or after `tally db snapshot --drop`), and one at the head;
    first the snapshots that do not carry their MAC, and those written for read
    models of another shape, are dropped, to be replaced.

    The world is carried forward from one snapshot to the next while the
    events between can simply be folded on; where a late fact or a void
    intervenes, it is found from the snapshots as any query would."""
    tx.snapshot_key(create=True)
    drop_unsound(tx, name)
    drop_stale(tx, name)
    last = tx.last_tile(name)
    since = last.position if last else 0
    world = usable(tx, name, since) if last else world_model.EMPTY
    folded = _Folded(world, last.max_game_time if last else None,
                     {v.payload["target"] for v in tx.read(name, types=[VOID], upto=since)})
    taken = []
    for position in tx.positions(name, after=since, every=every) + [tx.campaign_head(name)]:
        if position is None or position <= since:
            continue
        between = list(tx.read(name, after=since, upto=position, payload_if=payload_needed))
        world = folded.on(tx, name, between, since)
        if world is None:
            world = folded.restart(world_at(tx, name, Point(), upto=position), between)
        if take_snapshot(tx, name, position, world) is not None:
            taken.append(position)
        since = position
    tx.drop_unnamed_blobs(name)  # those only the snapshots dropped above named
    return taken


DAYS_KEPT = 256  # game days a snapshot build keeps the world before, to fold a fact logged late from


def _fold_key(e: Envelope) -> tuple[int, int]:
    return e.game_time, e.position


class _Folded:
    """A snapshot build's fold, tile after tile: the world after the events so far, the latest
    day among the facts folded, the events withdrawn so far, and the world before each of the
    last DAYS_KEPT game days the fold crossed (the facts of earlier days among the events so
    far). A tile with a fact logged late — for a day before one already folded — is folded on
    from the world before that fact's day, with the facts already folded for that day and
    after read again: a few days' events, where an earlier snapshot would be tiles of them.
    ``on`` answers None where it cannot: a void of an event of an earlier tile, or a day
    before those kept; the caller folds from an earlier snapshot, and ``restart``s."""

    def __init__(self, world: world_model.World, last_day: Optional[int], withdrawn: set[int]) -> None:
        self.world, self.last_day, self.withdrawn = world, last_day, withdrawn
        self.days: list[int] = []  # ascending
        self.before: list[world_model.World] = []  # the world before each of ``days``

    def on(self, tx: Transaction, name: str, between: list[Envelope],
           since: int) -> Optional[world_model.World]:
        voided = {e.payload["target"] for e in between if e.type == VOID}
        if any(target <= since for target in voided):
            return None
        self.withdrawn |= voided
        facts = sorted((e for e in between if e.type != VOID and e.position not in voided), key=_fold_key)
        if not facts:
            return self.world
        first = facts[0].game_time
        if self.last_day is None or first >= self.last_day:
            self.world = self._fold(self.world, facts, self.last_day)
        else:
            at = bisect_right(self.days, first) - 1
            if at < 0:
                return None
            day, base = self.days[at], self.before[at]
            del self.days[at:], self.before[at:]
            again = [e for e in tx.read(name, upto=since, from_day=day, fold_order=True, payload_if=payload_needed)
                     if e.type != VOID and e.position not in self.withdrawn]
            self.world = self._fold(base, heapq.merge(again, facts, key=_fold_key), None)
        self.last_day = facts[-1].game_time if self.last_day is None else max(self.last_day, facts[-1].game_time)
        return self.world

    def restart(self, world: world_model.World, between: list[Envelope]) -> world_model.World:
        """Go on from ``world``, the world after ``between`` folded another way; no day kept."""
        self.withdrawn |= {e.payload["target"] for e in between if e.type == VOID}
        days = [e.game_time for e in between if e.type != VOID and e.position not in self.withdrawn]
        if days:
            self.last_day = max(days) if self.last_day is None else max(self.last_day, max(days))
        self.world, self.days, self.before = world, [], []
        return world

    def _fold(self, world: world_model.World, facts: Iterable[Envelope],
              after_day: Optional[int]) -> world_model.World:
        """Fold ``facts`` (in fold order) on ``world``, keeping the world before each day after
        ``after_day`` (before it, ``world`` holds facts of that day already)."""
        day = None
        apply = world_model.apply
        for e in facts:
            if e.game_time != day:
                day = e.game_time
                if after_day is None or day > after_day:
                    self.days.append(day)
                    self.before.append(world)
            world = apply(world, e)
        if len(self.days) > 2 * DAYS_KEPT:
            del self.days[:-DAYS_KEPT], self.before[:-DAYS_KEPT]
        return world


def carried(world: Optional[world_model.World], between: list[Envelope], since: int,
            last_day: Optional[int]) -> Optional[world_model.World]:
    """``world`` — the world after the events up to ``since``, the latest of
    their days ``last_day`` — with the events ``between`` (those after
    ``since``, in position order) folded on; or None where that would not
    be the world after them: a fact for a day before ``last_day`` belongs
    before events already folded, and a void of an event up to ``since``
    cannot take it back out."""
    if world is None or not all((last_day is None or e.game_time >= last_day)
                                and (e.type != VOID or e.payload["target"] > since) for e in between):
        return None
    withdrawn = {e.payload["target"] for e in between if e.type == VOID}
    return world_model.fold(sorted(_facts(between, withdrawn), key=lambda e: (e.game_time, e.position)), world)
