"""Events of the auditable dice (DESIGN.md §4)."""

from typing import ClassVar, Literal, Optional

from pydantic import BaseModel, ConfigDict

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


class RollChecked(BaseModel):
    """A roll's total against its target (ledger/dice/check.py): the
    comparison used (``--under`` recorded as the reading then in force),
    the target, pass or fail, the margin (positive toward passing) and the
    band, if a margin for one was given."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    against: Literal["below", "at_most", "at_least", "above", "ob"]
    target: int
    passed: bool
    margin: int
    epic: Optional[int] = None
    band: Optional[Literal["epic success", "epic failure"]] = None


class RolledOn(BaseModel):
    """The sealed table a roll was made on (`tally roll --on LABEL`): its label
    and the commitment it was sealed with, so the line the total picks is
    fixed before the dice fall and shown once the table is revealed."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    label: str
    commitment: str


@register
class DiceRolled(EventModel):
    """A roll: every face read, in derivation order (docs/dice.md), and the
    total. Schema 2 adds where a roll brought in from another tool came from,
    and ``check`` (None for a roll with no target); schema 3 ``on``, the
    sealed table it was rolled on (None for most rolls).

    A roll at the table records this payload through the plain record in
    ledger/events/rolled.py (no Pydantic at a cold start): a field added here
    goes there too, or tests/test_rolled.py fails."""

    type: Literal["dice.rolled"] = "dice.rolled"
    schema_version: ClassVar[int] = 3
    expression: str
    dice: list[int]
    total: int
    epoch: int
    nonce: Optional[int]
    verifiable: bool
    character: Optional[str] = None
    why: Optional[str] = None
    # A roll brought in from another tool (tally import-rolls): where
    # from, its id there, who rolled it as that tool named them, when (UTC),
    # which faces did not count, and a total that is not whole, kept as written
    # (``total`` then holds its whole part).
    source: Optional[str] = None
    source_id: Optional[str] = None
    speaker: Optional[str] = None
    rolled_at: Optional[str] = None
    dropped: list[int] = []
    exact_total: Optional[str] = None
    check: Optional[RollChecked] = None
    on: Optional[RolledOn] = None
