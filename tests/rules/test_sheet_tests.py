"""Tests from the sheet (`tally test`) as pure decisions: each ruleset's own
test formed from the character's sheet (004 Skills and Saves, 002's skill
roll, 003's roll-under tests, 000's saves), rolled with hand faces, and the
exact odds the dry run gives checked against icepool."""

from fractions import Fraction

import icepool
import pytest

from commands.boons import boon_spent
from commands.skill import attributes_set
from commands.trait_tests import pool_for, trait_tested
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.coeac import HpDamaged
from ledger.events.sheet import TraitTested
from ledger.events.skirmish import ClothingWorn, SkirmishStatSet
from ledger.events.stable import BoonGained
from ledger.events.wolves import Outfitted
from tests.rules.table import Table, dice, only, rolls


def icepool_chance(die, passes) -> Fraction:
    """The chance icepool counts that a total passes."""
    return sum((Fraction(q, die.denominator()) for outcome, q in die.items() if passes(outcome)), Fraction(0))


# -- 004: Skills and Saves -----------------------------------------------------------

@pytest.fixture
def company() -> Table:
    """Bo (Stealth 2, Vigor 1) and Cy, both activated in session 1; Dee stays in town."""
    t = Table("coeac")
    t.character("Bo", skills={"Stealth": 2}, saves={"Vigor": 1})
    t.character("Cy")
    t.character("Dee")
    t.open_session("Bo", "Cy")
    return t


def test_a_skill_test_rolls_two_dice_plus_the_rating_against_the_ob(company):
    # 004 l.18: "your Pool will contain two regular, six-sided dice plus a number of additional dice equal to
    # a relevant Skill or Save rating"; l.19: "Each individual die that comes up 4-6 counts as a Success. If
    # you roll enough Successful dice to match or beat the Objective ..., then you pass the test!"
    events = trait_tested(company.state(), "Bo", "stealth", dice(4, 6, 1, 3), ob=2)
    tested = only(events, TraitTested)
    assert rolls(events) == [[4, 6, 1, 3]]
    assert (tested.expression, tested.natural, tested.check.against, tested.check.target) == ("4d6s4", 2, "ob", 2)
    assert [(p.what, p.value) for p in tested.parts] == [("base dice (004 l.18)", 2), ("Stealth", 2)]
    # l.23: "your Margin of Success, the number of Successes that you achieve in excess of ... the Objective"
    assert (tested.check.passed, tested.check.margin) == (True, 0)
    failed = only(trait_tested(company.state(), "Bo", "Vigor", dice(1, 2, 6), ob=3), TraitTested)
    assert (failed.kind, failed.check.passed, failed.check.margin) == ("save", False, -2)


def test_the_ob_is_moderate_by_default(company):
    # 004 l.33: "3 | Moderate/Risky (Default)"
    assert pool_for(company.state(), "Bo", "Stealth").target.number == 3


def test_a_skill_the_sheet_does_not_rate_rolls_the_two_dice(company):
    # 004 l.21: "A dice pool is composed of two six-sided dice plus a number of dice equal to one of your
    # Skills or Saves": a Skill at 0 adds none
    pool = pool_for(company.state(), "Cy", "Book Learning", ob=1)
    assert pool.expression == "2d6s4"


def test_boons_spent_on_the_skill_are_named_in_the_pool(company):
    # 004 l.507: "To increase your dice pools, earn Boons and recover artifacts."
    company.record(BoonGained(character="Bo", reason="session"))
    company.record(boon_spent(company.state(), "Bo", boon_list="Adventurer", skill="Stealth", save=None, feat=None))
    pool = pool_for(company.state(), "Bo", "Stealth")
    assert (pool.expression, pool.from_boons) == ("5d6s4", 1)
    assert ("Stealth (1 from Boons, l.507)", 3) in pool.parts


