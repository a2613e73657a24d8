"""The sessions read model: which session is open, who is activated, its
treasure, and whether play has begun (retirement is allowed only before)."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from sys import intern
from typing import Iterator, Optional

from ledger.envelope import Envelope
from ledger.names import key
from projections.frozen import replace

# What a session's opening logs by itself; anything else means play has begun.
OPENING = {"session.opened", "income.rolled", "dice.committed", "dice.revealed", "dice.client_seed_set",
           "treasure.set_aside_paid", "character.retired", "player.added", "character.created"}


@dataclass(frozen=True)
class Session:
    number: int
    start: int
    activated: dict[str, str]  # player key -> character name
    end: Optional[int] = None
    opened_at: int = 0
    found: int = 0
    divided: int = 0
    deaths: tuple[str, ...] = ()  # character names, in order
    income_rolls: frozenset[int] = frozenset()
    play_positions: tuple[int, ...] = ()

    @property
    def open(self) -> bool:
        return self.end is None

    @property
    def undivided(self) -> int:
        return self.found - self.divided

    @property
    def play_started(self) -> bool:
        return any(p not in self.income_rolls for p in self.play_positions)

    def is_activated(self, character: str) -> bool:
        return key(character) in {key(c) for c in self.activated.values()}


# A closed session is kept as a plain tuple — Session's first eight fields and
# its characters' keys — and every ARCHIVE_EVERY of them are packed into one
# compressed JSON blob. A snapshot of a long campaign then loads as a few
# dozen byte strings, not tens of thousands of objects; the history is
# unpacked only by what reads it (session show N, a god's active days).
# (number, start, activated, end, opened_at, found, divided, deaths, character keys)
Row = tuple[int, int, dict[str, str], Optional[int], int, int, int, tuple[str, ...], tuple[str, ...]]
ARCHIVE_EVERY = 256


def _row(session: Session) -> Row:
    return (session.number, session.start, session.activated, session.end, session.opened_at, session.found,
            session.divided, session.deaths, tuple(intern(key(c)) for c in session.activated.values()))


def _pack(rows: tuple[Row, ...]) -> bytes:
    return zlib.compress(json.dumps(rows, separators=(",", ":")).encode(), 1)


@lru_cache(maxsize=1024)  # an archive never changes: a server unpacks each once, not once a page
def _unpack(blob: bytes) -> tuple[Row, ...]:
    return tuple([(n, start, activated, end, opened, found, divided, tuple(deaths), tuple(keys))
            for n, start, activated, end, opened, found, divided, deaths, keys in json.loads(zlib.decompress(blob))])


@lru_cache(maxsize=1024)
def _spans(blob: bytes) -> dict[str, tuple[tuple[int, Optional[int]], ...]]:
    """(start, end) of the sessions of one archive, by the keys of the characters who went."""
    out: dict[str, list] = {}
    for row in _unpack(blob):
        for k in row[8]:
            out.setdefault(k, []).append((row[1], row[3]))
    return {k: tuple(spans) for k, spans in out.items()}


@dataclass(frozen=True)
class Sessions:
    """Closed sessions, oldest first, and the open one apart: an event during
    play touches only the open session, never the whole history."""

    archived: tuple[bytes, ...] = ()  # closed sessions, ARCHIVE_EVERY to a packed blob
    closed: tuple[Row, ...] = ()  # closed since the last blob was packed
    open_session: Optional[Session] = None
    back: dict[str, int] = field(default_factory=dict)  # character key -> day back from its latest expedition

    def rows(self) -> Iterator[Row]:
        """Every closed session as a row, oldest first."""
        for blob in self.archived:
            yield from _unpack(blob)
        yield from self.closed

    @property
    def sessions(self) -> tuple[Session, ...]:
        """Every session, oldest first."""
        return tuple(Session(*row[:8]) for row in self.rows()) + ((self.open_session,) if self.open_session else ())

    @property
    def current(self) -> Optional[Session]:
        return self.open_session

    @property
    def next_number(self) -> int:
        return len(self.archived) * ARCHIVE_EVERY + len(self.closed) + (2 if self.open_session else 1)

    @property
    def cycle(self) -> str:
        """The stretch a once-per-session limit counts in: from one session's
        opening to the next's ("session 3"), or the time before the first."""
        latest = self.next_number - 1
        return f"session {latest}" if latest else "before session 1"

    def get(self, number: int) -> Optional[Session]:
        if self.open_session is not None and self.open_session.number == number:
            return self.open_session
        row = self._row(number)
        return Session(*row[:8]) if row is not None else None

    def _row(self, number: int) -> Optional[Row]:
        # Sessions are numbered 1, 2, … in the order they close: session n lies in archive
        # (n - 1) // ARCHIVE_EVERY, or among those closed since.
        index = number - 1
        if index < 0:
            return None
        packed = len(self.archived) * ARCHIVE_EVERY
        if index < packed:
            row = _unpack(self.archived[index // ARCHIVE_EVERY])[index % ARCHIVE_EVERY]
        elif index - packed < len(self.closed):
            row = self.closed[index - packed]
        else:
            return None
        return row if row[0] == number else next((r for r in self.rows() if r[0] == number), None)

    def latest(self, count: int, last: Optional[int] = None) -> tuple[Session, ...]:
        """Up to ``count`` sessions ending with session ``last`` (default: the latest), oldest
        first, unpacking only the archives they lie in."""
        newest = self.next_number - 1 if last is None else min(last, self.next_number - 1)
        return tuple(found for n in range(max(1, newest - count + 1), newest + 1)
                     if (found := self.get(n)) is not None)

    def back_on(self, character: str) -> Optional[int]:
        """The day the character came back from its latest expedition (its own
        "now" at an open table), or None if it has played none."""
        return self.back.get(key(character))

    def expeditions(self, character: str, until: int) -> Iterator[tuple[int, int]]:
        """(start, end) of every session the character was activated in; an
        open one runs to ``until``."""
        k = key(character)
        for blob in self.archived:
            for start, end in _spans(blob).get(k, ()):
                yield start, end if end is not None else until
        for row in self.closed:
            if k in row[8]:
                yield row[1], row[3] if row[3] is not None else until
        current = self.open_session
        if current is not None and current.is_activated(character):
            yield current.start, until

    def closing(self, session: Session, back: dict[str, int]) -> "Sessions":
        """With ``session`` closed (or set aside), and no session open."""
        closed = self.closed + (_row(session),)
        if len(closed) < ARCHIVE_EVERY:
            return Sessions(self.archived, closed, None, back)
        return Sessions(self.archived + (_pack(closed),), (), None, back)


def reacts_to(event_type: str) -> bool:
    return True  # any event during play marks that play has begun


READS_PAYLOAD = frozenset({"session.opened", "session.closed", "session.joined", "treasure.found",
                           "treasure.divided", "character.died"})


def apply(state: Sessions, e: Envelope) -> Sessions:
    p = e.payload
    if e.type == "session.opened":
        # Interned: the sessions name the same few players and characters; one string each, not one a session.
        activated = {intern(player): intern(name) for player, name in p["activated"].items()}
        opened = Session(p["number"], p["start"], activated, opened_at=e.position)
        if state.open_session is not None:  # never recorded so (one open session at a time), but lose nothing
            state = state.closing(state.open_session, state.back)
        return Sessions(state.archived, state.closed, opened, state.back)
    current = state.open_session
    if current is None or e.session != current.number:
        return state
    if e.type == "session.closed":
        # What only an open session needs (has play begun?) is dropped once it closes.
        closed = replace(current, end=p["end"])
        back = dict(state.back)
        for name in closed.activated.values():
            back[key(name)] = max(back.get(key(name), closed.end), closed.end)
        return state.closing(closed, back)
    changes: dict = {}
    if e.type == "treasure.found":
        changes["found"] = current.found + p["cash"]
    elif e.type == "treasure.divided":
        changes["divided"] = current.divided + p["total"]
    elif e.type == "character.died":
        changes["deaths"] = current.deaths + (p["character"],)
    elif e.type == "session.joined":  # the player's character in this session from now on
        changes["activated"] = {**current.activated, intern(p["player"]): intern(p["character"])}
    elif e.type == "income.rolled" and e.cause is not None:
        changes["income_rolls"] = current.income_rolls | {e.cause}
    if e.type not in OPENING:
        changes["play_positions"] = current.play_positions + (e.position,)
    return Sessions(state.archived, state.closed, replace(current, **changes), state.back) if changes else state


