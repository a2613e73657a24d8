"""The skirmish campaign rules (seed 003)."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class LuckChanged(EventModel):
    """A change of luck and the cap in force: the fold adds it, up to the cap."""

    type: Literal["luck.changed"] = "luck.changed"
    schema_version = 3
    character: str
    delta: int
    reason: str  # start | spent | regained
    cap: int  # luck_cap in force
    mode: Optional[str] = None  # spent: reroll | force_reroll
    roll: Optional[int] = None  # the position of the roll re-rolled; the re-roll is the event's cause
    rerolls: Optional[str] = None  # spent: setting luck_rerolls in force (schema 2 re-rolled nothing itself)


@register
class SkirmishLevelSet(EventModel):
    type: Literal["skirmish.level_set"] = "skirmish.level_set"
    schema_version = 2
    character: str
    level: int
    why: str
    # What the new level allows (003 l.322), from stat_caps and skill_allowance; None: no limit set.
    stat_cap: Optional[int] = None
    skill_allowance: Optional[int] = None


@register
class SkirmishStatSet(EventModel):
    type: Literal["skirmish.stat_set"] = "skirmish.stat_set"
    character: str
    stat: str
    value: int
    level: int  # the character's level when it was set
    cap: Optional[int]  # that level's cap (setting stat_caps), None: no cap
    why: str = ""


@register
class SkirmishSkillSet(EventModel):
    type: Literal["skirmish.skill_set"] = "skirmish.skill_set"
    character: str
    skill: str
    rating: int  # the skill's level, 1-6 (l.348)
    level: int  # the character's level
    allowance: Optional[int]  # different skills that level allows (setting skill_allowance), None: no limit
    why: str = ""


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
    schema_version = 2
    character: str
    wound: int
    natural: int
    bonus: int
    total: int
    result: str  # mistake | no_effect | healed | healed_clean
    # The healer, their healing skill and the skill_bonus ladder that made the bonus (l.132, l.348);
    # schema 1 took a bonus as given: None.
    healer: Optional[str] = None
    skill: Optional[int] = None
    ladder: Optional[str] = None


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
    schema_version = 2
    character: str
    clothing: str
    renown_modifier: int
    movement_modifier: int = 0  # armour: -1 M (l.435)
    deadliness_modifier: int = 0  # armour: -1 to the deadliness of weapons against the wearer (l.435)
