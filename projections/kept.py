"""Kept histories: every character's sheet and the Company's figures, step by
step in fold order, kept beside the snapshots and caught up from where they
stand, so a character's charts and a figure's story are read, not folded
from the start of the campaign.

A subject (``character:KEY``, or ``company``) has a step at each event that
changed its figures (the fields it changed, with their new values), bore on
them without changing them (a failed Wealth attempt: a mark), or would have
changed them had a void not withdrawn it (the fields as they would have
been, and the void). Each step also says, for a fact logged late, the
campaign's day when it was recorded. Walking a subject's steps gives every
figure's value after each event: the story `why` tells and the series a
character page charts, exactly as folding the campaign would
(projections/why.py folds it, for points these histories cannot answer:
as recorded at an earlier instant, or at an earlier event).

The histories fold the events a figure reads (projections/why.py
``figure_types``) and stand at a position. Catching up after an append
folds only the new events, on the world at that position (from the nearest
snapshot). A fact for an earlier day, or a void, changes what lies after
its day: the steps from that day on are dropped and folded again from the
world as of the day before; the steps before it stay as they were.

Steps are derived data: written under a MAC (ledger/kept_rows.py), built
again when the read models change shape, and `tally db snapshot --drop`
drops them with the snapshots.
"""

from __future__ import annotations

import heapq
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Optional

import msgspec

from ledger import kept_rows
from ledger.envelope import Envelope
from ledger.errors import SnapshotUnusable, StoreError, TallyError, Unfoldable
from ledger.names import key
from projections import replay, snapshots
from projections import world as world_model
from projections.sheet import sheet
from projections.timeline import VOID, Point
from projections.why import ATTEMPTS, COMPANY_TYPES, Subject, figure_types
from projections.why import story_row

COMPANY = "company"
ALL = "*"  # a withdrawn event that would no longer fold shows in every story
CHANGED, BORE, WITHDRAWN, UNFOLDABLE = 0, 1, 2, 3
FORMAT = "kept-2"  # the layout of a step and a head; with the read models' shape, what a head was built by
_ATTEMPT_TYPES = frozenset().union(*ATTEMPTS.values())
_ENCODER = msgspec.msgpack.Encoder()
_HEAD = msgspec.msgpack.Decoder(tuple[str, Optional[int], Optional[int], dict[str, dict[str, Any]]])
_UNFOLDABLE = object()


def character_subject(name: str) -> str:
    return f"character:{key(name)}"


class Step(NamedTuple):  # a tuple: a long history is made of thousands of them
    game_time: int
    position: int
    kind: int  # CHANGED, BORE, WITHDRAWN, or UNFOLDABLE (withdrawn, and it would no longer fold)
    fields: dict[str, Any]  # CHANGED: the new values; WITHDRAWN: the values it would have given
    void: Optional[int]  # WITHDRAWN, UNFOLDABLE: the void's position
    late: Optional[int]  # a fact logged late: the campaign's day when it was recorded


@dataclass
class Head:
    """Where a campaign's histories stand: the position, the latest day folded, the campaign's day
    by position there (for telling a later fact logged late), and each subject's figures."""

    position: int
    last_day: Optional[int]
    recorded_day: Optional[int]
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)

    def encode(self) -> bytes:
        return zlib.compress(_ENCODER.encode((_shape(), self.last_day, self.recorded_day, self.figures)), 1)

    @classmethod
    def decode(cls, position: int, data: bytes) -> Optional["Head"]:
        try:
            shape, last_day, recorded_day, figures = _HEAD.decode(zlib.decompress(data))
        except (zlib.error, msgspec.DecodeError):
            return None
        return cls(position, last_day, recorded_day, figures) if shape == _shape() else None


def _shape() -> str:
    return f"{FORMAT}:{snapshots.shape()}"


# -- what an event moved ------------------------------------------------------------

def _changed_keys(was: dict, now: dict) -> set[str]:
    if was is now:
        return set()
    return {k for k in was.keys() | now.keys() if was.get(k) is not now.get(k)}


