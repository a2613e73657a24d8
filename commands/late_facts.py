"""A fact logged late (or a void) checked along the timeline before it is
written: the campaign is folded from the day it changes to now with it
included, and the invariants (commands/invariants.py) and every later
decision's premises (beside each fold, in its read model's table) are
checked after each event. The first thing it breaks refuses the command,
unless the referee rules it accepted."""

from __future__ import annotations

import heapq
from typing import Optional, Sequence

from projections import replay
from ledger.envelope import Envelope, NewEvent, Pending
from ledger.errors import RuleRefused, Unfoldable
from commands.invariants import invariants, premises
from projections import world as world_model
from projections.timeline import VOID, Point


def _checked(event_type: str) -> bool:
    return event_type in world_model.PREMISES or world_model.needs_payload(event_type)


def _read(event_type: str) -> bool:
    return event_type == VOID or _checked(event_type)


def _pending(ctx, new_events: Sequence[NewEvent]) -> list[Envelope]:
    """The new events as the fold will see them (positions after the head, in order)."""
    head = ctx.tx.head()[0]
    return [Envelope(head + i + 1, ctx.name, e.stream, 0, e.event.type_name(), e.event.schema_version,
                     e.game_time, "", e.session, ctx.actor, None, e.event.payload(), "", "")
            for i, e in enumerate(new_events)]


def first_break(ctx, new_events: Sequence[NewEvent]) -> Optional[tuple[Envelope, str]]:
    """The first event recorded after the new ones' place in the timeline that
    they would break, with what would no longer hold; or None."""
    found = every_break(ctx, new_events, stop=True)
    return found[0] if found else None


def every_break(ctx, new_events: Sequence[NewEvent], *, stop: bool = False) -> list[tuple[Envelope, str]]:
    """Every event (the new ones included) that the new ones would break, in
    fold order, with what would no longer hold; ``stop``: the first only. The
    fold goes on past a break as a ruling would leave it, and ends at an event
    that would no longer fold at all."""
    breaks: list[tuple[Envelope, str]] = []
    tx, name = ctx.tx, ctx.name
    pending = _pending(ctx, new_events)
    voided = {e.payload["target"] for e in pending if e.type == VOID}
    facts = [e for e in pending if e.type != VOID]
    starts = [(e.game_time, e.position) for e in facts]
    for target in voided:
        found = tx.get(target)
        if found is not None:
            starts.append((found.game_time, found.position))
    if not starts:
        return breaks
    first = min(starts)
    later = tx.read(name, upto=ctx.upto, from_day=first[0] + (0 if voided else 1), fold_order=True,
                    payload_if=_read)
    if next(later, None) is None:  # nothing recorded on a later day: the command decided against it all
        return breaks
    later.close()
    # A fact for the day the command was decided on goes after every event of
    # that day: the world the command loaded is where the fold starts. A void
    # (or facts on other days) starts from the day before its earliest.
    on_its_day = not voided and {e.game_time for e in facts} == {ctx.point.as_of}
    from_day = first[0] + 1 if on_its_day else first[0]
    stretch = list(tx.read(name, upto=ctx.upto, from_day=from_day, fold_order=True, payload_if=_read))
    # Only a void recorded after the stretch's earliest event can withdraw one of its events.
    earliest = min((e.position for e in stretch), default=ctx.upto)
    withdrawn = {v.payload["target"] for v in tx.read(name, types=[VOID], after=earliest, upto=ctx.upto)}
    recorded = [e for e in stretch if e.type != VOID and e.position not in withdrawn]
    base = ctx.world if on_its_day else replay.world_at(tx, name, Point(as_of=first[0] - 1), upto=ctx.upto)
    baseline = _Baseline(base, recorded)
    world = base
    for e in heapq.merge(recorded, facts, key=lambda e: (e.game_time, e.position)):
        if e.position in voided:
            continue
        checking = (e.game_time, e.position) >= first and _checked(e.type)
        problem = premises(world, e) if checking else None
        try:
            world = world_model.apply(world, e)
        except Unfoldable:  # what it acts on would not be there (any other error is a bug: it goes up)
            breaks.append((e, UNFOLDABLE))
            return breaks
        if checking and problem is None:
            problem = invariants(world, e)
        if problem is not None and not (e.position <= ctx.upto and baseline.broken_at(e)):
            breaks.append((e, problem))
            if stop:
                return breaks
    return breaks