def test_bonus_penalty_and_helping_dice(company):
    # 004 l.38: "add a Bonus die to your pool (notated +1d) ... subtract a Penalty die (notated -1d)";
    # l.40: "When your allies provide substantive help, they hand you an additional Helping bonus die to roll."
    pool = pool_for(company.state(), "Bo", "Stealth", bonus=-1, aid_by=["Cy"])
    assert pool.expression == "4d6s4" and pool.aid_by == ("Cy",)
    assert pool.parts[-2:] == (("penalty dice (l.38)", -1), ("help from Cy (l.40)", 1))
    tested = only(trait_tested(company.state(), "Bo", "Stealth", dice(4, 4, 4, 4), bonus=-1, aid_by=["Cy"]),
                  TraitTested)
    assert (tested.aid_by, tested.check.margin) == (["Cy"], 1)


@pytest.mark.parametrize("aid_by, refusal, error", [
    (["Bo"], "Bo cannot help their own test", RuleRefused),
    (["Zed"], "no character named 'Zed'", NotFound),
    (["Dee"], "Dee is not activated in session 1", RuleRefused),  # 004 l.496: the others are busy elsewhere
    (["Cy", "cy"], "--aid-by names Cy twice", BadInput),
])
def test_who_cannot_help(company, aid_by, refusal, error):
    with pytest.raises(error, match=refusal):
        pool_for(company.state(), "Bo", "Stealth", aid_by=aid_by)


def test_a_helper_down_and_out_cannot_help(company):
    # 004 l.100: "you fall to the ground and can do little other than writhe in pain and compress your wounds"
    company.record(HpDamaged(character="Cy", damage=6, from_bonus=0, from_hp=6, hp_before=6, why="an axe"))
    with pytest.raises(RuleRefused, match="Cy is down and out"):
        pool_for(company.state(), "Bo", "Stealth", aid_by=["Cy"])


@pytest.mark.parametrize("kwargs, refusal, error", [
    ({"ob": 0}, "--ob 0 is out of range", BadInput),
    ({"ob": 31}, "--ob 31 is out of range", BadInput),
    ({"ob": 5}, "4 dice can never make Ob 5", RuleRefused),
    ({"bonus": -4}, "4 penalty dice leave Bo no dice", RuleRefused),
    ({"bonus": 21}, r"--bonus \+21 is out of range", BadInput),
])
def test_an_ob_or_a_pool_out_of_reach_is_refused(company, kwargs, refusal, error):
    with pytest.raises(error, match=refusal):
        pool_for(company.state(), "Bo", "Stealth", **kwargs)


def test_unknown_character_and_test_and_a_ruleset_the_campaign_does_not_run(company):
    with pytest.raises(NotFound, match="no character named 'Zed'"):
        pool_for(company.state(), "Zed", "Stealth")
    with pytest.raises(BadInput, match="no test called 'Juggling' in campaign Test's rules: its tests are coeac: "
                                       "Athletics"):
        pool_for(company.state(), "Bo", "Juggling")
    with pytest.raises(RuleRefused, match="Dodging is a test of the wolves rules, which campaign Test does not run"):
        pool_for(company.state(), "Bo", "Dodging")


@pytest.mark.parametrize("dice_count, ob", [(2, 1), (4, 3), (6, 4), (9, 6)])
def test_004_odds_are_exact(dice_count, ob):
    t = Table("coeac")
    t.character("Bo", skills={"Stealth": dice_count - 2})
    pool = pool_for(t.state(), "Bo", "Stealth", ob=ob)
    successes = dice_count @ icepool.d6.map(lambda f: 1 if f >= 4 else 0)
    assert pool.chance() == icepool_chance(successes, lambda s: s >= ob)


# -- 002: the skill roll --------------------------------------------------------------

@pytest.fixture
def adventurer() -> Table:
    t = Table("xp")
    t.character("Ash", max_hp=None)
    t.record(attributes_set(t.state(), "Ash", {"DEX": 16, "str": 3, "Wisdom": 10}))
    return t


