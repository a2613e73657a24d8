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
    """l.107: three random items break; an artifact saves on a 50% roll. Schema 2
    names the items (schema 1 gave only their number)."""

    type: Literal["gear.broken"] = "gear.broken"
    schema_version = 2
    character: str
    count: int  # how many were to break
    broken: list[str]  # the items that broke, now gone from the inventory
    saved: list[str]  # artifacts that made their save
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


# -- hit points (l.83-116) ----------------------------------------------------------

@register
class HpDamaged(EventModel):
    """Damage taken: Bonus HP absorb it first (l.88), then HP, down to 0 (l.100);
    the rest is lost. The fold applies ``from_bonus`` and ``from_hp``."""

    type: Literal["hp.damaged"] = "hp.damaged"
    character: str
    damage: int
    from_bonus: int
    from_hp: int
    hp_before: int  # 0: struck while down and out, which rolls the table again (l.100)
    why: str


@register
class HpHealed(EventModel):
    """HP regained, never past max (and never Bonus HP, l.89); ``healed`` is what
    the fold adds."""

    type: Literal["hp.healed"] = "hp.healed"
    character: str
    requested: int
    healed: int
    why: str


@register
class BonusHpGained(EventModel):
    type: Literal["hp.bonus_gained"] = "hp.bonus_gained"
    character: str
    amount: int  # l.88: every source stacks into the one pool
    why: str


@register
class BonusHpExpired(EventModel):
    """l.88: at the end of its period what is left of the Bonus HP pool is lost."""

    type: Literal["hp.bonus_expired"] = "hp.bonus_expired"
    character: str
    lost: int  # what the pool held when it expired; the fold empties it
    why: str


@register
class RestTaken(EventModel):
    """A short rest (l.115: up to three HP back, a point of a Class Resource) or a
    long rest (l.116: every lost HP back, per-day powers regained)."""

    type: Literal["rest.taken"] = "rest.taken"
    character: str
    kind: str  # short | long
    healed: int  # HP regained (a long rest's fold fills HP to max whatever it says)
    resource: Optional[str] = None  # short rest: the Class Resource a point of which came back
    resource_gained: int = 0
    resources_rule: Optional[str] = None  # long rest: long_rest_resources in force
    rations: Optional[str] = None  # the Rations spent, checked for Depletion


@register
class MedicalAidRolled(EventModel):
    """l.100: medical aid by the end of the scene, Medicine Ob 3, before the
    Down and Out table is rolled."""

    type: Literal["medical_aid.rolled"] = "medical_aid.rolled"
    character: str
    by: str
    medicine: int  # the helper's Medicine rating: the pool is 2 + rating (l.18) + bonus
    bonus: int
    pool: int
    ob: int
    successes: int
    succeeded: bool


# -- inventory (l.552-564, l.766) ---------------------------------------------------

@register
class ItemGained(EventModel):
    """An item goes into a character's inventory (l.553: twelve Slots, one per
    item of narrative importance unless it is cumbersome, l.555)."""

    type: Literal["item.gained"] = "item.gained"
    character: str
    item: str
    slots: int
    depletion: Optional[int]  # l.563: the Depletion score, e.g. Torches (15+)
    cash: int  # l.766: its worth in Cash dice (a commodity, a single treasure), 0 if none
    artifact: bool  # l.107: an artifact saves on 50% when gear breaks
    carries: int  # Slots it carries itself: a pack animal 6, a cart 3 or 6 (l.560)
    source: str  # found | bought
    why: str


@register
class ItemDropped(EventModel):
    """Out of the inventory: used up (l.564), sold, lost, left behind."""

    type: Literal["item.dropped"] = "item.dropped"
    character: str
    item: str
    why: str


@register
class DepletionChecked(EventModel):
    """l.563: after use, a d20 at or above the Depletion score leaves one use;
    the next use after that expends the item without a roll."""

    type: Literal["item.depletion_checked"] = "item.depletion_checked"
    character: str
    item: str
    score: int
    roll: Optional[int]  # None: it was on its last use, no check rolled
    result: str  # lasts | last_use | expended


@register
class ItemGiven(EventModel):
    type: Literal["item.given"] = "item.given"
    character: str
    to: str
    item: str
    why: str


@register
class CashGiven(EventModel):
    type: Literal["cash.given"] = "cash.given"
    character: str
    to: str
    amount: int
    why: str


@register
class CommodityConverted(EventModel):
    """l.766: commodities and treasure brought back to civilization become Cash."""

    type: Literal["commodity.converted"] = "commodity.converted"
    character: str
    item: str
    cash: int


# -- Boons, Specialty Classes, Class Resources (l.499-549) -------------------------------

@register
class BoonSpent(EventModel):
    """A Boon gained is chosen from a list the character may take (l.503, l.533):
    +1 to a Skill or a Save — a bigger dice pool (l.18, l.507) — or a Feat,
    spell or power named by the referee."""

    type: Literal["boon.spent"] = "boon.spent"
    character: str
    boon_list: str  # Adventurer, the core class, or an unlocked Specialty Class
    kind: str  # skill | save | feat
    target: str  # the Skill or Save raised, or the Feat taken
    before: Optional[int]  # the rating raised, as it stood (None for a Feat)


@register
class SpecialtyUnlocked(EventModel):
    """l.532-533: a Specialty Class unlocked through the fiction; its Boon list opens."""

    type: Literal["specialty.unlocked"] = "specialty.unlocked"
    character: str
    specialty: str
    resource: Optional[str]  # the Class Resource it brings, under the rule below
    rule: str  # specialty_resources in force
    why: str


@register
class ResourceMaxSet(EventModel):
    """The size of a Class Resource pool (l.500), as the class or a Feat gives it:
    the seed's class pages are not in it, so the referee says."""

    type: Literal["resource.max_set"] = "resource.max_set"
    character: str
    resource: str
    maximum: int
    before: int  # the maximum it replaces; the pool moves by the difference
    why: str


@register
class ResourceChanged(EventModel):
    """Class Resource spent (l.500: normally one of each type in an action) or regained."""

    type: Literal["resource.changed"] = "resource.changed"
    character: str
    resource: str
    delta: int
    why: str
