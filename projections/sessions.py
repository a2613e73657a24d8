"""The sessions read model: which session is open, who is activated, its
treasure, and whether play has begun (retirement is allowed only before)."""

from __future__ import annotations

import json
import zlib
from functools import lru_cache
from sys import intern
from typing import Iterator, Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.envelope import Envelope
from ledger.names import key
from projections.handlers import Table

# What a session's opening logs by itself; anything else means play has begun.
OPENING = {"session.opened", "income.rolled", "dice.committed", "dice.revealed", "dice.client_seed_set",
           "treasure.set_aside_paid", "character.retired", "player.added", "character.created"}


class Session(Struct, frozen=True):
    number: int
    start: int
    activated: dict[str, str]  # player key -> character name
    end: Optional[int] = None
    opened_at: int = 0
    found: int = 0
    divided: int = 0
    deaths: tuple[str, ...] = ()  # character names, in order
    played: bool = False  # an event of play (not of the opening, not a roll) was recorded in it
    rolls: tuple[int, ...] = ()  # its rolls so far that no Income has claimed as its own

    @property
    def open(self) -> bool:
        return self.end is None

    @property
    def undivided(self) -> int:
        return self.found - self.divided

    @property
    def play_started(self) -> bool:
        return self.played or bool(self.rolls)

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


class Sessions(Struct, frozen=True):
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


TABLE = Table("sessions")


def _open(state: Sessions, e: Envelope) -> Optional[Session]:
    """The open session, if the event was recorded in it."""
    current = state.open_session
    return current if current is not None and e.session == current.number else None


def _during(state: Sessions, current: Session, e: Envelope, **changes) -> Sessions:
    """The open session with an event of its own folded in: anything but its opening's events means
    play has begun — a roll, unless an Income rolled at the opening turns out to be its cause. Once
    play has begun there is nothing more to mark (most of a long log is rolls during play)."""
    if not current.played and e.type not in OPENING:
        if e.type == "dice.rolled":
            changes["rolls"] = changes.get("rolls", current.rolls) + (e.position,)
        else:
            changes["played"] = True
    return Sessions(state.archived, state.closed, replace(current, **changes), state.back) if changes else state


def _session_opened(world, p: dict, day: int) -> Optional[str]:
    overridden = {key(name) for name in p.get("overrides", {})}
    for name in p["activated"].values():
        back = world.sessions.back_on(name)
        if back is not None and p["start"] < back and key(name) not in overridden:
            return f"{name} would be away on another expedition until day {back}: one character in one place"
    return None


@TABLE.on("session.opened", line=lambda p: f"session {p['number']} opens: " + ", ".join(p["activated"].values()),
          premise=_session_opened)
def _opened(state: Sessions, p: dict, e: Envelope) -> Sessions:
    # Interned: the sessions name the same few players and characters; one string each, not one a session.
    activated = {intern(player): intern(name) for player, name in p["activated"].items()}
    opened = Session(p["number"], p["start"], activated, opened_at=e.position)
    if state.open_session is not None:  # never recorded so (one open session at a time), but lose nothing
        state = state.closing(state.open_session, state.back)
    return Sessions(state.archived, state.closed, opened, state.back)


@TABLE.on("session.closed", line=lambda p: f"session {p['number']} closes")
def _closed(state: Sessions, p: dict, e: Envelope) -> Sessions:
    current = _open(state, e)
    if current is None:
        return state
    # What only an open session needs (has play begun?) is dropped once it closes.
    closed = replace(current, end=p["end"])
    back = dict(state.back)
    for name in closed.activated.values():
        back[key(name)] = max(back.get(key(name), closed.end), closed.end)
    return state.closing(closed, back)


def _session_joined(world, p: dict, day: int) -> Optional[str]:
    back = world.sessions.back_on(p["character"])
    if back is not None and day < back:
        return f"{p['character']} would be away on another expedition until day {back}: one character in one place"
    replaced = world.stable.character(p["replaces"]) if p["replaces"] else None
    if replaced is not None and replaced.status != "dead":
        return f"{replaced.name} would not have died when {p['character']} joined as the replacement"
    return None


@TABLE.on("session.joined", line=lambda p: f"{p['character']} joins session {p['number']}"
          + (f", replacing {p['replaces']}" if p.get("replaces") else ""), premise=_session_joined)
def _joined(state: Sessions, p: dict, e: Envelope) -> Sessions:
    current = _open(state, e)
    if current is None:
        return state
    # the player's character in this session from now on
    return _during(state, current, e, activated={**current.activated, intern(p["player"]): intern(p["character"])})


@TABLE.on("treasure.found", line=lambda p: f"{p['cash']} {'sp' if p.get('currency') == 'sp' else 'Cash'} found: "
          f"{p['source']}")
def _found(state: Sessions, p: dict, e: Envelope) -> Sessions:
    current = _open(state, e)
    return state if current is None else _during(state, current, e, found=current.found + p["cash"])


@TABLE.on("treasure.divided")
def _divided(state: Sessions, p: dict, e: Envelope) -> Sessions:
    current = _open(state, e)
    return state if current is None else _during(state, current, e, divided=current.divided + p["total"])


@TABLE.on("character.died")
def _died(state: Sessions, p: dict, e: Envelope) -> Sessions:
    current = _open(state, e)
    return state if current is None else _during(state, current, e, deaths=current.deaths + (p["character"],))


@TABLE.on("income.rolled")
def _income(state: Sessions, p: dict, e: Envelope) -> Sessions:
    current = _open(state, e)
    if current is None:
        return state
    if e.cause is None or e.cause not in current.rolls:
        return _during(state, current, e)
    return _during(state, current, e, rolls=tuple(r for r in current.rolls if r != e.cause))


@TABLE.every_other
def _played(state: Sessions, p: dict, e: Envelope) -> Sessions:
    """Any other event during play marks that play has begun."""
    current = _open(state, e)
    return state if current is None else _during(state, current, e)


apply = TABLE.apply
