"""Tests from the sheet (`tally test`): a roll whose dice, modifiers and
target come from the character's sheet, recorded with what made them up."""

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict

from ledger.events.dice import RollChecked
from ledger.events.registry import EventModel, register


class Part(BaseModel):
    """One line of a test's make-up: dice of a pool (004), or points added to a total or a score."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    what: str
    value: int


@register
class TraitTested(EventModel):
    """A Skill, Save, attribute or test rolled from the sheet: the ruleset whose
    test it is and the seed lines it follows, the pool's or the modifier's
    make-up (``parts``, in units of ``unit``), the roll as read, the total
    checked against the target (pass or fail, the margin, the band), and the
    settings it read."""

    type: Literal["trait.tested"] = "trait.tested"
    character: str
    rules: Literal["coeac", "xp", "skirmish", "wolves"]
    kind: Literal["skill", "save", "attribute", "test"]
    trait: str
    seed: str  # the seed lines the test follows
    unit: Literal["dice", "points"]
    parts: list[Part]
    expression: str
    natural: int  # the dice as read: successes of a pool, or the sum
    total: int  # what is checked: the natural with the modifiers (a 002 snake eyes or box-cars stands)
    check: RollChecked
    result: Optional[str] = None  # 002's skill table (l.168-173)
    from_boons: Optional[int] = None  # 004: points of the rating that Boons bought
    aid_by: list[str] = []
    # The sheet's figures the test was formed from (a Skill's rating, an attribute's score, hero
    # stats, characteristics): a fact logged late that changes one breaks this test's premise.
    sheet: dict[str, int] = {}
    settings: dict[str, str] = {}
    why: Optional[str] = None
