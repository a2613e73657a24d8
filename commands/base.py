"""What every command needs besides the campaign as it reads (projections/
reading.py): one way to append its decision — load, decide, check along the
timeline, append, in one transaction — and the checks of the names and
text it records."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional, Sequence, Union

from commands import late_facts
from ledger import text
from ledger.envelope import Envelope, NewEvent
from ledger.errors import NotFound, RuleRefused
from ledger.names import key, nearest
from ledger.store import Store
from projections import replay
from commands.state import State
from projections.reading import Context, load
from projections.stable import Character

# What the helpers below read: a decision's State, or the Context of a command
# that reads the log itself (a session's reveal, a luck re-roll) and decides against it.
Reads = Union[State, Context]


def record(store: Store, name: Optional[str], actor: str,
           decide: Callable[[Context], Sequence[NewEvent]], *, game_date: Optional[str] = None,
           ruling: Optional[str] = None,
           then: Optional[Callable[[Context, list[Envelope]], Sequence[NewEvent]]] = None) -> list[Envelope]:
    """Load, decide, check along the timeline, append — one transaction, all
    or nothing. ``game_date`` logs a fact late: the command decides against
    the campaign as it stood that day, and whatever was recorded for later
    days must still hold with it (commands/late_facts.py) unless the
    referee's ``ruling`` accepts it.

    The transaction holds the write lock from before the load, so the stream
    versions the store assigns are the ones the decision was taken against.
    ``then``: events that follow from what was appended (a checkpoint signed
    over it), appended after it in the same transaction."""
    if ruling is not None:
        ruling = clean_text(ruling, "--ruling")
    with store.transaction() as tx:
        ctx = load(tx, name, actor, game_date=game_date)
        # Everything recorded while a session is open belongs to it.
        new_events = [e if e.session is not None else replace(e, session=ctx.session_number)
                      for e in decide(ctx)]
        new_events = late_facts.checked(ctx, new_events, ruling)
        appended = tx.append(ctx.name, new_events, actor=actor)
        if then is not None and appended:
            appended += tx.append(ctx.name, [replace(e, session=ctx.session_number) for e in then(ctx, appended)],
                                  actor=actor)
        if appended:  # derived data, in the same transaction
            replay.take_due_snapshot(tx, ctx.name, appended)
        return appended


def record_one(store: Store, name: Optional[str], actor: str, decide: Callable[[Context], NewEvent], *,
               game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    """``record`` for a command that decides a single event."""
    return record(store, name, actor, lambda ctx: [decide(ctx)], game_date=game_date, ruling=ruling)[0]


def clean_text(value: str, what: str, limit: int = text.REASON_LIMIT) -> str:
    """One line of free text (a reason, a label): see ledger/text.py."""
    return text.check_text(value, what, limit)


def clean_name(value: str, what: str) -> str:
    """A name (a player, character, faction, stronghold…): see ledger/text.py."""
    return text.check_name(value, what)


def character_stream(name: str) -> str:
    return f"character:{key(name)}"


def player_stream(name: str) -> str:
    return f"player:{key(name)}"


def find_character(state: Reads, name: str, *, active: bool = True) -> Character:
    character = state.world.stable.character(name)
    if character is None:
        near = nearest(name, [c.name for c in state.world.stable.characters.values() if c.status == "active"])
        meant = f": did you mean {near}?" if near else ""
        raise NotFound(f"no character named {name!r} in campaign {state.name}{meant} (see `tally char list`)")
    if active and character.status != "active":
        raise RuleRefused(f"{character.name} is {character.status}: only active characters can do that")
    return character


def acting(state: Reads, name: str) -> Character:
    """An active character who may act now: during a session, only the activated ones."""
    state.require("coeac")
    character = find_character(state, name)
    activated(state, character)
    return character


def activated(state: Reads, character: Character) -> None:
    """004 l.496: during a session only the activated characters act; "the other characters in the stable
    are considered to be occupied doing something else"."""
    if state.session is not None and not state.session.is_activated(character.name):
        raise RuleRefused(
            f"{character.name} is not activated in session {state.session.number}: the others in the stable "
            "are busy elsewhere (004 l.496)"
        )
