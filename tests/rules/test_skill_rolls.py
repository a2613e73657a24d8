"""Skill rolls and expertise (seed 002 l.92-95, l.160-179) as pure decisions."""

import pytest

from commands.skill import expertise_gained, skill_roll
from ledger.errors import RuleRefused
from ledger.events.xp import SkillRolled
from tests.rules.table import Table, dice, only, rolls


@pytest.fixture
def t() -> Table:
    """Ash, a level 1 adventurer with expertise in hunting (WIS)."""
    t = Table("xp")
    t.character("Ash")
    t.record(expertise_gained(t.state(), "Ash", "hunting", "WIS"))
    return t


@pytest.mark.parametrize("faces, modifier, total, result", [
    ((1, 1), 3, 2, "catastrophe"),  # l.177: "snake eyes are always a result of two regardless of modifiers"
    ((2, 2), 0, 4, "failure"),  # l.170: "3 – 5 | Failure"
    ((3, 3), 1, 7, "delay"),  # l.171: "6 – 8 | Delay"
    ((4, 5), 0, 9, "success"),  # l.172: "9 – 11 | Success"
    ((6, 6), -3, 12, "extraordinary"),  # l.178: "natural box-cars are always a 12"
])
def test_a_skill_roll_is_2d6_plus_modifiers_on_the_table(t, faces, modifier, total, result):
    rolled = only(skill_roll(t.state(), "Ash", "DEX", "picking a lock", dice(*faces), modifier=modifier), SkillRolled)
    assert (rolled.natural, rolled.total, rolled.result) == (sum(faces), total, result)


def test_expertise_rolls_3d6_keeps_the_best_two_once_per_session(t):
    # 002 l.94: "Adventurers can call upon past experience, skill or expertise once per session to roll 3D6
    # and pick the best two dice"
    t.open_session("Ash")
    events = skill_roll(t.state(), "Ash", "WIS", "tracking", dice(6, 1, 5), expertise="hunting")
    rolled = only(events, SkillRolled)
    assert (rolls(events), rolled.natural, rolled.expertise, rolled.period) == ([[6, 1, 5]], 11, "hunting",
                                                                                 "session 1")
    t.record(events)
    with pytest.raises(RuleRefused, match="Ash has already called on expertise in this session"):
        skill_roll(t.state(), "Ash", "WIS", "tracking", dice(6, 1, 5), expertise="hunting")
    t.close_session()  # the downtime after it counts apart, as the epoch it is rolled in
    after = only(skill_roll(t.state(), "Ash", "WIS", "tracking", dice(2, 3, 4), expertise="hunting"), SkillRolled)
    assert (after.natural, after.period) == (7, "downtime epoch 3")


def test_an_area_of_expertise_relates_to_one_attribute(t):
    # 002 l.95: "any one area of expertise can only relate to a single attribute"
    with pytest.raises(RuleRefused, match="Ash's expertise in hunting relates to WIS only, not STR"):
        skill_roll(t.state(), "Ash", "STR", "wrestling a boar", dice(1, 2, 3), expertise="hunting")
