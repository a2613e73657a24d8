"""Building one command's events: several rolls and the facts that follow
from them, with causes pointing at the rolls, appended together."""

from __future__ import annotations

from typing import Optional

from commands.base import clean_name, clean_text
from commands.dice import epoch_stream
from commands.dice_sources import Dice, NoDice
from ledger.dice.expression import parse
from ledger.envelope import NewEvent, Pending
from ledger.errors import BadInput
from ledger.events.dice import DiceRolled
from ledger.events.registry import EventModel


class Batch:
    """Events for one transaction, decided against ``state`` (commands/state.py;
    the command's Context reads the same way). Rolls come from ``dice``: the
    epoch's derived rolls, or hand-rolled faces (commands/dice_sources.py)."""

    def __init__(self, state, dice: Optional[Dice] = None, game_time: Optional[int] = None) -> None:
        self.state = state
        self.dice = dice if dice is not None else NoDice()
        self.events: list[NewEvent] = []
        self.game_time = state.today if game_time is None else game_time
        self.session = state.session_number

    @property
    def derived(self) -> int:
        """Rolls derived from the epoch's seed in this batch (a reveal in it counts them)."""
        return self.dice.derived

    def add(self, stream: str, event: EventModel, cause=None) -> Pending:
        self.events.append(NewEvent(stream, event, game_time=self.game_time, session=self.session,
                                    cause=cause))
        return Pending(len(self.events) - 1)

    def roll(self, expression: str, *, character: Optional[str] = None,
             why: Optional[str] = None) -> tuple[Pending, list[int], int]:
        parsed = parse(expression)
        rolled = self.dice.roll(parsed, expression, why)
        event = DiceRolled(
            expression=parsed.text, dice=rolled.faces, total=rolled.total, epoch=rolled.epoch, nonce=rolled.nonce,
            verifiable=rolled.verifiable,
            character=clean_name(character, "--for") if character else None,
            why=clean_text(why, "--why") if why else None,
        )
        self.events.append(NewEvent(epoch_stream(rolled.epoch), event, game_time=self.game_time,
                                    session=self.session))
        return Pending(len(self.events) - 1), event.dice, event.total

    def done(self) -> list[NewEvent]:
        left = self.dice.left()
        if left:
            raise BadInput(f"--dice gave {left} face(s) more than the rolls needed")
        return self.events
