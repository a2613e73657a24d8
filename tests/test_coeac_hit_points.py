"""Hit points (issue 14 item 7): current HP, Bonus HP, damage, healing, rests,
medical aid before the Down and Out table, and deaths by other means."""

import pytest

from tests.conftest import sheet


@pytest.fixture
def party(tally):
    """Session 1 under way: Bo (max HP 4) and Hana (max HP 5, Medicine 1); Cass stays in town."""
    t = tally
    t.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    for player in ("Ann", "Ben", "Cy"):
        t.ok("player", "add", player)
    t.ok("char", "new", "Bo", "--player", "Ben", "--max-hp", "4")
    t.ok("char", "new", "Hana", "--player", "Ann", "--max-hp", "5", "--skills", "Medicine=1")
    t.ok("char", "new", "Cass", "--player", "Cy", "--max-hp", "6")
    t.ok("session", "open", "--activate", "Bo", "--activate", "Hana", "--no-income")
    return t


def hp(t, name):
    s = sheet(t, name)
    return s["hp"], s["bonus_hp"], s["max_hp"]


def test_a_new_character_starts_at_full_hp_and_damage_takes_it_down(party):
    # 004 l.84: "Keep track of your current and maximum Hit Protection (HP)"
    assert hp(party, "Bo") == (4, 0, 4)
    party.ok("hp", "damage", "Bo", "3", "--why", "a goblin's spear")
    assert hp(party, "Bo") == (1, 0, 4) and sheet(party, "Bo")["down_and_out"] is False
    assert "Bo takes 3 damage (HP 4 -> 1): a goblin's spear" in party.ok("log", "--type", "hp.damaged").stdout


def test_bonus_hp_take_damage_first(party):
    # 004 l.88: "Whenever you have bonus HP and take damage, first subtract HP from the bonus pool.
    # Only subtract HP from your normal pool after any bonus HP are exhausted." And they stack.
    party.ok("hp", "bonus", "Bo", "1", "--why", "shrine of the antlered king")
    party.ok("hp", "bonus", "Bo", "1", "--why", "a blessing")
    party.ok("hp", "damage", "Bo", "3")
    assert hp(party, "Bo") == (3, 0, 4)
    (hit,) = party.ok("log", "--type", "hp.damaged", "--json").json
    assert (hit["payload"]["from_bonus"], hit["payload"]["from_hp"]) == (2, 1)


def test_bonus_hp_expire_and_are_never_regained(party):
    # 004 l.88-89: "at the end of the established period, any remaining bonus HP in the pool (if any)
    # are lost"; "Bonus HP are never regained in any way, including by resting".
    party.ok("hp", "bonus", "Bo", "3", "--why", "shrine")
    party.ok("hp", "damage", "Bo", "1")
    party.ok("item", "add", "Bo", "Rations")
    party.ok("rest", "long", "Bo")
    assert hp(party, "Bo") == (4, 2, 4)
    party.ok("hp", "expire", "Bo", "--why", "dawn")
    assert hp(party, "Bo") == (4, 0, 4)
    assert "no Bonus HP to lose" in party.refused("hp", "expire", "Bo").stderr


def test_at_zero_hp_the_character_is_down_and_out_and_the_table_is_offered(party):
    # 004 l.100: "When reduced to zero Hit Points, you are down and out ... If struck while down and
    # out, roll again on the table for each separate instance of damage".
    out = party.ok("hp", "damage", "Bo", "9", "--why", "an ogre")
    assert "down and out (004 l.100)" in out.stdout and "--aid-by HELPER" in out.stdout
    assert sheet(party, "Bo")["down_and_out"] is True and hp(party, "Bo") == (0, 0, 4)
    again = party.ok("hp", "damage", "Bo", "1", "--why", "the ogre again")
    assert "struck while down and out: the table again" in again.stdout


