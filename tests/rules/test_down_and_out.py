"""Hit points, Down and Out and medical aid (seed 004 l.83-116) as pure decisions."""

import pytest

from commands.hazards import down_and_out
from commands.hit_points import bonus_gained, damage_taken, healing, rest_taken
from commands.inventory import Kit, item_found
from ledger.errors import BadInput, RuleRefused
from ledger.events.coeac import (DownAndOutRolled, GearBroken, HpDamaged, MaxHpChanged, MedicalAidRolled, RestTaken,
                                 SaveLost, SkillReduced)
from ledger.events.stable import BoonGained, CharacterDied
from tests.rules.table import Table, dice, kinds, only, rolls


@pytest.fixture
def t() -> Table:
    """Bo (4 max HP; Athletics 2, Stealth 1; Vigor 1, Agility 2, Discipline 1) is down at 0 HP
    in session 1; Cass (Medicine 2) is with him."""
    t = Table("coeac")
    t.character("Bo", max_hp=4, skills={"Athletics": 2, "Stealth": 1},
                saves={"Vigor": 1, "Agility": 2, "Discipline": 1})
    t.character("Cass", skills={"Medicine": 2})
    t.open_session("Bo", "Cass")
    t.record(damage_taken(t.state(), "Bo", 4, "an orc's axe"))
    return t


# -- the table (l.101-113) ----------------------------------------------------------

@pytest.mark.parametrize("faces, result, consequence", [
    ((1, 1), "boon", BoonGained),  # l.103: "2 | Learning Opportunity: Gain 1 Boon"
    ((1, 2), "max_hp_up", MaxHpChanged),  # l.104: "3 | Resilience: Gain +1 max HP"
    ((2, 3), "death", CharacterDied),  # l.106: "5 | DEATH, PAINFUL AND GRISLY"
    ((3, 4), "max_hp_down", MaxHpChanged),  # l.108: "7 | Lingering Injury: Lose 1 max HP"
    ((4, 5), "death", CharacterDied),  # l.110: "9 | DEATH, PAINFUL AND GRISLY"
    ((5, 6), "max_hp_up", MaxHpChanged),  # l.112: "11 | Resilience: Gain +1 max HP"
    ((6, 6), "boon", BoonGained),  # l.113: "12 | Learning Opportunity: Gain 1 Boon"
])
def test_down_and_out_rolls_2d6_on_the_table(t, faces, result, consequence):
    # 004 l.100: "sum 2d6 and consult the Down and Out table below"
    events = down_and_out(t.state(), "Bo", dice(*faces))
    rolled = only(events, DownAndOutRolled)
    assert (rolled.total, rolled.result) == (sum(faces), result)
    assert kinds(events) == ["dice.rolled", "down_and_out.rolled", consequence.model_fields["type"].default]
    assert events[2].cause.index == 1  # the consequence follows from the table's result


def test_trauma_lowers_one_random_save_among_those_rated(t):
    # 004 l.105: "4 | Trauma: Permanently lose one point from a random Save"; trauma_pick rated
    events = down_and_out(t.state(), "Bo", dice(1, 3, 2))
    lost = only(events, SaveLost)
    assert (lost.among, lost.save, lost.before) == (["Vigor", "Agility", "Discipline"], "Agility", 2)
    assert rolls(events) == [[1, 3], [2]]  # the 1d3 picks among the three
    t.record(events)
    assert t.sheet("Bo").saves["Agility"] == 1


def test_impairment_lowers_two_random_skills_and_a_lone_one_needs_no_roll(t):
    # 004 l.109: "8 | Impairment: Two random Skills decrease by one point each"
    events = down_and_out(t.state(), "Bo", dice(4, 4, 2))
    reduced = [e.event for e in events if isinstance(e.event, SkillReduced)]
    assert [(r.skill, r.among) for r in reduced] == [("Stealth", ["Athletics", "Stealth"]),
                                                     ("Athletics", ["Athletics"])]
    assert rolls(events) == [[4, 4], [2]]


def test_broken_gear_picks_three_carried_items_and_an_artifact_may_save(t):
    # 004 l.107: "6 | Broken Gear: Three random items break (Artifacts have 50% chance to Save)"
    for item, artifact in (("rope", False), ("lantern", False), ("the Eye of Ur", True), ("rations", False)):
        t.record(item_found(t.state(), "Bo", item, Kit(artifact=artifact), "found"))
    events = down_and_out(t.state(), "Bo", dice(3, 3, 3, 1, 2, 5))  # 1d4: Eye, 1d3: rope, 1d2: rations; Eye saves on 5
    broken = only(events, GearBroken)
    assert (broken.broken, broken.saved) == (["rope", "rations"], ["the Eye of Ur"])


def test_a_lingering_injury_at_1_max_hp_is_death(t):
    # 004 l.86: "If a character's maximum Hit Points are ever reduced to zero, that character is
    # permanently and irreversibly dead."
    t.character("Wisp", max_hp=1)
    events = down_and_out(t.state(), "Wisp", dice(3, 4))
    assert kinds(events)[-2:] == ["hp.max_changed", "character.died"]


