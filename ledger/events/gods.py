"""A god's favour (seed 001 l.741-978). Prayer events record the table cell,
every modifier and every die, so a reader needs no table to follow them."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class AlignmentChosen(EventModel):
    """The character's own alignment (001 l.671, l.681-688), which its god's must match (l.755)."""

    type: Literal["alignment.chosen"] = "alignment.chosen"
    character: str
    alignment: str


@register
class GodAdopted(EventModel):
    type: Literal["god.adopted"] = "god.adopted"
    schema_version = 2
    character: str
    god: str
    power: int
    alignment: str
    flatterable: bool  # fixed before play (l.851)
    sacrifice: str  # what the god demands, fixed before play (l.907)
    # Schema 2: the worshipper's alignment it was matched against and god_adoption in force
    # (None: recorded before either was checked).
    character_alignment: Optional[str] = None
    adoption: Optional[str] = None


@register
class BlackMarkGiven(EventModel):
    """One more black mark; the fold counts them."""

    type: Literal["god.black_mark"] = "god.black_mark"
    schema_version = 3
    character: str
    why: str
    bonus_lost: int = 0  # schema 3: a banked crawling bonus the mark ends (crawl_bonus until_black_mark)


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
    schema_version = 2
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
    # answered | refused | backfired | unanswerable | joined (interfered with: the god joins in unasked)
    outcome: str
    table_grade: Optional[int] = None
    grade: Optional[int] = None
    percent: Optional[int] = None  # of the request delivered
    inconvenient: Optional[bool] = None  # free hand: help in an inconvenient form
    # Schema 2: the settings the plea was read under (None where they played no part).
    rounding: Optional[str] = None  # excessive_rounding, for an excessive plea
    crawl_bonus: Optional[str] = None  # crawl_bonus, when a banked bonus was added
    lifts_x: Optional[str] = None  # interference_lifts_x, for a plea against an X cell with interference


@register
class CrawlingPrayerMade(EventModel):
    type: Literal["god.crawled"] = "god.crawled"
    schema_version = 2
    character: str
    power: int
    prayers_last_week: int
    table_chance: Optional[int]
    thanks: bool
    chance: int
    accepted: bool
    effect: str  # removed_black_mark | banked_bonus | none
    bonus: int = 0
    stacking: str = "add"  # setting crawl_stacking: the bonus adds to one banked before, or replaces it


@register
class RepentanceMade(EventModel):
    type: Literal["god.repented"] = "god.repented"
    schema_version = 2
    character: str
    black: int
    power: int
    effective_power: int  # PR + 3 after a relapse (relapse_power)
    needs: Optional[int]  # the least d6 believed; None is X
    die: Optional[int]
    accepted: bool
    # Schema 2: the row read and the settings it was read under.
    grey: Optional[int]  # None: recorded before grey marks could count
    marks: int  # Table 2.7's row: black marks, or black and grey (repentance_marks)
    marks_rule: str
    beyond: str  # repentance_beyond_table
    relapse: str  # relapse_power


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
    schema_version = 2
    character: str
    black: int
    threshold: int
    roll: int
    punished: bool
    # Schema 2: why the check was made and at what chance: at or past the threshold
    # (l.925-929, 50%), or a relapse after repenting (l.905, relapse_punishment).
    reason: str  # threshold | relapse
    chance: int


@register
class PunishmentInflicted(EventModel):
    """l.931: what the punishment was; "the extent ... depends on the number of black marks"."""

    type: Literal["god.punished"] = "god.punished"
    character: str
    how: str
    severity: int  # the black marks the punishment was scaled by (those of the check)
    check: int  # the position of the check that called for it


@register
class GodsBattled(EventModel):
    """l.933-962: each god's d% must exceed its Table 2.9 cell; both or
    neither winning is a draw, and the battle goes on."""

    type: Literal["god.battle"] = "god.battle"
    schema_version = 2
    character: str
    opponent: str
    god: str
    opponent_god: str
    needs: int  # the character's god must roll above this
    opponent_needs: int
    rounds: list[list[int]]  # [character's god's d%, opponent god's d%] per round
    winner: str  # the character whose god won
    # Schema 2: who lost, the A.T. and D.T. it costs the loser's worshipper (l.956),
    # and the answered pleas that brought the battle on (l.935; None: recorded before).
    loser: str
    penalty: int
    plea: Optional[int] = None
    opponent_plea: Optional[int] = None


@register
class GodConverted(EventModel):
    """l.960-962: the loser of a battle of gods converted to the victor; "no
    convert is ever refused"."""

    type: Literal["god.converted"] = "god.converted"
    character: str
    battle: int  # the position of the battle lost
    from_god: str
    god: str
    power: int
    alignment: str
    flatterable: bool
    sacrifice: str
    marks: str  # conversion_marks in force: clear | keep
    black: int  # the marks held with the old god
    grey: int


@register
class PenaltyRecovered(EventModel):
    """l.956: a lost battle's A.T. and D.T. "regained as F.P.s", by rest."""

    type: Literal["god.recovered"] = "god.recovered"
    character: str
    penalty: int
    why: str
