"""The skirmish campaign rules (seed 003)."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class LuckChanged(EventModel):
    """A change of luck and the cap in force: the fold adds it, up to the cap."""

    type: Literal["luck.changed"] = "luck.changed"
    schema_version = 2
    character: str
    delta: int
    reason: str  # start | spent | regained
    cap: int  # luck_cap in force
    mode: Optional[str] = None  # spent: reroll | force_reroll
    roll: Optional[int] = None  # the position of the roll re-rolled


@register
class SkirmishLevelSet(EventModel):
    type: Literal["skirmish.level_set"] = "skirmish.level_set"
    character: str
    level: int
    why: str


@register
class WoundRolled(EventModel):
    type: Literal["wound.rolled"] = "wound.rolled"
    character: str
    wound: int  # the wound's number on the character, from 1
    total: int
    result: str  # open | leg | left_arm | right_arm | recovered


@register
class HealingAttempted(EventModel):
    type: Literal["wound.healing"] = "wound.healing"
    character: str
    wound: int
    natural: int
    bonus: int
    total: int
    result: str  # mistake | no_effect | healed | healed_clean


@register
class OpenWoundChecked(EventModel):
    type: Literal["wound.open_checked"] = "wound.open_checked"
    character: str
    wound: int
    die: int
    died: bool


@register
class RenownChanged(EventModel):
    type: Literal["renown.changed"] = "renown.changed"
    character: str
    delta: int
    why: str


@register
class ClothingWorn(EventModel):
    type: Literal["clothing.worn"] = "clothing.worn"
    character: str
    clothing: str
    renown_modifier: int