# -- medical aid (l.100) ----------------------------------------------------------------

def test_medical_aid_passed_rolls_the_table(t):
    # 004 l.100: "If you receive medical aid by the end of the scene (Medicine Ob 3), sum 2d6 and
    # consult the Down and Out table"; Cass rolls 2 + Medicine 2 dice
    events = down_and_out(t.state(), "Bo", dice(4, 5, 6, 1, 6, 6), aid_by="Cass")
    aid = only(events, MedicalAidRolled)
    assert (aid.pool, aid.ob, aid.successes, aid.succeeded) == (4, 3, 3, True)
    assert only(events, DownAndOutRolled).total == 12


def test_medical_aid_failed_rolls_nothing_more(t):
    events = down_and_out(t.state(), "Bo", dice(4, 5, 1, 1), aid_by="Cass")
    assert kinds(events) == ["dice.rolled", "medical_aid.rolled"]
    assert only(events, MedicalAidRolled).succeeded is False
    with pytest.raises(BadInput, match=r"--dice gave 2 face\(s\) more"):
        down_and_out(t.state(), "Bo", dice(4, 5, 1, 1, 6, 6), aid_by="Cass")


def test_medical_aid_is_for_someone_else_down_at_0_hp(t):
    with pytest.raises(RuleRefused, match="cannot give medical aid to themselves"):
        down_and_out(t.state(), "Bo", dice(), aid_by="Bo")
    with pytest.raises(RuleRefused, match="Cass has 6 HP: medical aid is for a character down and out"):
        down_and_out(t.state(), "Cass", dice(), aid_by="Bo")
    with pytest.raises(BadInput, match="a penalty of 4 leaves Cass no dice to roll"):
        down_and_out(t.state(), "Bo", dice(), aid_by="Cass", aid_bonus=-4)


def test_a_helper_down_and_out_gives_no_aid(t):
    # 004 l.100: at zero HP you "can do little other than writhe in pain and compress your wounds"
    t.record(damage_taken(t.state(), "Cass", 6, "the same orc"))
    with pytest.raises(RuleRefused, match="Cass is down and out at 0 HP and can give no medical aid"):
        down_and_out(t.state(), "Bo", dice(6, 6, 6, 6), aid_by="Cass")


def test_failed_aid_stands_for_its_helper_until_the_situation_changes(t):
    # 004 l.25: "The results of the roll stand unless the situation drastically changes ... Let It Ride"
    t.record(down_and_out(t.state(), "Bo", dice(1, 1, 1, 1), aid_by="Cass"))
    with pytest.raises(RuleRefused, match="Cass's medical aid for Bo failed and stands"):
        down_and_out(t.state(), "Bo", dice(6, 6, 6, 6, 1, 1), aid_by="Cass")
    t.record(damage_taken(t.state(), "Bo", 1, "struck again"))  # a new situation: the table again, aid again
    assert only(down_and_out(t.state(), "Bo", dice(6, 6, 6, 6, 1, 1), aid_by="Cass"), MedicalAidRolled).succeeded


def test_aid_that_cannot_reach_ob_3_is_not_rolled(t):
    # 004 l.100: "Medicine Ob 3": a pool of 2 dice cannot make 3 Successes
    with pytest.raises(RuleRefused, match="Cass's 2 dice cannot reach Medicine Ob 3"):
        down_and_out(t.state(), "Bo", dice(6, 6), aid_by="Cass", aid_bonus=-2)


# -- hit points ---------------------------------------------------------------------------

def test_bonus_hp_take_damage_first(t):
    # 004 l.88: "Whenever you have bonus HP and take damage, ... the bonus HP pool" is reduced first
    t.record(bonus_gained(t.state(), "Cass", 2, "a shrine"))
    hit = only(damage_taken(t.state(), "Cass", 3, "a fall"), HpDamaged)
    assert (hit.from_bonus, hit.from_hp, hit.hp_before) == (2, 1, 6)


def test_a_short_rest_heals_up_to_three_and_healing_stops_at_the_maximum(t):
    # 004 l.115: "everyone in the party regains up to three Hit Points"
    t.set("rest_rations", "optional")
    rested = [e.event for e in rest_taken(t.state(), "short", [], dice()) if isinstance(e.event, RestTaken)]
    assert [(r.character, r.healed) for r in rested] == [("Bo", 3), ("Cass", 0)]
    with pytest.raises(RuleRefused, match=r"Cass is at full HP \(6 of 6\)"):
        healing(t.state(), "Cass", 1, "a potion")


def test_a_rest_spends_the_rations_it_costs(t):
    # 004 l.116: "When the party takes a long rest and you spend Rations, you recovers all of your lost
    # Hit Points" (rest_rations required: the item called Rations unless --rations names another)
    with pytest.raises(RuleRefused, match="Bo carries no Rations: a long rest is taken spending Rations"):
        rest_taken(t.state(), "long", ["Bo"], dice())
    t.record(item_found(t.state(), "Bo", "rations", Kit(), "bought"))
    assert only(rest_taken(t.state(), "long", ["Bo"], dice()), RestTaken).rations == "rations"
