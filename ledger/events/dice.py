"""Events of the auditable dice (DESIGN.md §4)."""

from typing import ClassVar, Literal, Optional

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
    schema_version: ClassVar[int] = 2
    expression: str
    dice: list[int]
    total: int
    epoch: int
    nonce: Optional[int]
    verifiable: bool
    character: Optional[str] = None
    why: Optional[str] = None
    # Schema 2, a roll brought in from another tool (tally import-rolls): where
    # from, its id there, who rolled it as that tool named them, when (UTC),
    # which faces did not count, and a total that is not whole, kept as written
    # (``total`` then holds its whole part).
    source: Optional[str] = None
    source_id: Optional[str] = None
    speaker: Optional[str] = None
    rolled_at: Optional[str] = None
    dropped: list[int] = []
    exact_total: Optional[str] = None
