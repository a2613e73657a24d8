"""Experience, levels and vows (seed 002)."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class XpAwarded(EventModel):
    type: Literal["xp.awarded"] = "xp.awarded"
    schema_version = 2
    character: str
    amount: int
    source: str  # referee | treasure | vow
    why: str
    treasure: Optional[int] = None  # units of treasure behind a treasure award
    vow_open: bool = False
    rounding: Optional[str] = None  # vow_rounding used when halving
    treasure_rule: Optional[str] = None  # schema 2: treasure_xp in force (seized | spent) for a treasure award


@register
class LevelAttained(EventModel):
    type: Literal["level.attained"] = "level.attained"
    character: str
    level: int
    benefit: str


@register
class LevelLost(EventModel):
    """XP taken away below the level's threshold (002 l.99-102): the level goes at once."""

    type: Literal["level.lost"] = "level.lost"
    character: str
    level: int  # the level now held
    from_level: int
    xp: int  # the XP it was decided on


@register
class HitDiceSpent(EventModel):
    """002 l.73-76: added to a save roll, or +1 to another roll; used up until restored."""

    type: Literal["hit_dice.spent"] = "hit_dice.spent"
    character: str
    count: int
    on: str  # save | roll
    why: str
    left: int  # hit dice unspent before (level less those spent)


@register
class HitDiceRestored(EventModel):
    """002 l.194-195: all in safe time; one a turn of adventure time on a successful CON roll."""

    type: Literal["hit_dice.restored"] = "hit_dice.restored"
    character: str
    count: int
    how: str  # safe_time | con_roll


@register
class ExpertiseGained(EventModel):
    """002 l.94-95: an area of expertise, tied to one attribute for good."""

    type: Literal["expertise.gained"] = "expertise.gained"
    character: str
    area: str
    attribute: str
    claims: int  # areas the character may hold (first, odd levels, skill rolls of 12), this one counted
    held: int  # areas held before this one


@register
class SkillRolled(EventModel):
    """002 l.160-179: 2D6 + modifiers, or 3D6 keep the best two with expertise."""

    type: Literal["skill.rolled"] = "skill.rolled"
    character: str
    attribute: str
    modifier: int
    expertise: Optional[str]  # the area applied (once per session, l.94)
    hit_die: bool  # one hit die spent for +1 (l.75)
    natural: int  # the two dice kept
    total: int  # after modifiers; a natural 2 or 12 stands (l.177-178)
    result: str  # catastrophe | failure | delay | success | extraordinary (12: new expertise, l.179)
    why: str
    period: str  # what the once-per-session expertise counts in


@register
class VowSworn(EventModel):
    type: Literal["vow.sworn"] = "vow.sworn"
    character: str
    vow: str


@register
class VowFulfilled(EventModel):
    type: Literal["vow.fulfilled"] = "vow.fulfilled"
    character: str
    vow: str
    xp: int
    rule: str  # vow_xp in force
    limit: str  # vow_limit in force
    counted_in: str  # the session, downtime or level the one-vow limit counts in


@register
class VowAbandoned(EventModel):
    type: Literal["vow.abandoned"] = "vow.abandoned"
    character: str
    vow: str


@register
class AttributesSet(EventModel):
    """002 l.21-24: the six attributes, "between 3 and 18" (3D6 in order); each
    gives its modifier (l.25-61) to a skill roll. ``before``: the scores replaced."""

    type: Literal["attributes.set"] = "attributes.set"
    character: str
    scores: dict[str, int]
    before: dict[str, int] = {}
    why: Optional[str] = None
