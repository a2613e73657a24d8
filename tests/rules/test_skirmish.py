"""Wounds and healing in the skirmish rules (seed 003 l.120-138) as pure decisions."""

import pytest

from commands.skirmish import healing_attempt, open_wounds_checked, wounded
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.skirmish import HealingAttempted, OpenWoundChecked, WoundRolled
from tests.rules.table import Table, dice, kinds, only


@pytest.fixture
def t() -> Table:
    """Jack, and Doc with Healing 4."""
    t = Table("skirmish")
    t.character("Jack", max_hp=None)
    t.character("Doc", max_hp=None, skills={"Healing": 4})
    return t


@pytest.mark.parametrize("faces, result", [
    ((1, 1), "open"), ((2, 2), "open"),  # l.124: "2-4 Open wound"
    ((2, 3), "leg"), ((3, 3), "leg"),  # l.125: "5-6 Leg Wound: -3M until healed"
    ((3, 4), "left_arm"), ((4, 4), "left_arm"),  # l.126: "7-8 Left Arm"
    ((4, 5), "right_arm"), ((5, 5), "right_arm"),  # l.127: "9-10 Right Arm"
    ((5, 6), "recovered"), ((6, 6), "recovered"),  # l.128: "11+ Miraculous recovery; no effects suffered."
])
def test_a_wound_roll_is_2d6_on_the_wound_table(t, faces, result):
    # 003 l.122: "They must then take a wound roll."
    rolled = only(wounded(t.state(), "Jack", dice(*faces)), WoundRolled)
    assert (rolled.wound, rolled.total, rolled.result) == (1, sum(faces), result)


def test_wounds_are_numbered_as_they_come(t):
    # 003 l.122: "Results of wound rolls are ... permanent and cumulative."
    t.record(wounded(t.state(), "Jack", dice(1, 2)))
    assert only(wounded(t.state(), "Jack", dice(3, 4)), WoundRolled).wound == 2


def test_healing_adds_the_skills_bonus_and_a_natural_2_is_always_a_mistake(t):
    # 003 l.134: "2 Mistake! Roll again on wound table (2 is always a mistake no matter what bonuses the
    # healer has)"; l.137: "6-9 Success"; l.348: level 4 skills give +4
    t.record(wounded(t.state(), "Jack", dice(2, 3)))
    healed = only(healing_attempt(t.state(), "Jack", 1, "Doc", dice(1, 2)), HealingAttempted)
    assert (healed.natural, healed.bonus, healed.total, healed.result) == (3, 4, 7, "healed")
    events = healing_attempt(t.state(), "Jack", 1, "Doc", dice(1, 1, 6, 6))
    assert only(events, HealingAttempted).result == "mistake"
    assert (only(events, WoundRolled).wound, only(events, WoundRolled).result) == (2, "recovered")


def test_a_healer_who_is_not_a_character_states_the_skill(t):
    # 003 l.132: "A character with healing skill will be able to make a roll on the healing table"
    t.record(wounded(t.state(), "Jack", dice(2, 3)))
    clean = only(healing_attempt(t.state(), "Jack", 1, "a wise woman", dice(4, 5), skill=1), HealingAttempted)
    assert (clean.healer, clean.total, clean.result) == ("a wise woman", 10, "healed_clean")
    with pytest.raises(BadInput, match="give their healing skill with --skill N"):
        healing_attempt(t.state(), "Jack", 1, "a wise woman", dice(4, 5))
    with pytest.raises(RuleRefused, match="Jack has no Healing skill"):
        healing_attempt(t.state(), "Jack", 1, "Jack", dice(4, 5))
    with pytest.raises(NotFound, match="Jack has no wound number 2"):
        healing_attempt(t.state(), "Jack", 2, "Doc", dice(4, 5))


def test_an_open_wound_kills_on_a_1(t):
    # 003 l.124: "Until the character is healed, they must roll a d6 and die on a 1."
    t.record(wounded(t.state(), "Jack", dice(1, 1)))
    assert only(open_wounds_checked(t.state(), "Jack", dice(2)), OpenWoundChecked).died is False
    assert kinds(open_wounds_checked(t.state(), "Jack", dice(1))) == [
        "dice.rolled", "wound.open_checked", "character.died"]
    with pytest.raises(RuleRefused, match="Doc has no open wound to check"):
        open_wounds_checked(t.state(), "Doc", dice(1))


def test_luck_regained_records_what_the_cap_lets_in(t):
    # 003 l.311-313: luck points, spent on re-rolls; how many may be held is setting luck_cap (3)
    from commands.skirmish import luck_regained
    from ledger.events.skirmish import LuckChanged
    assert only(luck_regained(t.state(), "Jack", 5), LuckChanged).delta == 3 - t.world.skirmish.of("Jack").luck