def test_attribute_scores_go_on_the_sheet_between_3_and_18(adventurer):
    # 002 l.22-24: "six attributes – for example STR, INT, WIS, DEX, CON and CHA. The spread should be between
    # 3 and 18."
    assert adventurer.world.xp.of("Ash").attributes == {"DEX": 16, "STR": 3, "WIS": 10}
    with pytest.raises(BadInput, match="CHA 19 is out of range: a score is 3 to 18"):
        attributes_set(adventurer.state(), "Ash", {"CHA": 19})
    with pytest.raises(BadInput, match="'LUCK' is not an attribute"):
        attributes_set(adventurer.state(), "Ash", {"luck": 12})


@pytest.mark.parametrize("attribute, faces, bonus, natural, total, result, passed", [
    # l.168: "2D6+DEX mod."; l.25-61: DEX 16 gives +2; l.172: "9 – 11 | Success"
    ("DEX", (3, 4), 0, 7, 9, "success", True),
    ("DEX", (2, 4), 0, 6, 8, "delay", False),  # l.171: "6 – 8 | Delay": not yet a pass
    ("STR", (6, 5), 0, 11, 8, "delay", False),  # STR 3 gives -3
    ("STR", (6, 6), -1, 12, 12, "extraordinary", True),  # l.178: "natural box-cars are always a 12"
    ("DEX", (1, 1), 3, 2, 2, "catastrophe", False),  # l.177: "snake eyes are always a result of two"
])
def test_002_skill_roll_from_the_attribute_score(adventurer, attribute, faces, bonus, natural, total, result,
                                                 passed):
    tested = only(trait_tested(adventurer.state(), "Ash", attribute, dice(*faces), bonus=bonus), TraitTested)
    assert (tested.natural, tested.total, tested.result, tested.check.passed) == (natural, total, result, passed)
    assert tested.check.margin == total - 9


def test_002_a_skill_roll_of_12_grants_new_expertise(adventurer):
    # 002 l.179: "A skill roll of 12 grants new expertise."
    before = adventurer.world.xp.of("Ash").expertise_claims
    adventurer.record(trait_tested(adventurer.state(), "Ash", "DEX", dice(5, 5)))
    assert adventurer.world.xp.of("Ash").expertise_claims == before + 1


def test_002_refusals(adventurer):
    with pytest.raises(RuleRefused, match="Ash has no CHA score on the sheet"):
        pool_for(adventurer.state(), "Ash", "CHA")
    with pytest.raises(RuleRefused, match="there is no Ob to give"):
        pool_for(adventurer.state(), "Ash", "DEX", ob=3)
    with pytest.raises(RuleRefused, match="help from other characters is 004's"):
        pool_for(adventurer.state(), "Ash", "DEX", aid_by=["Bo"])


@pytest.mark.parametrize("attribute, bonus", [("DEX", 0), ("STR", 0), ("STR", 5), ("WIS", -2), ("DEX", 5)])
def test_002_odds_are_exact(adventurer, attribute, bonus):
    pool = pool_for(adventurer.state(), "Ash", attribute, bonus=bonus)
    rolled = (icepool.d6 + icepool.d6).map(lambda n: n if n in (2, 12) else n + pool.modifier)
    assert pool.chance() == icepool_chance(rolled, lambda total: total >= 9)


# -- 003: roll-under tests --------------------------------------------------------------

@pytest.fixture
def skirmisher() -> Table:
    t = Table("skirmish")
    t.character("Kit", max_hp=None)
    for stat, value in (("Nerve", 7), ("Intelligence", 6), ("Shooting", 9), ("Power", 8)):
        t.record(SkirmishStatSet(character="Kit", stat=stat, value=value, level=1, cap=None))
    return t