def _moved(was: world_model.World, now: world_model.World) -> Optional[set[str]]:
    """The subjects whose figures an event may have moved; None: every character's (the
    campaign itself moved: its day, its settings). A sheet reads only its own character's
    entries of each read model and the campaign (projections/sheet.py)."""
    if was is now:
        return set()
    if was.campaign is not now.campaign and not _day_alone(was.campaign, now.campaign):
        return None
    keys: set[str] = set()
    if was.stable is not now.stable:
        keys |= _changed_keys(was.stable.characters, now.stable.characters)
    if was.inventory is not now.inventory:
        keys |= _changed_keys(was.inventory.packs, now.inventory.packs)
    if was.downtime is not now.downtime:
        projects = _changed_keys(was.downtime.projects, now.downtime.projects)
        for found in (was.downtime.projects, now.downtime.projects):
            keys |= {key(found[p]["owner"]) for p in projects if p in found}
    if was.gods is not now.gods:
        keys |= _changed_keys(was.gods.standings, now.gods.standings)
        keys |= _changed_keys(was.gods.alignments, now.gods.alignments)
    if was.wolves is not now.wolves:
        keys |= _changed_keys(was.wolves.raiders, now.wolves.raiders)
    if was.skirmish is not now.skirmish:
        keys |= _changed_keys(was.skirmish.people, now.skirmish.people)
    if was.xp is not now.xp:
        keys |= _changed_keys(was.xp.progress, now.xp.progress)
    subjects = {f"character:{k}" for k in keys}
    if was.company is not now.company:
        subjects.add(COMPANY)
    return subjects


def _day_alone(was, now) -> bool:
    """Whether the campaign moved on only its days — its today (most events of a long log move
    it), the shared world's date (calendar.advanced) — in a campaign whose sheets do not read
    them: only the Wolves sheet reads today (wages owed, and the Hit Dice the XP sheet takes
    from it); no sheet reads the world's date. The rest is compared by identity: days moved on
    keep the very same rules, settings and calendar (projections/campaign.py)."""
    return (was is not None and now is not None and not now.runs("wolves") and was.rules is now.rules
            and was.settings is now.settings and was.calendar_spec is now.calendar_spec
            and was.start == now.start and was.name == now.name)


def _figures(world: world_model.World, subject: str) -> Optional[dict[str, Any]]:
    """A subject's figures as plain data (lists, not tuples: as they are kept)."""
    if world.campaign is None:
        return None
    if subject == COMPANY:
        found = world.company.view()
    else:
        character = world.stable.characters.get(subject.partition(":")[2])
        found = sheet(world, character.name) if character is not None else None
    return msgspec.to_builtins(found) if found is not None else None


def _subjects(world: world_model.World) -> list[str]:
    return [COMPANY, *(f"character:{k}" for k in world.stable.characters)]


def _diff(before: Optional[dict], after: Optional[dict]) -> dict[str, Any]:
    before = before or {}
    return {k: v for k, v in (after or {}).items() if k not in before or before[k] != v}


def _payload_needed(event_type: str) -> bool:
    """Whether the histories' fold reads this event type's payload: where the world's fold does,
    and where it names whom an attempt bore on."""
    return replay.payload_needed(event_type) or event_type in _ATTEMPT_TYPES or event_type in COMPANY_TYPES


def _bears_on(e: Envelope) -> list[str]:
    """The subjects an event bears on even where it changes nothing (projections/why.py ATTEMPTS)."""
    if e.type in COMPANY_TYPES:
        return [COMPANY]
    if e.type in _ATTEMPT_TYPES:
        name = e.payload.get("character")
        return [character_subject(name)] if isinstance(name, str) else []
    return []


class _Folding:
    """The fold that makes steps: the world, each subject's figures so far, the steps made."""

    def __init__(self, world: world_model.World, figures: dict[str, dict]) -> None:
        self.world, self.figures = world, figures
        self.out: dict[str, list[tuple]] = {}  # subject -> its new steps, in fold order

    def _step(self, subject: str, e: Envelope, kind: int, fields: dict, void: Optional[int],
              late: Optional[int]) -> None:
        self.out.setdefault(subject, []).append((e.game_time, e.position, kind, fields, void, late))

    def _touched(self, was: world_model.World, now: world_model.World) -> Iterable[str]:
        moved = _moved(was, now)
        if moved is None:
            return dict.fromkeys([*_subjects(was), *_subjects(now)])
        return sorted(moved)

    def fold(self, e: Envelope, void: Optional[int], late: Optional[int]) -> None:
        stepped = set()
        if void is None:
            now = world_model.apply_figures(self.world, e)
            for subject in self._touched(self.world, now):
                after = _figures(now, subject)
                changes = _diff(self.figures.get(subject), after)
                if changes:
                    self._step(subject, e, CHANGED, changes, None, late)
                    stepped.add(subject)
                if after is None:
                    self.figures.pop(subject, None)
                else:
                    self.figures[subject] = after
            self.world = now
            kind = BORE
        else:
            try:
                would = world_model.apply(self.world, e)
            except Unfoldable:
                would = _UNFOLDABLE
            if would is _UNFOLDABLE:
                self._step(ALL, e, UNFOLDABLE, {}, void, late)
                return
            for subject in self._touched(self.world, would):
                changes = _diff(self.figures.get(subject), _figures(would, subject))
                if changes:
                    self._step(subject, e, WITHDRAWN, changes, void, late)
                    stepped.add(subject)
            kind = WITHDRAWN
        for subject in _bears_on(e):
            if subject not in stepped:
                self._step(subject, e, kind, {}, void, late)


