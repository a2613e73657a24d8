"""The open-table economy and its hazards (seed 004). Each event records the
figures used (Ob, pool, rule in force), so no reader needs the rules."""

from typing import Literal, Optional

from ledger.events.registry import EventModel, register


@register
class IncomeRolled(EventModel):
    type: Literal["income.rolled"] = "income.rolled"
    character: str
    wealth_dice: int
    economy_dice: int
    successes: int


@register
class WealthAttempted(EventModel):
    """A success raises Wealth one rank from what it is when folded;
    ``rank_from`` is the premise the Ob was set on (checked along the
    timeline when a fact is logged late)."""

    type: Literal["wealth.attempted"] = "wealth.attempted"
    schema_version = 3
    character: str
    rank_from: int
    ob: int
    wager: int
    successes: int
    succeeded: bool
    period: str  # what the once-only limit counts in: "session 3" (from its opening to the next's) or an epoch
    limit: str  # attempt_limit in force: session | epoch


@register
class ItemBought(EventModel):
    type: Literal["item.bought"] = "item.bought"
    character: str
    item: str
    cost: int
    scarcity: bool
    wealth: int
    rule: str  # purchase_rule in force
    ob: int
    wager: int
    pool: int
    successes: Optional[int]  # None: discounted to a flat single Cash die, no roll
    succeeded: bool
    cash_spent: int


@register
class ItemSold(EventModel):
    type: Literal["item.sold"] = "item.sold"
    character: str
    item: str
    cost: int
    wealth: int
    dice: int
    cash_gained: int


@register
class DownAndOutRolled(EventModel):
    type: Literal["down_and_out.rolled"] = "down_and_out.rolled"
    character: str
    total: int
    result: str  # boon, max_hp_up, save_lost, death, gear_broken, max_hp_down, skills_lost


@register
class MaxHpChanged(EventModel):
    type: Literal["hp.max_changed"] = "hp.max_changed"
    character: str
    delta: int
    reason: str


@register
class SaveLost(EventModel):
    """One point off a Save, never below 0: the fold computes the rating."""

    type: Literal["save.lost"] = "save.lost"
    schema_version = 3
    character: str
    save: Optional[str]  # None: no Save to pick from (none rated, under trauma_pick rated)
    before: int  # the rating when it was decided
    pick: str  # trauma_pick in force: rated | any
    among: list[str]  # the Saves the random pick was made from


@register
class SkillReduced(EventModel):
    """One point off a Skill, never below 0: the fold computes the rating."""

    type: Literal["skill.reduced"] = "skill.reduced"
    schema_version = 3
    character: str
    skill: Optional[str]  # None: no (other) Skill to pick from (under trauma_pick rated)
    before: int  # the rating when it was decided
    pick: str  # trauma_pick in force: rated | any
    among: list[str]  # the Skills the random pick was made from


@register
class GearBroken(EventModel):
    type: Literal["gear.broken"] = "gear.broken"
    character: str
    items: int
    note: str


@register
class StrongholdFounded(EventModel):
    type: Literal["stronghold.founded"] = "stronghold.founded"
    name: str
    owner: str  # a character's name, or "company"


@register
class StrongholdAttempted(EventModel):
    """As WealthAttempted: a success adds one rank; ``rank_from`` is the premise."""

    type: Literal["stronghold.attempted"] = "stronghold.attempted"
    schema_version = 3
    name: str
    by: str  # the paying character, or "company" (the Company's treasury)
    rank_from: int
    ob: int
    wager: int
    wealth_dice: int  # the payer's [Wealth] dice in the pool (0 under stronghold_pool cash)
    pool: int
    pool_rule: str  # stronghold_pool in force: wealth | cash
    successes: int
    succeeded: bool
    tags: list[str]  # added only on success
    period: str
    limit: str  # attempt_limit in force


@register
class CompanyIncomeRolled(EventModel):
    """l.183: a Company stronghold's Economy tags roll Income each session, into
    the Company's Cash (l.176: the company as a whole may hold strongholds)."""

    type: Literal["company.income_rolled"] = "company.income_rolled"
    stronghold: str
    economy_dice: int
    successes: int


@register
class TreasuryPaid(EventModel):
    """Cash paid out of the Company's treasury to a character."""

    type: Literal["treasury.paid"] = "treasury.paid"
    character: str
    amount: int
    why: str


@register
class TreasuryFunded(EventModel):
    """Cash a character puts into the Company's treasury."""

    type: Literal["treasury.funded"] = "treasury.funded"
    character: str
    amount: int
    why: str


@register
class ReputationChanged(EventModel):
    """The change asked for and the clamp in force (l.201: ±limit); the fold
    computes the result. ``before`` is what the referee saw when deciding."""

    type: Literal["reputation.changed"] = "reputation.changed"
    schema_version = 2
    faction: str
    requested: int
    before: int
    limit: int
    why: str


@register
class FollowerGained(EventModel):
    type: Literal["follower.gained"] = "follower.gained"
    character: str
    name: str
    feat: bool  # granted by a Feat: the position can be refilled if lost (l.615)
    refills: Optional[str] = None  # the lost Follower whose position this fills


@register
class FollowerLost(EventModel):
    type: Literal["follower.lost"] = "follower.lost"
    character: str
    name: str
    why: str
    feat: bool
    ready_day: Optional[int]  # a Feat position can be refilled from this day: a week to recruit
