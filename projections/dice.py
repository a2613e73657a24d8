"""The dice read model: epochs, their commitments, client seeds and rolls.

Folded in position order over every recorded event, voided ones included:
a voided roll still used its nonce, and the audit still checks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from ledger.envelope import Envelope
from projections.frozen import replace


@dataclass(frozen=True)
class Epoch:
    number: int
    commitment: str
    committed_at: int
    client_seed: str = ""
    nonces: int = 0  # derived rolls so far: the next roll's n
    hand_rolls: int = 0
    seed: Optional[str] = None
    revealed_at: Optional[int] = None
    rolls: tuple[int, ...] = ()  # positions of dice.rolled events

    @property
    def open(self) -> bool:
        return self.seed is None


@dataclass(frozen=True)
class DiceState:
    epochs: tuple[Epoch, ...] = ()

    @property
    def current(self) -> Optional[Epoch]:
        return self.epochs[-1] if self.epochs and self.epochs[-1].open else None

    def epoch(self, number: int) -> Optional[Epoch]:
        return next((e for e in self.epochs if e.number == number), None)


def _update(state: DiceState, number: int, **changes) -> DiceState:
    last = state.epochs[-1] if state.epochs else None
    if last is not None and last.number == number:  # nearly always: the open epoch
        return DiceState(state.epochs[:-1] + (replace(last, **changes),))
    return DiceState(tuple(replace(e, **changes) if e.number == number else e for e in state.epochs))


def apply(state: DiceState, envelope: Envelope) -> DiceState:
    p = envelope.payload
    if envelope.type == "dice.committed":
        return DiceState(state.epochs + (Epoch(p["epoch"], p["commitment"], envelope.position),))
    if envelope.type == "dice.client_seed_set":
        return _update(state, p["epoch"], client_seed=p["client_seed"])
    if envelope.type == "dice.revealed":
        return _update(state, p["epoch"], seed=p["seed"], revealed_at=envelope.position)
    if envelope.type == "dice.rolled":
        epoch = state.epoch(p["epoch"])
        if epoch is None:
            return state
        if p["verifiable"]:
            return _update(state, epoch.number, nonces=epoch.nonces + 1,
                           rolls=epoch.rolls + (envelope.position,))
        return _update(state, epoch.number, hand_rolls=epoch.hand_rolls + 1,
                       rolls=epoch.rolls + (envelope.position,))
    return state


def fold(envelopes: Iterable[Envelope]) -> DiceState:
    state = DiceState()
    for envelope in envelopes:
        state = apply(state, envelope)
    return state