def test_medical_aid_comes_before_the_table(party):
    # 004 l.100: "If you receive medical aid by the end of the scene (Medicine Ob 3), sum 2d6 and
    # consult the Down and Out table". Hana's pool: 2 dice + Medicine 1.
    party.ok("hp", "damage", "Bo", "4")
    failed = party.ok("down-and-out", "Bo", "--aid-by", "Hana", "--dice", "6,5,1")
    assert "the aid failed" in failed.stdout
    assert party.ok("log", "--type", "down_and_out.rolled", "--json").json == []
    # 004 l.25: "The results of the roll stand unless the situation drastically changes" (Let It Ride)
    again = party.refused("down-and-out", "Bo", "--aid-by", "Hana", "--aid-bonus", "1", "--dice", "6,5,4,1,1,1")
    assert "Hana's medical aid for Bo failed and stands (004 l.25, Let It Ride)" in again.stderr
    assert len(party.ok("log", "--type", "medical_aid.rolled", "--json").json) == 1
    party.ok("hp", "bonus", "Bo", "1", "--why", "a priest's blessing")  # not HP: the situation stands
    party.refused("down-and-out", "Bo", "--aid-by", "Hana", "--aid-bonus", "1", "--dice", "6,5,4,1,1,1")
    party.ok("hp", "heal", "Bo", "1", "--why", "a draught")  # a new situation: up, then down again
    party.ok("hp", "damage", "Bo", "2")
    party.ok("down-and-out", "Bo", "--aid-by", "Hana", "--aid-bonus", "1", "--dice", "6,5,4,1,1,1")
    aids = [e["payload"] for e in party.ok("log", "--type", "medical_aid.rolled", "--json").json]
    assert [(a["pool"], a["successes"], a["succeeded"]) for a in aids] == [(3, 2, False), (4, 3, True)]
    (table,) = party.ok("log", "--type", "down_and_out.rolled", "--json").json
    assert (table["payload"]["total"], table["payload"]["result"]) == (2, "boon")


@pytest.mark.parametrize("args, message", [
    (("down-and-out", "Bo", "--aid-by", "Hana"), "Bo has 4 HP: medical aid is for a character down and out"),
    (("down-and-out", "Hana", "--aid-by", "Hana"), "cannot give medical aid to themselves"),
    (("down-and-out", "Bo", "--aid-by", "Cass"), "Cass is not activated in session 1"),
    (("hp", "damage", "Bo", "0"), "damage is at least 1"),
    (("hp", "damage", "Cass", "1"), "Cass is not activated in session 1"),
    (("hp", "heal", "Bo", "2"), "Bo is at full HP (4 of 4)"),
    (("hp", "bonus", "Bo", "0", "--why", "x"), "a Bonus HP grant is at least 1"),
])
def test_hit_point_refusals(party, args, message):
    assert message in party.refused(*args).stderr


def test_a_character_down_and_out_gives_no_medical_aid(party):
    # 004 l.100: "When reduced to zero Hit Points, you are down and out. Bloodied and fading, you fall
    # to the ground and can do little other than writhe in pain and compress your wounds."
    party.ok("hp", "damage", "Bo", "4")
    party.ok("hp", "damage", "Hana", "5")
    refused = party.refused("down-and-out", "Bo", "--aid-by", "Hana", "--dice", "6,6,6")
    assert "Hana is down and out at 0 HP and can give no medical aid (004 l.100" in refused.stderr
    assert party.ok("log", "--type", "medical_aid.rolled", "--json").json == []
    assert party.ok("log", "--type", "dice.rolled", "--json").json == []


def test_aid_that_cannot_pass_is_not_rolled(party):
    # 004 l.21: a roll counts "the minimum number of Successes that you must roll"; l.100: "Medicine Ob 3".
    # Hana's 2 dice + Medicine 1 - 1 penalty die = 2 dice cannot make 3 Successes.
    party.ok("hp", "damage", "Bo", "4")
    refused = party.refused("down-and-out", "Bo", "--aid-by", "Hana", "--aid-bonus", "-1", "--dice", "6,6")
    assert "Hana's 2 dice cannot reach Medicine Ob 3 (004 l.100)" in refused.stderr
    assert party.ok("log", "--type", "dice.rolled", "--json").json == []


def test_healing_stops_at_the_maximum(party):
    party.ok("hp", "damage", "Bo", "3")
    party.ok("hp", "heal", "Bo", "5", "--why", "a healing draught")
    (healed,) = party.ok("log", "--type", "hp.healed", "--json").json
    assert (healed["payload"]["requested"], healed["payload"]["healed"]) == (5, 3)
    assert hp(party, "Bo") == (4, 0, 4)


