"""Building one command's events: several rolls and the facts that follow
from them, with causes pointing at the rolls, appended together."""

from __future__ import annotations

from typing import Optional, Sequence

from projections.reading import Context
from commands.dice import roll_event
from ledger.dice.expression import parse
from ledger.envelope import NewEvent, Pending
from ledger.errors import BadInput
from ledger.events.registry import EventModel


class Batch:
    """Events for one transaction. Rolls are derived from the epoch's seed,
    or — when the referee gives hand-rolled faces — read from those faces in
    order, every one of which must be used."""

    def __init__(self, ctx: Context, hand: Optional[Sequence[int]] = None,
                 game_time: Optional[int] = None) -> None:
        self.ctx = ctx
        self.events: list[NewEvent] = []
        self.hand = list(hand) if hand is not None else None
        self.game_time = ctx.today if game_time is None else game_time
        self.session = ctx.session_number
        self.derived = 0

    def add(self, stream: str, event: EventModel, cause=None) -> Pending:
        self.events.append(NewEvent(stream, event, game_time=self.game_time, session=self.session,
                                    cause=cause))
        return Pending(len(self.events) - 1)

    def roll(self, expression: str, *, character: Optional[str] = None,
             why: Optional[str] = None) -> tuple[Pending, list[int], int]:
        faces = None
        if self.hand is not None:
            # an explosion or a reroll reads as many faces as the faces themselves call for
            parsed = parse(expression)
            needed = parsed.faces_needed(self.hand)
            if needed is None:
                need = f"{parsed.dice_count} face(s)" if parsed.fixed else "more face(s)"
                raise BadInput(
                    f"--dice ran out: {expression} ({why or 'roll'}) needs {need}, "
                    f"{len(self.hand)} left; give every die of every roll in order"
                )
            faces, self.hand = self.hand[:needed], self.hand[needed:]
        new = roll_event(self.ctx, expression, character=character, why=why, hand=faces,
                         nonce_offset=self.derived, session=self.session)
        new = NewEvent(new.stream, new.event, game_time=self.game_time, session=self.session)
        if faces is None:
            self.derived += 1
        self.events.append(new)
        return Pending(len(self.events) - 1), new.event.dice, new.event.total

    def done(self) -> list[NewEvent]:
        if self.hand:
            raise BadInput(f"--dice gave {len(self.hand)} face(s) more than the rolls needed")
        return self.events
