"""Levels, treasure XP and vows (seed 002 l.97-114, l.195)."""

import pytest

import json
from pathlib import Path

from ledger.rules import xp as rules
from ledger.rules.xp import level_for, threshold
from tests.conftest import Tally, sheet

TABLES = json.loads((Path(__file__).parent.parent / "fixtures" / "tables" / "xp.json").read_text())


@pytest.fixture
def band(tally_sqlite) -> Tally:
    t = tally_sqlite
    t.ok("campaign", "new", "Chainmail", "--rules", "xp", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("player", "add", "Ben")
    t.ok("char", "new", "Ada", "--player", "Ann")
    t.ok("char", "new", "Bert", "--player", "Ben")
    return t


def test_the_level_table():
    # l.99-102: "A first-level adventurer begins with 0 XP; a second-level adventurer has 1000 or
    # more; a third-level adventurer has 2000 or more, etc., with XP requirements doubling"
    assert [threshold(n) for n in range(1, 7)] == [0, 1000, 2000, 4000, 8000, 16000]
    assert [level_for(x) for x in (0, 999, 1000, 1999, 2000, 3999, 4000, 8000)] == [1, 1, 2, 2, 3, 3, 4, 5]
    for level, xp in TABLES["level_thresholds"]["table"].items():
        assert threshold(int(level)) == xp


def test_the_skill_roll_table_and_the_attributes():
    # l.168-173, every row of the printed table against fixtures/tables/xp.json; l.22-23: the attributes.
    ranges = {"2 or less": range(-5, 3), "3-5": range(3, 6), "6-8": range(6, 9), "9-11": range(9, 12),
              "12 or more": range(12, 20)}
    for printed, result in TABLES["skill_roll"]["table"].items():
        assert {rules.skill_result(total) for total in ranges[printed]} == {result}, printed
    assert list(rules.ATTRIBUTES) == TABLES["attributes"]["table"]
    # l.94: expertise claims: the first, each odd level from 3, each 12 (l.105, l.179)
    assert [rules.expertise_claims(level, 0) for level in range(1, 8)] == [1, 1, 2, 2, 3, 3, 4]
    assert rules.expertise_claims(1, 2) == 3


def test_xp_between_sessions_attains_levels_at_once_with_their_benefits(band):
    band.ok("xp", "Ada", "2500", "--why", "the siege of Greyhold")
    s = sheet(band, "Ada")
    assert (s["xp"], s["level"], s["pending_level"]) == (2500, 3, None)
    # l.105: "On every even-numbered level ... swap one characteristic point ... odd-numbered
    # levels ... a new area of expertise ... or a new weapon trait."
    benefits = [e["payload"]["benefit"] for e in band.ok("log", "--type", "level.attained", "--json").json]
    assert benefits == ["swap one characteristic point for another",
                        "a new area of expertise or a new weapon trait"]


def test_a_level_waits_for_safe_time(band):
    # l.195: "Safe time ... levels from acquired XP are attained."
    band.ok("session", "open", "--activate", "Ada", "--activate", "Bert")
    band.ok("treasure", "add", "1200", "--from", "the dragon's hoard")
    band.ok("treasure", "split", "Ada=1200", "Bert=0")
    s = sheet(band, "Ada")
    assert (s["xp"], s["level"], s["pending_level"]) == (1200, 1, 2)
    band.ok("session", "close", "--days", "2")
    s = sheet(band, "Ada")
    assert (s["level"], s["pending_level"]) == (2, None)


def test_a_vow_halves_treasure_xp_then_pays_out(band):
    # l.113-114: "once a vow is made, an adventurer only gains 1/2 XP from finding treasure until
    # her vow is achieved"; l.112: "Vows provide XP equal to the adventurer's last attained level"
    band.ok("xp", "Ada", "1000", "--why", "earlier deeds")
    band.ok("vow", "swear", "Ada", "Avenge my brother on the Jarl of Hedeby")
    assert "already has an open vow" in band.refused("vow", "swear", "Ada", "Another").stderr
    band.ok("session", "open", "--activate", "Ada", "--activate", "Bert")
    band.ok("treasure", "add", "301", "--from", "the Jarl's strongbox")
    band.ok("treasure", "split", "Ada=151", "Bert=150")
    awards = {e["payload"]["character"]: e["payload"] for e in band.ok("log", "--type", "xp.awarded", "--json").json}
    assert (awards["Ada"]["amount"], awards["Ada"]["vow_open"], awards["Ada"]["rounding"]) == (75, True, "down")
    assert awards["Bert"]["amount"] == 150
    band.ok("vow", "fulfil", "Ada")
    (done,) = [e["payload"] for e in band.ok("log", "--type", "vow.fulfilled", "--json").json]
    assert (done["xp"], done["rule"], done["limit"]) == (1000, "threshold", "session")
    assert sheet(band, "Ada")["xp"] == 2075 and sheet(band, "Ada")["vow"] is None


def test_vow_settings(band):
    band.ok("campaign", "set", "vow_rounding", "up")
    band.ok("vow", "swear", "Ada", "Reach Miklagard")
    band.ok("session", "open", "--activate", "Ada")
    band.ok("treasure", "add", "151", "--from", "a merchant's purse")
    band.ok("treasure", "split", "Ada=151")
    assert band.ok("log", "--type", "xp.awarded", "--json").json[-1]["payload"]["amount"] == 76
    # At level 1 the book's award is 0: the referee states it.
    assert "state the award with --xp" in band.refused("vow", "fulfil", "Ada").stderr
    band.ok("vow", "fulfil", "Ada", "--xp", "500")
    # vow_limit session: one vow fulfilled per session.
    band.ok("vow", "swear", "Ada", "Sail home")
    assert "one per session" in band.refused("vow", "fulfil", "Ada", "--xp", "100").stderr


def test_vow_limit_per_level(band):
    band.ok("campaign", "set", "vow_limit", "level")
    band.ok("xp", "Ada", "1000", "--why", "deeds")
    band.ok("vow", "swear", "Ada", "First vow")
    band.ok("vow", "fulfil", "Ada")  # threshold at level 2: 1000 XP -> level 3 at once (between sessions)
    band.ok("vow", "swear", "Ada", "Second vow")
    band.ok("campaign", "set", "vow_xp", "stated")
    band.ok("vow", "fulfil", "Ada", "--xp", "10")  # a new level, so a new vow may count: still level 3
    band.ok("vow", "swear", "Ada", "Third vow")
    assert "one per level" in band.refused("vow", "fulfil", "Ada", "--xp", "10").stderr
    assert (sheet(band, "Ada")["xp"], sheet(band, "Ada")["level"]) == (2010, 3)


def test_xp_refusals(band):
    assert "no open vow" in band.refused("vow", "fulfil", "Ada").stderr
    assert "no open vow" in band.refused("vow", "abandon", "Ada").stderr
    assert "changes nothing" in band.refused("xp", "Ada", "0", "--why", "x").stderr
    assert "cannot take away 5" in band.refused("xp", "Ada", "-5", "--why", "x").stderr
    band.ok("vow", "swear", "Ada", "Steal the crown")
    band.ok("vow", "abandon", "Ada")
    assert sheet(band, "Ada")["vow"] is None


def test_without_coeac_a_session_close_has_no_down_and_out_or_boons(band):
    band.ok("session", "open", "--activate", "Ada")
    band.ok("session", "close")
    types = {e["type"] for e in band.ok("log", "--json").json}
    assert not types & {"down_and_out.rolled", "boon.gained"}


# -- issue 15: levels lost, hit dice, expertise, skill rolls, treasure_xp --

def logged(t, event_type):
    return [e["payload"] for e in t.ok("log", "--type", event_type, "--json").json]


def test_losing_xp_below_a_threshold_loses_the_level_at_once(band):
    # l.99-102: "a second-level adventurer has 1000 or more; a third-level adventurer has 2000 or more,
    # etc., with XP requirements doubling thereafter": the level is the XP held. A level lost goes at
    # once, safe time or not; l.195 makes only *attaining* one wait for safe time.
    band.ok("xp", "Ada", "16000", "--why", "a dragon's hoard")
    assert sheet(band, "Ada")["level"] == 6
    band.ok("xp", "Ada", "-1", "--why", "one coin miscounted")
    s = sheet(band, "Ada")
    assert (s["xp"], s["level"], s["pending_level"], s["level_hit_dice"]) == (15999, 5, None, 5)
    assert logged(band, "level.lost") == [{"character": "Ada", "level": 5, "from_level": 6, "xp": 15999}]
    band.ok("session", "open", "--activate", "Ada")
    band.ok("hd", "spend", "Ada", "5", "--why", "a save against the wight")
    band.ok("xp", "Ada", "-8000", "--why", "a wight's touch")  # out on an expedition: still at once
    assert (sheet(band, "Ada")["level"], sheet(band, "Ada")["hit_dice_left"]) == (4, 0)
    band.ok("xp", "Ada", "1", "--why", "a coin found")  # 8000 again: level 5 waits for safe time
    assert (sheet(band, "Ada")["level"], sheet(band, "Ada")["pending_level"]) == (4, 5)
    band.ok("session", "close")
    assert (sheet(band, "Ada")["level"], sheet(band, "Ada")["hit_dice_left"]) == (5, 5)
    assert logged(band, "hit_dice.restored")[-1]["count"] == 4  # the four dice level 4 had spent


def test_hit_dice_follow_level_are_spent_and_come_back_in_safe_time(band):
    # l.103: "The level of an adventurer chiefly signifies how many hit dice she has – one per level."
    # l.74-76: "Any number of hit dice can be added to a save roll ... A hit dice can be expended to
    # add +1 to any other roll. Hit dice expended in either fashion are used up until restored".
    band.ok("xp", "Ada", "2000", "--why", "the siege of Greyhold")
    assert (sheet(band, "Ada")["level_hit_dice"], sheet(band, "Ada")["hit_dice_left"]) == (3, 3)
    band.ok("hd", "spend", "Ada", "2", "--on", "save", "--why", "save against the troll's blow")
    assert sheet(band, "Ada")["hit_dice_left"] == 1
    assert "1 hit dice left" in band.refused("hd", "spend", "Ada", "2", "--why", "another save").stderr
    assert "one hit die adds +1" in band.refused("hd", "spend", "Ada", "2", "--on", "roll", "--why", "x").stderr
    assert "at least 1" in band.refused("hd", "spend", "Ada", "0", "--why", "x").stderr
    assert "save or roll" in band.refused("hd", "spend", "Ada", "1", "--on", "hit", "--why", "x").stderr
    # l.195: "Safe time ... expended hit dice are restored": between sessions, without a roll.
    assert "without a roll" in band.refused("hd", "restore", "Ada", "--dice", "6,6").stderr
    band.ok("hd", "restore", "Ada")
    assert logged(band, "hit_dice.restored") == [{"character": "Ada", "count": 2, "how": "safe_time"}]
    assert sheet(band, "Ada")["hit_dice_left"] == 3
    assert "spent no hit dice" in band.refused("hd", "restore", "Ada").stderr


def test_on_an_expedition_a_hit_die_comes_back_on_a_con_roll(band):
    # l.194: "Expended hit dice are restored at a rate of 1/turn of adventure time on a successful CON
    # skill roll." l.168-172: 6-8 is a delay, 9-11 a success.
    band.ok("xp", "Ada", "1000", "--why", "deeds")
    band.ok("session", "open", "--activate", "Ada")
    band.ok("hd", "spend", "Ada", "2", "--why", "a fall into the pit")
    band.ok("hd", "restore", "Ada", "--mod", "1", "--dice", "4,3")  # 7 + 1: a delay
    band.ok("hd", "restore", "Ada", "--mod", "1", "--dice", "4,4")  # 9: one back
    rolls = logged(band, "skill.rolled")
    assert [(r["attribute"], r["total"], r["result"]) for r in rolls] == [("CON", 8, "delay"), ("CON", 9, "success")]
    assert logged(band, "hit_dice.restored") == [{"character": "Ada", "count": 1, "how": "con_roll"}]
    assert sheet(band, "Ada")["hit_dice_left"] == 1
    band.ok("session", "close")  # safe time: the rest come back
    assert sheet(band, "Ada")["hit_dice_left"] == 2


def test_a_skill_roll_reads_the_table_and_natural_2s_and_12s_stand(band):
    # l.168-173: "2 or less Catastrophe | 3 – 5 Failure | 6 – 8 Delay | 9 – 11 Success | 12 or more
    # Extraordinary success"; l.177-178: "snake eyes are always a result of two regardless of
    # modifiers. Likewise, natural box-cars are always a 12."
    for mod, dice in (("3", "1,1"), ("-3", "6,6"), ("1", "4,4"), ("2", "3,3"), ("0", "2,1")):
        band.ok("skill", "Ada", "dex", "--mod", mod, "--why", "pick the lock", "--dice", dice)
    rolls = logged(band, "skill.rolled")
    assert [(r["natural"], r["total"], r["result"]) for r in rolls] == [
        (2, 2, "catastrophe"), (12, 12, "extraordinary"), (8, 9, "success"), (6, 8, "delay"), (3, 3, "failure")]
    assert rolls[0]["attribute"] == "DEX"
    # l.179: "A skill roll of 12 grants new expertise": the first area and this one.
    assert sheet(band, "Ada")["expertise_unclaimed"] == 2
    assert "not an attribute" in band.refused("skill", "Ada", "LUCK", "--why", "x").stderr
    assert "out of range" in band.refused("skill", "Ada", "DEX", "--mod", "30", "--why", "x").stderr
    assert "--dice ran out" in band.refused("skill", "Ada", "DEX", "--why", "x", "--dice", "4").stderr


def test_expertise_is_earned_tied_to_one_attribute_and_called_on_once_a_session(band):
    # l.94: "once per session to roll 3D6 and pick the best two dice when making any skill roll ...
    # When adventurers begin they have one area of expertise." l.95: "any one area of expertise can
    # only relate to a single attribute ... once it's set, it's set."
    band.ok("expertise", "add", "Ada", "hunting", "--attribute", "wis")
    assert "holds 1 area(s)" in band.refused("expertise", "add", "Ada", "sailing", "--attribute", "DEX").stderr
    assert "relates to WIS only" in band.refused("skill", "Ada", "DEX", "--expertise", "hunting",
                                                 "--why", "set a trap").stderr
    assert "no expertise in 'sailing'" in band.refused("skill", "Ada", "WIS", "--expertise", "sailing",
                                                       "--why", "x").stderr
    band.ok("session", "open", "--activate", "Ada")
    band.ok("skill", "Ada", "WIS", "--expertise", "Hunting", "--why", "track the elk", "--dice", "1,5,6")
    (roll,) = logged(band, "skill.rolled")
    assert (roll["expertise"], roll["natural"], roll["total"], roll["result"]) == ("hunting", 11, 11, "success")
    assert "once per session" in band.refused("skill", "Ada", "WIS", "--expertise", "hunting", "--why", "again",
                                              "--dice", "1,2,3").stderr
    band.ok("session", "close")
    band.ok("skill", "Ada", "WIS", "--expertise", "hunting", "--why", "downtime", "--dice", "2,2,2")
    # l.105: "On the attainment of odd-numbered levels, a adventurer may claim a new area of expertise".
    band.ok("xp", "Ada", "2000", "--why", "deeds")
    band.ok("expertise", "add", "Ada", "sailing", "--attribute", "DEX")
    gained = logged(band, "expertise.gained")
    assert [(g["area"], g["attribute"], g["held"], g["claims"]) for g in gained] == [
        ("hunting", "WIS", 0, 1), ("sailing", "DEX", 1, 2)]
    assert "already has expertise" in band.refused("expertise", "add", "Ada", "SAILING", "--attribute", "DEX").stderr


def test_a_hit_die_adds_one_to_a_skill_roll(band):
    # l.75: "A hit dice can be expended to add +1 to any other roll."
    band.ok("skill", "Ada", "STR", "--hit-die", "--why", "force the door", "--dice", "4,4")
    (roll,) = logged(band, "skill.rolled")
    assert (roll["total"], roll["result"], roll["hit_die"]) == (9, "success", True)
    (spent,) = logged(band, "hit_dice.spent")
    assert (spent["count"], spent["on"], spent["left"]) == (1, "roll", 1)
    assert "0 hit dice left" in band.refused("skill", "Ada", "STR", "--hit-die", "--why", "x",
                                             "--dice", "4,4").stderr


def test_when_treasure_gives_its_xp_is_a_setting(band):
    # l.107-108: "The expenditure seizure of treasure through adventure provides XP at a rate of
    # 1 XP/unit of currency": seized (the default) or spent.
    assert "treasure_xp is seized" in band.refused("xp", "Ada", "5", "--spent", "--why", "ale").stderr
    band.ok("campaign", "set", "treasure_xp", "spent")
    band.ok("session", "open", "--activate", "Ada", "--activate", "Bert")
    band.ok("treasure", "add", "300", "--from", "the barrow")
    band.ok("treasure", "split", "Ada=200", "Bert=100")
    assert logged(band, "xp.awarded") == []
    assert (sheet(band, "Ada")["xp"], sheet(band, "Ada")["treasure_unspent"]) == (0, 200)
    band.ok("vow", "swear", "Ada", "Build a hall at Lejre")
    band.ok("xp", "Ada", "150", "--spent", "--why", "a feast for the hall")  # halved under the vow
    (award,) = logged(band, "xp.awarded")
    assert (award["amount"], award["treasure"], award["treasure_rule"], award["vow_open"]) == (75, 150, "spent", True)
    assert "holds 50 unit(s)" in band.refused("xp", "Ada", "51", "--spent", "--why", "more ale").stderr
    assert "at least 1" in band.refused("xp", "Ada", "0", "--spent", "--why", "nothing").stderr
    assert sheet(band, "Ada")["treasure_unspent"] == 50


def test_a_late_loss_of_xp_under_a_later_level_is_refused(tally):
    # l.99-102 along the timeline: a level attained later rests on the XP held then.
    tally.ok("campaign", "new", "X", "--rules", "xp", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Ada", "--player", "Ann")
    tally.ok("xp", "Ada", "900", "--why", "deeds")
    tally.ok("calendar", "advance", "1w")
    tally.ok("xp", "Ada", "100", "--why", "more deeds")
    (attained,) = tally.ok("log", "--type", "level.attained", "--json").json
    message = tally.refused("xp", "Ada", "-500", "--why", "miscounted", "--game-date", "1024-03-02").stderr
    assert f"event {attained['position']} (level.attained" in message and "500 XP, too few for level 2" in message


def test_an_older_xp_award_is_upcast():
    from ledger.events.registry import decode

    v1 = {"character": "A", "amount": 10, "source": "treasure", "why": "x", "treasure": 10, "vow_open": False,
          "rounding": "down"}
    assert decode("xp.awarded", 1, v1).payload() == {**v1, "treasure_rule": "seized"}
    referee = {"character": "A", "amount": 10, "source": "referee", "why": "x", "treasure": None,
               "vow_open": False, "rounding": None}
    assert decode("xp.awarded", 1, referee).payload()["treasure_rule"] is None


def test_treasure_given_with_xp_under_an_open_vow_is_halved_like_a_share(tally):
    # 002 l.113-114: "once a vow is made, an adventurer only gains 1/2 XP from finding treasure until her
    # vow is achieved"; l.107-108: treasure "provides XP at a rate of 1 XP/unit of currency"
    t = tally  # both backends
    t.ok("campaign", "new", "Chainmail", "--rules", "xp", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Ada", "--player", "Ann")
    t.ok("vow", "swear", "Ada", "Avenge my brother")
    before = t.event_count()
    refused = t.refused("xp", "Ada", "+300", "--why", "treasure from the barrow")
    assert "Ada has an open vow, so treasure gives half XP (002 l.113-114)" in refused.stderr
    assert "--treasure" in refused.stderr and t.event_count() == before
    t.ok("xp", "Ada", "300", "--treasure", "--why", "the barrow's silver")
    (award,) = t.ok("log", "--type", "xp.awarded", "--json").json
    assert (award["payload"]["amount"], award["payload"]["treasure"], award["payload"]["vow_open"]) == (150, 300, True)
    t.ok("xp", "Ada", "50", "--why", "a duel won")  # not treasure: whole
    assert sheet(t, "Ada")["xp"] == 200