# -- catching up --------------------------------------------------------------------

def derived_key(tx, *, create: bool) -> Optional[bytes]:
    """The ledger's key for derived data — the snapshots' (ledger/snapshot_mac.py), kept with its
    secrets — made on first need where the transaction may write it; None where there is none
    to use here (a copy without its secrets, a reader's role)."""
    try:
        return tx.snapshot_key(create=create)
    except (SnapshotUnusable, StoreError):
        return None


def _recorded_days(tx, name: str, after: int, upto: int, start: Optional[int]) -> dict[int, Optional[int]]:
    """For each of the campaign's events in (after, upto]: the latest game day of the events
    recorded before it (``start``: that of the events up to ``after``)."""
    out, today = {}, start
    for position, game_time in tx.positions_and_days(name, after, upto):
        out[position] = today
        today = game_time if today is None else max(today, game_time)
    return out


def _late(days: dict[int, Optional[int]], e: Envelope) -> Optional[int]:
    recorded = days.get(e.position)
    return recorded if recorded is not None and e.game_time < recorded else None


def catch_up(tx, name: str, *, persist: bool = True) -> Optional[tuple[Head, Optional[dict]]]:
    """The campaign's histories brought up to its head: (the head, steps not yet persisted).
    With ``persist`` (a write transaction) the new steps are stored and the list is empty;
    without, they are returned for this reading alone. None where they cannot be kept here
    (no derived-data key, and none may be made)."""
    key_ = derived_key(tx, create=persist)
    if key_ is None:
        return None
    upto = tx.campaign_head(name) or 0
    found = kept_rows.head(tx, key_, name)
    head = Head.decode(*found) if found else None
    if head is not None and head.position > upto:
        head = None  # written against another log: start again
    if head is not None and head.position == upto:
        return head, {}
    withdrawn = {v.payload["target"]: v.position for v in tx.read(name, types=[VOID], upto=upto)}
    types = [*figure_types(), VOID]
    if head is not None:
        tail = [e for e in tx.read(name, after=head.position, upto=upto, types=types,
                                   payload_if=_payload_needed)]
        starts = [e.game_time for e in tail if e.type != VOID]
        # A void of an event already folded: its steps, and all after its day, are folded again.
        folded = set(types)
        withdrawn_days = [found.game_time for e in tail if e.type == VOID and e.payload["target"] <= head.position
                          and (found := tx.get(e.payload["target"])) is not None and found.type in folded]
        if withdrawn_days or (starts and head.last_day is not None and min(starts) < head.last_day):
            redo_from = min(starts + withdrawn_days)
        else:
            redo_from = "tail" if starts else None
    else:
        redo_from = -1
    if redo_from is None or redo_from == "tail":
        days = _recorded_days(tx, name, head.position, upto, head.recorded_day)
        facts = sorted((e for e in tail if e.type != VOID), key=lambda e: (e.game_time, e.position))
        if facts:
            world = replay.world_at(tx, name, Point(), upto=head.position)
            folding = _Folding(world, head.figures)
            for e in facts:
                folding.fold(e, withdrawn.get(e.position), _late(days, e))
            new_rows, last_day = folding.out, max(head.last_day or facts[-1].game_time, facts[-1].game_time)
        else:
            new_rows, last_day = {}, head.last_day
        recorded_day = max((d for d in [head.recorded_day, *tx.game_days(name, head.position, upto)]
                            if d is not None), default=None)
        head = Head(upto, last_day, recorded_day, head.figures)
        drop = None
    else:
        head, new_rows = _folded_from(tx, name, upto, withdrawn, redo_from)
        drop = redo_from
    if not persist:
        return head, (new_rows if drop is None else None)  # a refold is not answered from memory
    if drop is not None and drop < 0:
        kept_rows.drop(tx, name)
    kept_rows.put_steps(tx, key_, name, new_rows, drop if drop is not None and drop >= 0 else None)
    kept_rows.put_head(tx, key_, name, upto, head.encode())
    return head, {}