class _Baseline:
    """The timeline as recorded, folded only as far as asked: a problem it
    already had (a ruling accepted it) is not the new fact's doing."""

    def __init__(self, world, recorded: list[Envelope]) -> None:
        self.world, self.events, self.next = world, recorded, 0

    def broken_at(self, target: Envelope) -> bool:
        while self.next < len(self.events):
            e = self.events[self.next]
            self.next += 1
            problem = premises(self.world, e) if e is target else None
            self.world = world_model.apply(self.world, e)
            if e is target:
                return (problem or invariants(self.world, e)) is not None
        return False


UNFOLDABLE = "what it acts on would no longer exist"


def checked(ctx, new_events: Sequence[NewEvent], ruling: Optional[str]) -> list[NewEvent]:
    """The events to append: as decided, refused if they break the timeline,
    or with the referee's ruling that accepts them anyway (naming every event
    it breaks, so a figure standing by it can say so: projections/rulings.py)."""
    new_events = list(new_events)
    if not new_events:
        return new_events
    # A roll derived from the epoch's seed is the next roll whatever it is for: a refusal that
    # followed from its outcome would show it before it counts (a peek, its number unused), so a
    # fact logged late (--game-date) that rolls one is refused or kept before its outcome is looked
    # at. (A session opened on a past day dates its own events, as it always has.)
    rolls = ctx.point.as_of is not None and _derived_rolls(new_events)
    if rolls and ruling is None and _recorded_after(ctx, new_events):
        raise RuleRefused("a fact logged late that rolls is checked against what was recorded after its day, "
                          "so a refusal would show its roll before the roll counts: give the faces rolled at "
                          "the table with --dice, or repeat the command with --ruling \"why\" to keep the roll "
                          "whatever it breaks; nothing was written")
    found = every_break(ctx, new_events, stop=ruling is None)
    if not found:
        if ruling is None:
            return new_events
        if not rolls or not _recorded_after(ctx, new_events):
            raise RuleRefused("--ruling accepts a fact that breaks a later event, and this one breaks none: "
                              "repeat the command without --ruling")
        # else: a derived roll the ruling keeps whatever it breaks, which is nothing: recorded with it
    else:
        e, problem = found[0]
        where = _where(ctx, e)
        if found[-1][1] is UNFOLDABLE and found[-1][0].position <= ctx.upto:
            # No ruling can accept this one: every later command would fail to fold the campaign.
            e, problem = found[-1]
            raise RuleRefused(f"this would break {_where(ctx, e)}: {problem}, and the ledger could no longer be "
                              f"folded. Void event {e.position} first; nothing was written")
        if ruling is None:
            raise RuleRefused(
                f"this would break {where}: {problem}. Void event {e.position} and record it again, or repeat "
                f"the command with --ruling \"why\" to accept it; nothing was written"
                if e.position <= ctx.upto else f"this would break {where}: {problem}; nothing was written")
    from ledger.events.campaign import RulingRecorded  # here: most commands record no ruling (issue 29)

    first = new_events[0]
    breaks = "; ".join(f"{_where(ctx, b)}: {p}" for b, p in found)
    return new_events + [NewEvent(first.stream, RulingRecorded(ruling=ruling, breaks=breaks,
                                                               broken=[b.position for b, _ in found],
                                                               ruled_by=ctx.actor),
                                  game_time=first.game_time, session=first.session, cause=Pending(0))]


def _derived_rolls(new_events: Sequence[NewEvent]) -> bool:
    """Whether the events hold a roll derived from the epoch's seed (not faces given by hand)."""
    return any(e.event.type_name() == "dice.rolled" and getattr(e.event, "nonce", None) is not None
               for e in new_events)


def _recorded_after(ctx, new_events: Sequence[NewEvent]) -> bool:
    """Whether anything is recorded for a day after the earliest the new events fall on: what
    ``every_break`` checks them against (known before any roll: the days are the command's)."""
    first = min(e.game_time for e in new_events)
    return next(ctx.tx.read(ctx.name, upto=ctx.upto, from_day=first + 1, limit=1, payload_if=lambda _: False),
                None) is not None


def _where(ctx, e: Envelope) -> str:
    day = ctx.campaign.calendar.format(e.game_time)
    return "this fact itself" if e.position > ctx.upto else f"event {e.position} ({e.type}, {day})"