def test_short_and_long_rests(party):
    # 004 l.115: a short rest, "everyone in the party regains up to three Hit Points"; l.116: a long
    # rest "recovers all of your lost Hit Points".
    party.ok("campaign", "set", "rest_rations", "optional")  # here the party eats what it carries unrecorded
    party.ok("hp", "damage", "Bo", "4")
    party.ok("hp", "damage", "Hana", "1")
    party.ok("rest", "short")  # everyone activated
    assert (hp(party, "Bo")[0], hp(party, "Hana")[0]) == (3, 5)
    party.ok("hp", "damage", "Bo", "3")
    party.ok("rest", "long", "Bo")
    assert hp(party, "Bo")[0] == 4
    party.ok("session", "close", "--haven", "Bo", "--haven", "Hana")
    assert "name the characters who rest" in party.refused("rest", "long").stderr


def test_a_rest_spends_rations_or_is_refused(party):
    # 004 l.115: "When the majority of the party spends Rations (11+) over the course of an hour, everyone in
    # the party regains up to three Hit Points"; l.116: "When the party takes a long rest and you spend Rations,
    # you recovers all of your lost Hit Points" (setting rest_rations: required).
    party.ok("hp", "damage", "Bo", "2")
    refused = party.refused("rest", "short")
    assert "only 0 of the 2 resting carry Rations: a short rest needs the majority" in refused.stderr
    assert "rest_rations optional" in refused.stderr
    assert "Bo carries no Rations: a long rest" in party.refused("rest", "long", "Bo").stderr
    assert party.ok("log", "--type", "rest.taken", "--json").json == [] and hp(party, "Bo")[0] == 2
    party.ok("item", "add", "Bo", "Rations", "--depletion", "11")
    party.ok("item", "add", "Bo", "Hardtack")
    party.ok("rest", "long", "Bo", "--dice", "4")  # the item called Rations, checked for Depletion
    party.ok("hp", "damage", "Bo", "2")
    party.ok("rest", "long", "Bo", "--rations", "hardtack")
    spent = [e["payload"]["rations"] for e in party.ok("log", "--type", "rest.taken", "--json").json]
    assert spent == ["Rations", "Hardtack"] and hp(party, "Bo")[0] == 4
    assert len(party.ok("log", "--type", "item.depletion_checked", "--json").json) == 1
    party.ok("campaign", "set", "rest_rations", "optional")
    party.ok("hp", "damage", "Hana", "2")
    party.ok("rest", "long", "Hana")
    assert party.ok("log", "--type", "rest.taken", "--json").json[-1]["payload"]["rations"] is None


def test_a_lower_maximum_takes_current_hp_with_it(party):
    party.ok("down-and-out", "Bo", "--dice", "3,4")  # 7: Lingering Injury, -1 max HP (l.108)
    assert hp(party, "Bo") == (3, 0, 3)
    party.ok("down-and-out", "Bo", "--dice", "5,6")  # 11: Resilience, +1 max HP: a maximum, not healing
    assert hp(party, "Bo") == (3, 0, 4)


def test_other_deaths_are_recorded_with_their_cause(party):
    # 004 l.75 (a coup de grace on the helpless), l.100 ("If you don't receive medical aid by the
    # end of the Turn, you die"), l.312 (mutations "almost certainly fatal").
    party.ok("char", "die", "Bo", "--why", "no medical aid by the end of the Turn")
    s = sheet(party, "Bo")
    assert s["status"] == "dead"
    assert party.ok("session", "show", "--json").json["deaths"] == ["Bo"]
    assert "Bo is dead" in party.refused("char", "die", "Bo", "--why", "twice").stderr


def test_a_late_hit_that_a_later_one_cannot_survive_is_refused(party):
    # HP never fall below 0: the later hit took 3 of Bo's 4; a hit of 2 before it leaves 2.
    party.ok("session", "close", "--days", "5", "--haven", "Bo", "--haven", "Hana")
    party.ok("hp", "damage", "Bo", "3", "--why", "a tavern brawl")
    (later,) = party.ok("log", "--type", "hp.damaged", "--json").json
    refused = party.refused("hp", "damage", "Bo", "2", "--game-date", "1024-03-02").stderr
    assert f"event {later['position']} (hp.damaged" in refused
    assert "Bo's HP would be -1, outside 0-4" in refused