def _folded_from(tx, name: str, upto: int, withdrawn: dict[int, int],
                 redo_from: int) -> tuple[Head, dict[str, list[tuple]]]:
    """The histories' steps from game day ``redo_from`` on (every day: -1), folded on the world
    as of the day before, up to ``upto``; and the head they stand at."""
    days = _recorded_days(tx, name, 0, upto, None)
    if redo_from < 0:
        world = world_model.EMPTY
    else:
        world = replay.world_at(tx, name, Point(as_of=redo_from - 1), upto=upto)
    figures = {s: f for s in _subjects(world) if (f := _figures(world, s)) is not None}
    folding = _Folding(world, figures)
    last_day = None
    for e in tx.read(name, upto=upto, types=[t for t in figure_types() if t != VOID], fold_order=True,
                     from_day=None if redo_from < 0 else redo_from, payload_if=_payload_needed):
        folding.fold(e, withdrawn.get(e.position), _late(days, e))
        last_day = e.game_time
    if last_day is None and redo_from >= 0:
        last_day = tx.last_fact_day(name, upto, before_day=redo_from)
    return Head(upto, last_day, tx.last_day(name, upto), folding.figures), folding.out


def built(tx, name: str) -> Optional[tuple[Head, dict[str, list[tuple]]]]:
    """The campaign's histories folded from its first event to its head, for this reading alone:
    what ``catch_up`` stores for a campaign that has none, computed where it may not write (a
    process of its own, beside the snapshots' fold after an import: commands/derived.py), to be
    stored by ``keep_built``. None where they cannot be kept (no derived-data key)."""
    if derived_key(tx, create=False) is None:
        return None
    upto = tx.campaign_head(name) or 0
    withdrawn = {v.payload["target"]: v.position for v in tx.read(name, types=[VOID], upto=upto)}
    return _folded_from(tx, name, upto, withdrawn, -1)


def keep_built(tx, name: str, made: tuple[Head, dict[str, list[tuple]]]) -> None:
    """Store histories ``built`` from the log as committed when they were read, unless the
    campaign has histories at or past their position by then; then catch them up to the head
    (events appended since). The log up to their position cannot have changed: it only grows."""
    key_ = derived_key(tx, create=True)
    head, rows = made
    found = kept_rows.head(tx, key_, name) if key_ is not None else None
    held = Head.decode(*found) if found else None
    if key_ is not None and (held is None or held.position < head.position) \
            and head.position <= (tx.campaign_head(name) or 0):
        kept_rows.drop(tx, name)
        kept_rows.put_steps(tx, key_, name, rows, None)
        kept_rows.put_head(tx, key_, name, head.position, head.encode())
    catch_up(tx, name)


def keep_up(store, campaign: Optional[str]) -> None:
    """``ensure`` for the campaign a command names (or the ledger's only one); a refusal about
    the campaign is left to the command that reads it."""
    from projections.reading import resolve_campaign

    try:
        with store.reading() as tx:
            name = resolve_campaign(tx, campaign)
    except TallyError:
        return
    ensure(store, name)


def ensure(store, name: str) -> None:
    """Bring the campaign's histories up to its head in a write transaction of their own,
    where this connection may write (a reader role's pages fold instead)."""
    with store.reading() as tx:
        key_ = derived_key(tx, create=False)
        upto = tx.campaign_head(name) or 0
        found = kept_rows.head(tx, key_, name) if key_ else None
        if found is not None and found[0] == upto and Head.decode(*found) is not None:
            return
    try:
        with store.transaction() as tx:
            catch_up(tx, name)
    except StoreError:
        pass  # a role that may not write: the histories wait for a writer


# -- reading ------------------------------------------------------------------------

