"""The event envelope (DESIGN.md §1) and what an append asks for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

import msgspec

if TYPE_CHECKING:  # the models are imported only where events are recorded or decoded
    from ledger.events.registry import EventModel


class Envelope(msgspec.Struct, frozen=True, gc=False):
    """One recorded event as every reader sees it: the envelope's fields as
    stored, and the payload in its type's current schema (``schema`` is that
    schema). A payload recorded under an older one was lifted by the upcasters
    when the row was read (ledger/stored_rows.py ``envelope_from_row``), and
    ``upcast_from`` says which schema it was recorded under; the stored row,
    which the hash covers, is never rewritten (export writes it as stored)."""

    position: int
    campaign: str
    stream: str
    version: int
    type: str
    schema: int
    game_time: int
    recorded_at: str
    session: Optional[int]
    actor: str
    cause: Optional[int]
    payload: dict[str, Any]
    prev_hash: str
    hash: str
    upcast_from: Optional[int] = None

    # A msgspec struct, not a frozen dataclass: every event read builds one, and a
    # frozen dataclass sets each of its fifteen fields through object.__setattr__
    # (1.5 µs an envelope against 0.1). Untracked by the garbage collector: its
    # fields are plain data that can never refer back to it.

    def to_dict(self) -> dict[str, Any]:
        # Not dataclasses.asdict: that deep-copies every payload, and envelopes are read-only.
        fields = {name: getattr(self, name) for name in _FIELDS}
        if self.upcast_from is not None:
            fields["upcast_from"] = self.upcast_from
        return fields

    @property
    def event(self) -> EventModel:
        """The payload as its typed model (already in the current schema)."""
        from ledger.events.registry import decode

        return decode(self.type, self.schema, self.payload)


_FIELDS = tuple(name for name in Envelope.__struct_fields__ if name != "upcast_from")


@dataclass(frozen=True, slots=True)
class Pending:
    """A cause that points at an earlier event of the same append batch,
    whose position is not known until the store assigns it."""

    index: int


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event a command wants appended; the store fills in the rest."""

    stream: str
    event: EventModel
    game_time: int
    session: Optional[int] = None
    cause: Union[int, Pending, None] = None
