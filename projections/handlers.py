"""One table of handlers per read model: event type -> how the model folds
it, with, beside the fold, the event's one-line description and the premise
a fact logged late must keep.

Each read model declares its table once, over small fold functions::

    TABLE = Table("wolves")

    @TABLE.on("silver.changed", line=lambda p: f"{p['character']} {p['delta']:+d} sp: {p['why']}")
    def _silver(state, p, e):
        ...

Everything that used to be kept in lists beside the folds is derived from
the tables (projections/world.py, projections/describe.py): which models an
event is routed to, which events need their payload decoded, the line
`tally log` prints, and the premises the timeline check holds a late fact
to (commands/late_facts.py). tests/test_event_tables.py checks the tables
against the registry of event types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional

from ledger.envelope import Envelope
from ledger.errors import Unfoldable

# (state, payload, envelope) -> state: the payload is the envelope's, handed over
# because nearly every fold reads it; the envelope gives the day, position, session.
Fold = Callable[[Any, dict, Envelope], Any]
Line = Callable[[dict], str]
# (the world just before the event, its payload, its game day) -> what would
# no longer hold, in a few words, or None. A pure function of the world.
Premise = Callable[[Any, dict, int], Optional[str]]


@dataclass(frozen=True)
class Handler:
    fold: Fold
    line: Optional[Line] = None
    premise: Optional[Premise] = None


class Table:
    """A read model's handlers. ``otherwise`` is the fold of every event type
    the table does not name (the campaign's day and the open session's play
    see every event); a model without one is handed only the types it names."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.handlers: dict[str, Handler] = {}
        self.otherwise: Optional[Fold] = None
        self._folds: dict[str, Fold] = {}

    def on(self, event_type: str, *, line: Optional[Line] = None,
           premise: Optional[Premise] = None) -> Callable[[Fold], Fold]:
        """Decorator: the fold of one event type (stack it for a fold shared by several)."""
        def register(fold: Fold) -> Fold:
            self.add(event_type, fold, line=line, premise=premise)
            return fold
        return register

    def add(self, event_type: str, fold: Fold, *, line: Optional[Line] = None,
            premise: Optional[Premise] = None) -> None:
        if event_type in self.handlers:
            raise RuntimeError(f"the {self.model} table folds {event_type} twice")
        self.handlers[event_type] = Handler(fold, line, premise)
        self._folds[event_type] = fold

    def every_other(self, fold: Fold) -> Fold:
        """Decorator: the fold of every event type the table does not name."""
        if self.otherwise is not None:
            raise RuntimeError(f"the {self.model} table has two folds for every other event")
        self.otherwise = fold
        return fold

    @property
    def types(self) -> frozenset[str]:
        """The event types the table names (and reads the payload of)."""
        return frozenset(self.handlers)

    def fold_for(self, event_type: str) -> Optional[Fold]:
        """What folds an event of this type into the model, or None: the model is left as it is."""
        return self._folds.get(event_type, self.otherwise)

    def apply(self, state, e: Envelope):
        fold = self._folds.get(e.type, self.otherwise)
        return state if fold is None else fold(state, e.payload, e)


def lines(tables: Iterable[Table], described: Optional[dict[str, Line]] = None) -> dict[str, Line]:
    """Each event type's one line, from the one table that gives it (or the
    table of types described but folded by no model); two are an error."""
    found: dict[str, Line] = {}
    where: dict[str, str] = {}
    for name, entries in [(t.model, {k: h.line for k, h in t.handlers.items() if h.line})
                          for t in tables] + [("described-only", described or {})]:
        for event_type, line in entries.items():
            if event_type in found:
                raise RuntimeError(f"{event_type} is described twice: by {where[event_type]} and {name}")
            found[event_type], where[event_type] = line, name
    return found


def premises(tables: Iterable[Table]) -> dict[str, Premise]:
    """Each event type's premise, from the one table that gives it; two are an error."""
    found: dict[str, Premise] = {}
    for table in tables:
        for event_type, handler in table.handlers.items():
            if handler.premise is None:
                continue
            if event_type in found:
                raise RuntimeError(f"{event_type} has two premises (one in the {table.model} table)")
            found[event_type] = handler.premise
    return found


def with_period(periods: tuple[str, ...], period: str) -> tuple[str, ...]:
    """A set of periods (sessions, weeks) a read model keeps, with one more: a sorted tuple,
    not a frozenset, so a snapshot's bytes do not follow the process's string hashing."""
    return periods if period in periods else tuple(sorted((*periods, period)))


def entry(mapping: dict, k: str, what: str):
    """``mapping[k]`` for a fold: what an event acts on, or Unfoldable saying it is not there
    (a void withdrew it, or the event would now come before it)."""
    try:
        return mapping[k]
    except KeyError:
        raise Unfoldable(f"{what} is not there") from None
