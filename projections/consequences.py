"""What followed from an event: the events it caused, and theirs in turn.

A void withdraws one event; what was decided on it (the Down and Out result
of a voided roll, the Boon that result gave) still stands until it is voided
too. This says which those are."""

from __future__ import annotations

from typing import Iterable

from ledger.envelope import Envelope
from projections.timeline import VOID, voided_positions


def consequences(later: Iterable[Envelope], position: int) -> list[Envelope]:
    """The events after ``position`` (given in position order) that follow from it,
    directly or through one another, and still stand."""
    later = list(later)
    withdrawn = voided_positions(later)
    causes, found = {position}, []
    for envelope in later:
        if envelope.type != VOID and envelope.cause in causes:
            causes.add(envelope.position)
            if envelope.position not in withdrawn:
                found.append(envelope)
    return found