def test_003_interpersonal_rolls_2d6_below_half_nerve_and_intelligence(skirmisher):
    # 003 l.13: "add their nerve and intelligence and divide by 2 (rounding down). They must roll below this
    # number on 2d6 to succeed." (7 + 6) / 2 = 6
    tested = only(trait_tested(skirmisher.state(), "Kit", "interpersonal", dice(2, 3)), TraitTested)
    assert (tested.check.against, tested.check.target, tested.check.passed, tested.check.margin) == (
        "below", 6, True, 1)
    at_the_score = only(trait_tested(skirmisher.state(), "Kit", "Interpersonal", dice(3, 3)), TraitTested)
    assert at_the_score.check.passed is False


def test_003_three_either_side_is_epic(skirmisher):
    # 003 l.23: "Generally getting 3 less than they need is an "epic success", 3 more an "epic failure"."
    # Perception (l.27): (Shooting 9 + Intelligence 6) / 2 = 7
    epic = only(trait_tested(skirmisher.state(), "Kit", "Perception", dice(1, 3)), TraitTested)
    assert (epic.check.target, epic.check.band) == (7, "epic success")
    awful = only(trait_tested(skirmisher.state(), "Kit", "Perception", dice(5, 5)), TraitTested)
    assert awful.check.band == "epic failure"


def test_003_modifiers_and_rags_move_the_score(skirmisher):
    # 003 l.15: "+1 Urgency (eg attacking army)"; l.421: "Rags (-1 to Rn in real terms, -1 to interpersonal tests)"
    skirmisher.record(ClothingWorn(character="Kit", clothing="Rags", renown_modifier=-1))
    pool = pool_for(skirmisher.state(), "Kit", "Interpersonal", bonus=1)
    assert pool.target.number == 6 and pool.parts[-1] == ("Rags (003 l.421)", -1)
    assert pool_for(skirmisher.state(), "Kit", "Perception").target.number == 7  # Rags touch interpersonal only


def test_003_drinking_is_against_power_as_the_setting_reads_it(skirmisher):
    # 003 l.36: "Drinking alcohol is a test against the drinker's power." (how: setting drinking_test)
    tested = only(trait_tested(skirmisher.state(), "Kit", "Drinking", dice(4, 4)), TraitTested)
    assert (tested.check.against, tested.check.target, tested.check.passed, tested.settings) == (
        "below", 8, False, {"drinking_test": "below"})
    skirmisher.set("drinking_test", "at_most")
    assert only(trait_tested(skirmisher.state(), "Kit", "Drinking", dice(4, 4)), TraitTested).check.passed


def test_a_test_that_can_never_pass_is_not_rolled(skirmisher, band):
    # 003 l.13: "They must roll below this number on 2d6": a score of 2 can never be rolled under
    with pytest.raises(RuleRefused, match=r"Kit can never pass this test of Interpersonal \(2d6, < 2\)"):
        pool_for(skirmisher.state(), "Kit", "Interpersonal", bonus=-4)
    # 000 l.169: Warding needs 17 on a d20; at -17 even a 20 makes 3
    with pytest.raises(RuleRefused, match=r"Ulf can never pass this test of Warding \(1d20 -17, >= 17\)"):
        pool_for(band.state(), "Ulf", "Warding", bonus=-17)


def test_003_a_stat_the_sheet_lacks_is_refused():
    t = Table("skirmish")
    t.character("Kit", max_hp=None)
    with pytest.raises(RuleRefused, match="Kit has no Nerve or Intelligence on the sheet"):
        pool_for(t.state(), "Kit", "Interpersonal")


@pytest.mark.parametrize("test, bonus", [("Interpersonal", 0), ("Perception", -2), ("Drinking", 3)])
def test_003_odds_are_exact(skirmisher, test, bonus):
    pool = pool_for(skirmisher.state(), "Kit", test, bonus=bonus)
    two = icepool.d6 + icepool.d6
    target = pool.target.number
    assert pool.chance() == icepool_chance(two, lambda total: total < target)
    odds = pool.odds()
    assert Fraction(odds["epic_success"]["exact"]) == icepool_chance(two, lambda total: total <= target - 3)


