"""Wolves Upon the Coast (seed 000): outfitting, silver, companions,
hirelings, boasts and ships."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class Outfitted(EventModel):
    """A new character's rolled start (l.26-56): what was bought and what was lost."""

    type: Literal["wolves.outfitted"] = "wolves.outfitted"
    character: str
    strength: int
    agility: int
    constitution: int
    hit_dice: int
    hp: int
    attack_bonus: int
    languages: int
    hacksilver: int
    spent: dict[str, int]
    lost: int  # "Anything not spent is lost."


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
    character: str
    name: str
    why: str


@register
class HirelingHired(EventModel):
    type: Literal["hireling.hired"] = "hireling.hired"
    character: str
    name: str
    kind: str
    wage: int  # sp a day


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
    character: str
    boast: str
    reward: str  # hit_dice | attack_bonus
    bonus: int  # 1, plus one per complication a rival added
    raised_by: Optional[str] = None
    complications: int = 0


@register
class BoastResolved(EventModel):
    type: Literal["boast.resolved"] = "boast.resolved"
    character: str
    boast: str
    outcome: str  # kept | failed | shirked
    reward: str
    bonus: int
    kept: bool


@register
class ShipAcquired(EventModel):
    type: Literal["ship.acquired"] = "ship.acquired"
    name: str
    kind: str
    value: int
    rowers: int
    food_days: int
    how: str
