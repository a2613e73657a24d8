"""The dice read model: epochs, their commitments, client seeds and rolls.

Folded in position order over every recorded event, voided ones included:
a voided roll still used its nonce, and the audit still checks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from ledger.envelope import Envelope
from projections.frozen import replace
from projections.handlers import Table


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


def checked(check: dict | None) -> str:
    """A roll's check in words: ", below 12: pass, margin 3 (epic success)"."""
    if not check:
        return ""
    target = f"Ob {check['target']}" if check["against"] == "ob" else \
        f"{check['against'].replace('_', ' ')} {check['target']}"
    verdict = f"{'pass' if check['passed'] else 'fail'}, margin {check['margin']}"
    band = f" ({check['band']})" if check.get("band") else ""
    return f", {target}: {verdict}{band}"


def _roll_line(p: dict) -> str:
    who = f"{p['character']}: " if p.get("character") else f"{p['speaker']}: " if p.get("speaker") else ""
    how = f"n={p['nonce']}" if p["verifiable"] else (
        f"from {p['source']} at {p['rolled_at'] or 'an unknown time'}" if p.get("source") else "by hand")
    why = f" — {p['why']}" if p.get("why") else ""
    dropped = f" (dropped {[p['dice'][i] for i in p['dropped']]})" if p.get("dropped") else ""
    total = p.get("exact_total") or p["total"]
    on = f" on sealed table {p['on']['label']!r} ({p['on']['commitment'][:12]}…)" if p.get("on") else ""
    return f"{who}{p['expression']} {p['dice']}{dropped} = {total}{checked(p.get('check'))} ({how}){on}{why}"


TABLE = Table("dice")


@TABLE.on("dice.committed", line=lambda p: f"epoch {p['epoch']} opened, commitment {p['commitment'][:16]}…")
def _committed(state: DiceState, p: dict, e: Envelope) -> DiceState:
    return DiceState(state.epochs + (Epoch(p["epoch"], p["commitment"], e.position),))


@TABLE.on("dice.client_seed_set", line=lambda p: f"epoch {p['epoch']} client seed {p['client_seed']!r}")
def _client_seed(state: DiceState, p: dict, e: Envelope) -> DiceState:
    return _update(state, p["epoch"], client_seed=p["client_seed"])


@TABLE.on("dice.revealed",
          line=lambda p: f"epoch {p['epoch']} revealed after {p['rolls']} roll(s): seed {p['seed'][:16]}…")
def _revealed(state: DiceState, p: dict, e: Envelope) -> DiceState:
    return _update(state, p["epoch"], seed=p["seed"], revealed_at=e.position)


@TABLE.on("dice.rolled", line=_roll_line)
def _rolled(state: DiceState, p: dict, e: Envelope) -> DiceState:
    epoch = state.epoch(p["epoch"])
    if epoch is None:
        return state
    if p["verifiable"]:
        return _update(state, epoch.number, nonces=epoch.nonces + 1, rolls=epoch.rolls + (e.position,))
    return _update(state, epoch.number, hand_rolls=epoch.hand_rolls + 1, rolls=epoch.rolls + (e.position,))


apply = TABLE.apply


def fold(envelopes: Iterable[Envelope]) -> DiceState:
    state = DiceState()
    for envelope in envelopes:
        state = apply(state, envelope)
    return state
