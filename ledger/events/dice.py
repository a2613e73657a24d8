"""Events of the auditable dice (DESIGN.md §4)."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class EpochCommitted(EventModel):
    """An epoch opened: only the commitment C = SHA-256(S) is public."""

    type: Literal["dice.committed"] = "dice.committed"
    epoch: int
    commitment: str
    # The session this epoch covers, or None for downtime (DESIGN.md §4).
    session: Optional[int] = None


@register
class ClientSeedSet(EventModel):
    type: Literal["dice.client_seed_set"] = "dice.client_seed_set"
    epoch: int
    client_seed: str


@register
class EpochRevealed(EventModel):
    type: Literal["dice.revealed"] = "dice.revealed"
    epoch: int
    commitment: str
    seed: str
    client_seed: str
    rolls: int


@register
class DiceRolled(EventModel):
    type: Literal["dice.rolled"] = "dice.rolled"
    expression: str
    dice: list[int]
    total: int
    epoch: int
    nonce: Optional[int]
    verifiable: bool
    character: Optional[str] = None
    why: Optional[str] = None
