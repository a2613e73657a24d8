"""Boasts of heroic proportions (seed 000 l.262-270) as pure decisions."""

import pytest

from commands.wolves import boast_made, boast_resolved
from ledger.errors import BadInput, RuleRefused
from ledger.events.wolves import BoastMade, BoastPassed, BoastResolved
from tests.rules.table import Table, dice, kinds, only, rolls

FEAT = "I will take the jarl's hall alone"


@pytest.fixture
def t() -> Table:
    t = Table("wolves")
    t.character("Ulf", max_hp=None)
    t.character("Sigrid", max_hp=None)
    return t


def test_a_boast_gains_a_hit_die_at_once_and_rolls_its_hp(t):
    # 000 l.264: "gains 1HD or +1 Attack Bonus"; l.49: "All Hit Dice are d6s"
    events = boast_made(t.state(), "Ulf", FEAT, dice(4), reward="hd")
    made = only(events, BoastMade)
    assert (made.reward, made.bonus, made.hp, rolls(events)) == ("hit_dice", 1, 4, [[4]])
    t.record(events)
    assert t.world.wolves.of("Ulf").view(t.today)["hit_dice"] == 1


def test_a_kept_boast_keeps_its_bonus_for_good(t):
    t.record(boast_made(t.state(), "Ulf", FEAT, dice(), reward="ab"))
    events = boast_resolved(t.state(), "Ulf", "kept")
    resolved = only(events, BoastResolved)
    assert (resolved.kept, resolved.reward, resolved.bonus) == (True, "attack_bonus", 1)
    t.record(events)
    ulf = t.world.wolves.of("Ulf")
    assert (ulf.attack_bonus, ulf.boast) == (1, None)


def test_a_failed_boast_loses_the_bonus_but_may_boast_again(t):
    # 000 l.266: "Those failing the Boast lose the HD or Attack Bonus, but may try again or make another Boast."
    t.record(boast_made(t.state(), "Ulf", FEAT, dice(), reward="ab"))
    t.record(boast_resolved(t.state(), "Ulf", "failed"))
    assert t.world.wolves.of("Ulf").view(t.today)["attack_bonus"] == 0
    assert only(boast_made(t.state(), "Ulf", "again", dice(), reward="ab"), BoastMade).bonus == 1


def test_a_shirked_boast_bars_any_other(t):
    # 000 l.265: "If they are found to shirk their Boast, they lose the HD or Attack Bonus and may never again Boast."
    t.record(boast_made(t.state(), "Ulf", FEAT, dice(), reward="ab"))
    t.record(boast_resolved(t.state(), "Ulf", "shirked"))
    with pytest.raises(RuleRefused, match="Ulf shirked a boast and may never boast again"):
        boast_made(t.state(), "Ulf", "again", dice(), reward="ab")


def test_only_one_boast_is_pending_at_a_time(t):
    # 000 l.268: "Only one Boast can be pending at a time."
    t.record(boast_made(t.state(), "Ulf", FEAT, dice(), reward="ab"))
    with pytest.raises(RuleRefused, match="Ulf already has a boast pending"):
        boast_made(t.state(), "Ulf", "another", dice(), reward="ab")
    with pytest.raises(RuleRefused, match="Sigrid has no boast pending"):
        boast_resolved(t.state(), "Sigrid", "kept")


def test_raised_stakes_add_a_hit_die_each_and_refused_they_pass_to_the_rival(t):
    # 000 l.270: "for each complicating factor, another HD or Attack Bonus may be added. If this new Boast is
    # refused, the challenger takes up the Boast instead - with the complication they specified."
    raised = only(boast_made(t.state(), "Ulf", FEAT, dice(1, 2, 3), reward="hd", raised_by="Sigrid",
                             complications=2), BoastMade)
    assert (raised.bonus, raised.hp, raised.raised_by) == (3, 6, "Sigrid")
    events = boast_made(t.state(), "Ulf", FEAT, dice(6, 6, 6), reward="hd", raised_by="Sigrid", complications=2,
                        refused=True)
    assert kinds(events) == ["boast.passed", "dice.rolled", "boast.made"]
    taken = only(events, BoastMade)
    assert (only(events, BoastPassed).to, taken.character, taken.passed_from, taken.hp) == ("Sigrid", "Sigrid",
                                                                                             "Ulf", 18)
    with pytest.raises(BadInput, match="complications come from a rival who raises the stakes"):
        boast_made(t.state(), "Ulf", FEAT, dice(), reward="hd", complications=1)


def test_with_the_xp_rules_a_level_rolls_its_hit_die_into_the_same_count():
    # 002 l.103: "how many hit dice she has – one per level"; 000 l.49: "All Hit Dice are d6s", rolled for HP
    from commands.xp import xp_awarded
    from ledger.events.wolves import LevelHitDieRolled, Outfitted
    from projections.xp import hit_dice
    t = Table("wolves,xp")
    t.character("Ulf", max_hp=None)
    t.record(Outfitted(character="Ulf", strength=10, agility=10, constitution=10, hit_dice=1, hp=4,
                       attack_bonus=2, languages=1, hacksilver=0, spent={}, lost=0))
    events = xp_awarded(t.state(), "Ulf", 2000, "a hoard", dice=dice(5, 2))
    assert kinds(events) == ["xp.awarded", "level.attained", "dice.rolled", "wolves.level_hit_die",
                             "level.attained", "dice.rolled", "wolves.level_hit_die"]
    assert [e.event.hp for e in events if isinstance(e.event, LevelHitDieRolled)] == [5, 2]
    t.record(events)
    t.record(boast_made(t.state(), "Ulf", FEAT, dice(6), reward="hd"))
    view = t.world.wolves.of("Ulf").view(t.today)
    assert (view["hit_dice"], view["hp"], hit_dice(t.world, "Ulf")) == (4, 17, (4, 4))