# -- 000: saves ------------------------------------------------------------------------

def raider(t: Table, name: str, *, agility: int = 10, constitution: int = 10, spent=()) -> None:
    t.character(name, max_hp=None)
    t.record(Outfitted(character=name, strength=10, agility=agility, constitution=constitution, hit_dice=1, hp=3,
                       attack_bonus=2, languages=1, hacksilver=100, spent={item: 1 for item in spent}, lost=0))


@pytest.fixture
def band() -> Table:
    t = Table("wolves")
    raider(t, "Ulf", agility=15, constitution=16)
    raider(t, "Sigrid", spent=("Leather (Light)", "Shield"))
    raider(t, "Hrafn", spent=("Full-Length Maille (Heavy)",))
    raider(t, "Asa", spent=("Maille (Medium)",))
    raider(t, "Bjorn", spent=("Byzantine Plate (Heavy)", "Leather (Light)"))
    return t


@pytest.mark.parametrize("name, save, modifier", [
    # l.167-169: "Dodging ... A 15 or more", "Physique ... A 13 or more", "Warding ... A 17 or more"
    # l.30: "An Agility of 15+ gives a +1 bonus to Dodging Saves"; l.42: "Characters forgoing armour add 4"
    ("Ulf", "Dodging", 5),
    ("Ulf", "Physique", 1),  # l.32: "A Constitution of 15+ or more gives a +1 bonus to Physique Saves"
    ("Ulf", "Warding", 0),
    ("Sigrid", "Dodging", 2),  # l.43: "Characters wearing Light Armour add 2 to their Dodge Rolls"
    ("Hrafn", "Dodging", -2),  # l.44: "Characters wearing Heavy Armour subtract 2 from their Dodge Rolls"
    ("Bjorn", "Dodging", 0),  # l.103: "Byzantine Plate does not reduce the Dodge roll"
    ("Asa", "Dodging", 0),  # Maille (Medium): named by neither line (setting medium_dodge, default none)
])
def test_000_saves_are_a_d20_at_least_the_number(band, name, save, modifier):
    # l.171: "To save, a character must roll a d20. This roll may be modified."
    pool = pool_for(band.state(), name, save)
    assert (pool.expression, pool.modifier) == ("1d20", modifier)
    needed = {"Dodging": 15, "Physique": 13, "Warding": 17}[save]
    assert (pool.target.against, pool.target.number) == ("at_least", needed)
    passing = max(1, needed - modifier)
    tested = only(trait_tested(band.state(), name, save, dice(passing)), TraitTested)
    assert tested.check.passed and tested.total == passing + modifier
    if passing > 1:
        assert not only(trait_tested(band.state(), name, save, dice(passing - 1)), TraitTested).check.passed


def test_000_medium_armour_reads_the_setting(band):
    band.set("medium_dodge", "light")
    tested = only(trait_tested(band.state(), "Asa", "Dodge", dice(13)), TraitTested)
    assert (tested.total, tested.settings) == (15, {"medium_dodge": "light"})


def test_000_refusals(band):
    with pytest.raises(RuleRefused, match="against its own number"):
        pool_for(band.state(), "Ulf", "Warding", ob=3)
    with pytest.raises(RuleRefused, match="help from other characters is 004's"):
        pool_for(band.state(), "Ulf", "Warding", aid_by=["Sigrid"])
    with pytest.raises(RuleRefused, match="Stealth is a test of the coeac rules"):
        pool_for(band.state(), "Ulf", "Stealth")


@pytest.mark.parametrize("name, save, bonus", [("Ulf", "Dodging", 0), ("Hrafn", "Dodging", 3),
                                               ("Sigrid", "Warding", -1)])
def test_000_odds_are_exact(band, name, save, bonus):
    pool = pool_for(band.state(), name, save, bonus=bonus)
    assert pool.chance() == icepool_chance(icepool.d20 + pool.modifier, lambda total: total >= pool.target.number)
