"""Wolves Upon the Coast (seed 000): outfitting, silver, companions,
hirelings, boasts and ships."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class Outfitted(EventModel):
    """A new character's rolled start (l.25-56): what was bought and what was lost."""

    type: Literal["wolves.outfitted"] = "wolves.outfitted"
    schema_version = 2
    character: str
    strength: int
    agility: int
    constitution: int
    hit_dice: int
    hp: int
    attack_bonus: int
    languages: int  # known
    hacksilver: int
    spent: dict[str, int]  # item (xN) -> sp
    lost: int  # "Anything not spent is lost."
    stated: list[str] = []  # the items bought at a price the referee stated, not the list's
    languages_die: Optional[int] = None  # the d6 halved (schema 1 rolled 1d6/2 and kept only the result)
    languages_rounding: str = "up"  # setting languages_rounding in force
    half_known: int = 0  # languages 'half known' (l.52), under languages_rounding=halves


@register
class EquipmentBought(EventModel):
    """Equipment bought after the start, with silver pennies, at the seed's prices (l.64-153)."""

    type: Literal["equipment.bought"] = "equipment.bought"
    character: str
    spent: dict[str, int]
    stated: list[str]
    total: int


@register
class SilverChanged(EventModel):
    type: Literal["silver.changed"] = "silver.changed"
    character: str
    delta: int
    why: str


@register
class CompanionJoined(EventModel):
    type: Literal["companion.joined"] = "companion.joined"
    character: str
    name: str
    allowed: int  # companions the character's silver supports at the time


@register
class CompanionLeft(EventModel):
    type: Literal["companion.left"] = "companion.left"
    schema_version = 2
    character: str
    name: str
    why: str
    # When the silver no longer supports them (l.248): how many it supports, and companion_upkeep in force.
    supported: Optional[int] = None
    upkeep: Optional[str] = None


@register
class HirelingHired(EventModel):
    type: Literal["hireling.hired"] = "hireling.hired"
    schema_version = 2
    character: str
    name: str
    kind: str
    wage: int  # sp a day
    # "As many as can be paid may be hired" (l.250): the silver held, the wages owed then, and
    # hire_cover_days in force (days of every wage in service the silver had to cover). Schema 1: None.
    silver: Optional[int] = None
    owed: Optional[int] = None
    cover_days: Optional[int] = None


@register
class HirelingDismissed(EventModel):
    type: Literal["hireling.dismissed"] = "hireling.dismissed"
    character: str
    name: str
    days: int
    wages_due: int


@register
class WagesPaid(EventModel):
    type: Literal["wages.paid"] = "wages.paid"
    character: str
    amount: int


@register
class BoastMade(EventModel):
    type: Literal["boast.made"] = "boast.made"
    schema_version = 2
    character: str
    boast: str
    reward: str  # hit_dice | attack_bonus
    bonus: int  # 1, plus one per complication a rival added
    raised_by: Optional[str] = None
    complications: int = 0
    hp: int = 0  # HP the Hit Dice of a hit_dice reward rolled (l.49)
    passed_from: Optional[str] = None  # the boaster who refused the raised boast (l.270)


@register
class BoastPassed(EventModel):
    """A boaster refused the stakes a rival raised: the rival takes up the boast (l.270)."""

    type: Literal["boast.passed"] = "boast.passed"
    character: str
    boast: str
    to: str
    reward: str
    complications: int


@register
class BoastResolved(EventModel):
    type: Literal["boast.resolved"] = "boast.resolved"
    schema_version = 2
    character: str
    boast: str
    outcome: str  # kept | failed | shirked
    reward: str
    bonus: int
    kept: bool
    hp: int = 0  # the HP the boast's Hit Dice rolled: kept with them, or lost with them


@register
class ShipAcquired(EventModel):
    type: Literal["ship.acquired"] = "ship.acquired"
    schema_version = 2
    name: str
    kind: str
    value: int  # the ransom (l.300)
    rowers: int
    food_days: int
    how: str
    price: int = 0  # sp paid: a new ship costs three times its value (l.300); 0 when taken
    by: Optional[str] = None  # the character who paid


@register
class ShipLost(EventModel):
    """A ship of the band's lost: sunk in a storm or a fight, burned, taken (000 l.325-391)."""

    type: Literal["ship.lost"] = "ship.lost"
    name: str
    kind: str
    why: str


@register
class LevelHitDieRolled(EventModel):
    """In a campaign under the xp rules as well, a level attained brings its Hit Die (002 l.103: "one per
    level"), a d6 rolled for HP (000 l.49): the same count the character began with and boasts add to."""

    type: Literal["wolves.level_hit_die"] = "wolves.level_hit_die"
    character: str
    level: int
    hp: int
