"""Experience, levels and vows (seed 002)."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class XpAwarded(EventModel):
    type: Literal["xp.awarded"] = "xp.awarded"
    character: str
    amount: int
    source: str  # referee | treasure | vow
    why: str
    treasure: Optional[int] = None  # units of treasure behind a treasure award
    vow_open: bool = False
    rounding: Optional[str] = None  # vow_rounding used when halving


@register
class LevelAttained(EventModel):
    type: Literal["level.attained"] = "level.attained"
    character: str
    level: int
    benefit: str


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
