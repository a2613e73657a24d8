"""Where a decision's rolls come from, so that deciding needs no transaction:
hand-rolled faces read in order (``--dice``, and the rule tests), or the
open epoch's derived rolls (``commands.dice.EpochDice``, which reads the
epoch's secret seed in the transaction that records them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Protocol, Sequence, Union

from ledger.dice.expression import Expression
from ledger.errors import BadInput


@dataclass(frozen=True)
class Rolled:
    """One roll as a dice.rolled event records it."""

    faces: list[int]
    total: int
    epoch: int
    nonce: Optional[int]  # its place in the epoch's derivation; None for a hand roll
    verifiable: bool


class Dice(Protocol):
    derived: int  # rolls derived from the epoch's seed so far: the next one's nonce offset

    def roll(self, expression: Expression, text: str, why: Optional[str]) -> Rolled:
        """The next roll of ``expression`` (``text``, as the decision wrote it, names it in a refusal)."""

    def left(self) -> int:
        """Faces given and not yet read."""


class Faces:
    """Faces rolled by hand, read in order: each roll takes as many as it
    needs (an explosion or a reroll reads as many as the faces themselves
    call for), and a decision must use every one (``left``). Recorded as hand
    rolls, not verifiable, in ``epoch`` (a number, or how to find it when
    the first roll is made)."""

    derived = 0

    def __init__(self, faces: Sequence[int], epoch: Union[int, Callable[[], int]] = 1) -> None:
        self.faces = list(faces)
        self._epoch = epoch

    def roll(self, expression: Expression, text: str, why: Optional[str]) -> Rolled:
        needed = expression.faces_needed(self.faces)
        if needed is None:
            need = f"{expression.dice_count} face(s)" if expression.fixed else "more face(s)"
            raise BadInput(
                f"--dice ran out: {text} ({why or 'roll'}) needs {need}, "
                f"{len(self.faces)} left; give every die of every roll in order"
            )
        taken, self.faces = self.faces[:needed], self.faces[needed:]
        epoch = self._epoch() if callable(self._epoch) else self._epoch
        reading = expression.hand(taken)
        return Rolled(list(reading.faces), reading.total, epoch, None, False)

    def left(self) -> int:
        return len(self.faces)


class NoDice:
    """For a decision that rolls nothing: a roll asked of it is a bug."""

    derived = 0

    def roll(self, expression: Expression, text: str, why: Optional[str]) -> Rolled:
        raise RuntimeError(f"a decision given no dice rolled {text} ({why})")

    def left(self) -> int:
        return 0