def steps_of(tx, name: str, subject: str, upto: int, until_day: Optional[int]) -> Optional[list[Step]]:
    """The subject's steps at a point that sees the campaign's whole log (``upto`` its head), up to
    a game day; None where the histories cannot answer (not kept here, or a row fails its MAC)."""
    key_ = derived_key(tx, create=False)
    if key_ is None:
        return None
    found = kept_rows.head(tx, key_, name)
    head = Head.decode(*found) if found else None
    if head is None or head.position > upto:
        return None
    pending: dict = {}
    if head.position < upto:
        caught = catch_up(tx, name, persist=False)
        if caught is None or caught[1] is None:
            return None
        pending = caught[1]
    try:
        rows = list(kept_rows.steps(tx, key_, name, [subject, ALL], until_day))
    except SnapshotUnusable as unusable:
        tx.note(f"the kept histories of campaign {name} were ignored ({unusable.reason}); "
                "tally db snapshot --drop, then tally db snapshot, builds them again")
        return None
    mine = [step for who, step in rows if who == subject]
    extra = [step for who, step in rows if who != subject]  # the rare steps every story holds
    extra += [step for who in (subject, ALL) for step in pending.get(who, ())
              if until_day is None or step[0] <= until_day]
    if extra:  # each list is in fold order already: merge them
        mine = list(heapq.merge(mine, sorted(extra, key=_fold_key), key=_fold_key))
    return list(map(Step._make, mine))


def _fold_key(step: tuple) -> tuple[int, int]:
    return step[0], step[1]


def values(steps: Iterable[Step]) -> Iterator[tuple[Step, dict[str, Any], dict[str, Any]]]:
    """Each step with the subject's figures before it and after it (the same dict where it
    changed nothing)."""
    figures: dict[str, Any] = {}
    for step in steps:
        before = figures
        if step.kind == CHANGED and step.fields:
            figures = {**figures, **step.fields}
        yield step, before, figures


def story(steps: Iterable[Step], subject: Subject, events_at: Callable[[Iterable[int]], dict[int, Envelope]], *,
          count: Optional[int] = None, before: Optional[tuple[int, int]] = None) -> tuple[list[dict], bool]:
    """The figure's story (projections/why.py ``story``) told from its subject's steps instead of
    a fold: the same rows; or the ``count`` latest of them before ``before`` (game day, position),
    read from the end back, and whether earlier rows remain. ``events_at``: the events at some
    positions, by position."""
    candidates = []  # (step, before, after, would, moved): a row if it moved the figure or the event bears on it
    was = None
    for step, _, figures in values(steps):
        if step.kind == CHANGED:
            now = subject.of(figures)
            candidates.append((step, was, now, None, now != was))
            was = now
        elif step.kind == BORE:
            candidates.append((step, was, was, None, False))
        else:  # withdrawn: what it would have made of the figure (None: it would no longer fold)
            would = None if step.kind == UNFOLDABLE else subject.of({**figures, **step.fields})
            candidates.append((step, was, was, would, would != was))
    if before is not None:
        candidates = [c for c in candidates if (c[0].game_time, c[0].position) < before]
    wanted = len(candidates) if count is None else count + 1  # one more: are there earlier rows?
    chosen, found, end = [], {}, len(candidates)
    while end > 0 and len(chosen) < wanted:
        batch = candidates[max(0, end - max(2 * wanted, 64)):end] if count is not None else candidates
        end -= len(batch)
        positions = {c[0].position for c in batch} | {c[0].void for c in batch if c[0].void is not None}
        found.update(events_at(positions - set(found)))
        found.update(events_at({e.cause for e in found.values() if e.cause} - set(found)))
        for candidate in reversed(batch):
            e = found.get(candidate[0].position)
            if e is not None and (candidate[4] or subject.concerns(e)):
                chosen.append((candidate, e))
                if len(chosen) == wanted:
                    break
    more = count is not None and len(chosen) > count
    out = []
    for (step, was, now, would, _), e in reversed(chosen[:count] if count is not None else chosen):
        row = story_row(e, found, was, now)
        if step.kind not in (CHANGED, BORE):
            void = found.get(step.void) if step.void is not None else None
            row["would_be"] = would
            row["voided"] = {"by": void.position, "reason": void.payload["reason"],
                             "ruled_by": void.payload["ruled_by"], "recorded_at": void.recorded_at} \
                if void is not None else None
        if step.late is not None:
            row["late"] = {"recorded_at": e.recorded_at, "recorded_day": step.late}
        out.append(row)
    return out, more
