"""A god's favour (seed 001 l.741-978). Prayer events record the table cell,
every modifier and every die, so a reader needs no table to follow them."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class GodAdopted(EventModel):
    type: Literal["god.adopted"] = "god.adopted"
    character: str
    god: str
    power: int
    alignment: str
    flatterable: bool  # fixed before play (l.851)
    sacrifice: str  # what the god demands, fixed before play (l.907)


@register
class BlackMarkGiven(EventModel):
    """One more black mark; the fold counts them."""

    type: Literal["god.black_mark"] = "god.black_mark"
    schema_version = 2
    character: str
    why: str


@register
class WarningGiven(EventModel):
    type: Literal["god.warning"] = "god.warning"
    character: str
    why: str


@register
class GreyMarksGiven(EventModel):
    type: Literal["god.grey_marks"] = "god.grey_marks"
    character: str
    count: int
    why: str


@register
class PrayerMade(EventModel):
    type: Literal["god.prayed"] = "god.prayed"
    character: str
    god: str
    power: int
    black: int
    grey: int
    table_chance: Optional[int]  # Table 2.3's cell; None is X (never answered)
    modifiers: dict[str, int]
    chance: int  # after modifiers (and halving, for an excessive request)
    excessive: bool
    backfire_chance: int
    outcome: str  # answered | refused | backfired | unanswerable
    table_grade: Optional[int] = None
    grade: Optional[int] = None
    percent: Optional[int] = None  # of the request delivered
    inconvenient: Optional[bool] = None  # free hand: help in an inconvenient form


@register
class CrawlingPrayerMade(EventModel):
    type: Literal["god.crawled"] = "god.crawled"
    character: str
    power: int
    prayers_last_week: int
    table_chance: Optional[int]
    thanks: bool
    chance: int
    accepted: bool
    effect: str  # removed_black_mark | banked_bonus | none
    bonus: int = 0


@register
class RepentanceMade(EventModel):
    type: Literal["god.repented"] = "god.repented"
    character: str
    black: int
    power: int
    effective_power: int  # PR + 3 (max 10) after a relapse
    needs: Optional[int]  # the least d6 believed; None is X
    die: Optional[int]
    accepted: bool


@register
class SacrificeMade(EventModel):
    type: Literal["god.sacrificed"] = "god.sacrificed"
    character: str
    black: int
    grey: int
    why: str


@register
class PunishmentChecked(EventModel):
    type: Literal["god.punishment_checked"] = "god.punishment_checked"
    character: str
    black: int
    threshold: int
    roll: int
    punished: bool


@register
class GodsBattled(EventModel):
    """l.933-962: each god's d% must exceed its Table 2.9 cell; both or
    neither winning is a draw, and the battle goes on."""

    type: Literal["god.battle"] = "god.battle"
    character: str
    opponent: str
    god: str
    opponent_god: str
    needs: int  # the character's god must roll above this
    opponent_needs: int
    rounds: list[list[int]]  # [character's god's d%, opponent god's d%] per round
    winner: str  # the character whose god won
    penalty: str  # on the loser's worshipper
