"""The skirmish campaign rules (seed 003), with hand-rolled dice."""

import json
from pathlib import Path

import pytest

from ledger.rules import skirmish
from tests.conftest import Tally, sheet

TABLES = json.loads((Path(__file__).parent.parent / "fixtures" / "tables" / "skirmish.json").read_text())


@pytest.fixture
def company(tally) -> Tally:
    t = tally  # both backends: SQLite and the throwaway PostgreSQL
    t.ok("campaign", "new", "Rifles", "--rules", "skirmish", "--start", "1812-06-01")
    t.ok("player", "add", "Ann")
    t.ok("player", "add", "Ben")
    t.ok("char", "new", "Sharpe", "--player", "Ann")
    return t


def events(t: Tally, event_type: str) -> list[dict]:
    return t.ok("log", "--type", event_type, "--json").json


def test_tables_cell_by_cell():
    for total, result in TABLES["wound_roll"]["rows"].items():  # l.122-128
        assert skirmish.wound_result(int(total)) == result
    for total, result in TABLES["healing"]["rows"].items():  # l.130-138
        assert skirmish.healing_result(int(total) if int(total) > 2 else 2, int(total)) == result
    # l.134: "2 is always a mistake no matter what bonuses the healer has"
    assert skirmish.healing_result(2, 8) == "mistake"
    assert skirmish.CLOTHING_RENOWN == TABLES["clothing_renown"]["modifiers"]  # l.421-435
    for name, clothing in skirmish.CLOTHING.items():  # l.435: "Armour (-1M, -1 to deadliness of all weapons)"
        assert clothing["movement"] == TABLES["clothing_movement"]["modifiers"].get(name, 0), name
        assert clothing["deadliness"] == TABLES["clothing_deadliness"]["modifiers"].get(name, 0), name
    printed = {int(level): bonus for level, bonus in TABLES["skill_bonus"]["printed"].items()}  # l.348
    assert skirmish.SKILL_BONUS["printed"] == printed
    assert {level: bonus for level, bonus in skirmish.SKILL_BONUS["stepped"].items() if level not in (4, 5)} == {
        level: bonus for level, bonus in printed.items() if level not in (4, 5)}


# -- luck (003 l.311-318) ------------------------------------------------------------

def test_a_luck_point_rerolls_a_logged_roll_and_records_the_new_faces(company):
    # l.313: "a luck point may be expended to reroll, or force your opponent to reroll"
    assert sheet(company, "Sharpe")["luck"] == 1  # setting luck_start
    roll = company.ok("roll", "2d6", "--for", "Sharpe", "--why", "shooting", "--dice", "1,2", "--json").json["position"]
    company.ok("luck", "spend", "Sharpe", "--roll", str(roll), "--why", "a missed shot", "--dice", "6,5")
    (spent,) = [e for e in events(company, "luck.changed") if e["payload"]["reason"] == "spent"]
    reroll = events(company, "dice.rolled")[-1]
    assert (reroll["payload"]["expression"], reroll["payload"]["dice"], reroll["payload"]["total"]) == (
        "2d6", [6, 5], 11)
    assert (reroll["payload"]["character"], reroll["position"]) == ("Sharpe", roll + 1)
    p = spent["payload"]
    assert (p["mode"], p["roll"], p["rerolls"], spent["cause"], p["delta"]) == (
        "reroll", roll, "once", reroll["position"], -1)
    assert sheet(company, "Sharpe")["luck"] == 0
    assert "no luck points left" in company.refused("luck", "spend", "Sharpe", "--roll", "last",
                                                    "--why", "again").stderr
    regained = company.ok("luck", "regain", "Sharpe", "5")
    assert sheet(company, "Sharpe")["luck"] == 3  # setting luck_cap
    assert "Sharpe luck +3 (regained, cap 3)" in regained.stdout  # what was gained, not the 5 asked
    assert "the cap" in company.refused("luck", "regain", "Sharpe").stderr


def test_a_luck_reroll_passes_or_fails_against_the_first_rolls_target(company):
    # 003 l.313: "a luck point may be expended to reroll, or force your opponent to reroll, any of the
    # following; - A nerve test on the character" -- the test is the same, so is its target.
    company.ok("luck", "regain", "Sharpe", "2")
    company.ok("roll", "2d6", "--for", "Sharpe", "--under", "8", "--why", "nerve test", "--dice", "6,5")
    company.ok("luck", "spend", "Sharpe", "--roll", "last", "--why", "steady", "--dice", "1,2")
    first, second = events(company, "dice.rolled")[-2:]
    assert first["payload"]["check"]["passed"] is False
    c = second["payload"]["check"]
    assert (c["against"], c["target"], c["passed"], c["margin"]) == ("below", 8, True, 5)
    company.ok("roll", "2d6", "--for", "Sharpe", "--why", "no target", "--dice", "6,5")
    company.ok("luck", "spend", "Sharpe", "--roll", "last", "--why", "again", "--dice", "1,2")
    assert events(company, "dice.rolled")[-1]["payload"]["check"] is None  # none asked, none recorded


def test_a_derived_reroll_is_verifiable_by_the_audit(company):
    company.ok("roll", "2d6", "--for", "Sharpe", "--why", "striking")
    company.ok("luck", "spend", "Sharpe", "--roll", "last", "--why", "a clash of blades")
    first, second = events(company, "dice.rolled")[-2:]
    assert second["payload"]["nonce"] == first["payload"]["nonce"] + 1 and second["payload"]["verifiable"]
    assert second["payload"]["why"].startswith(f"luck re-roll of roll {first['position']}")
    company.ok("dice", "reveal")
    assert company.ok("audit", "--json").json["ok"]


def test_what_luck_may_and_may_not_reroll(company):
    # l.315-318: a nerve test; shooting, parrying, striking or wounding rolls made by the character or
    # against him; any skill-based roll. A roll something was decided on is not a plain roll.
    company.ok("char", "new", "Hagman", "--player", "Ben")
    company.ok("luck", "regain", "Sharpe", "2")
    theirs = company.ok("roll", "2d6", "--for", "Hagman", "--why", "shooting at Sharpe", "--dice", "6,6",
                        "--json").json["position"]
    out = company.refused("luck", "spend", "Sharpe", "--roll", str(theirs), "--why", "x")
    assert "was Hagman's" in out.stderr and "--mode force-reroll" in out.stderr
    company.ok("luck", "spend", "Sharpe", "--roll", str(theirs), "--mode", "force-reroll", "--why", "a lucky miss",
               "--dice", "1,2")
    forced = events(company, "dice.rolled")[-1]
    assert (forced["payload"]["character"], forced["payload"]["dice"]) == ("Hagman", [1, 2])
    assert "re-rolled already" in company.refused("luck", "spend", "Sharpe", "--roll", str(theirs),
                                                  "--mode", "force-reroll", "--why", "x").stderr
    # luck_rerolls=once (the seed is silent, Z-34): a re-roll stands.
    out = company.refused("luck", "spend", "Sharpe", "--roll", "last", "--mode", "force-reroll", "--why", "x")
    assert "itself a luck re-roll" in out.stderr and "luck_rerolls=once" in out.stderr
    company.ok("campaign", "set", "luck_rerolls", "chain")
    company.ok("luck", "spend", "Sharpe", "--roll", "last", "--mode", "force-reroll", "--why", "again",
               "--dice", "3,3")
    own = company.ok("roll", "2d6", "--for", "Sharpe", "--dice", "2,2", "--json").json["position"]
    assert "Sharpe's own" in company.refused("luck", "spend", "Sharpe", "--roll", str(own), "--mode",
                                             "force-reroll", "--why", "x").stderr
    company.ok("wound", "roll", "Sharpe", "--dice", "2,3")
    wound = events(company, "dice.rolled")[-1]["position"]
    out = company.refused("luck", "spend", "Sharpe", "--roll", str(wound), "--why", "x")
    assert "decided event" in out.stderr and "plain roll" in out.stderr
    company.ok("void", str(own), "--why", "rolled for the wrong man")
    assert "was voided" in company.refused("luck", "spend", "Sharpe", "--roll", str(own), "--why", "x").stderr
    assert "no roll at position" in company.refused("luck", "spend", "Sharpe", "--roll", "1", "--why", "x").stderr
    assert "say which roll" in company.refused("luck", "spend", "Sharpe", "--why", "x").stderr


def test_a_roll_made_off_the_ledger_is_rerolled_here(company):
    company.ok("luck", "spend", "Sharpe", "--expr", "2d6", "--why", "a nerve test at the table", "--dice", "4,4")
    reroll = events(company, "dice.rolled")[-1]["payload"]
    assert (reroll["expression"], reroll["total"], reroll["character"]) == ("2d6", 8, "Sharpe")
    assert [e["payload"]["roll"] for e in events(company, "luck.changed")][-1] is None


def test_a_reroll_belongs_to_its_own_epoch(company):
    roll = company.ok("roll", "2d6", "--for", "Sharpe", "--dice", "1,1", "--json").json["position"]
    company.ok("dice", "reveal")
    out = company.refused("luck", "spend", "Sharpe", "--roll", str(roll), "--why", "too late")
    assert "earlier dice epoch" in out.stderr


def test_luck_refresh_at_session_close(company):
    company.ok("campaign", "set", "luck_refresh", "session")
    company.ok("session", "open", "--activate", "Sharpe")
    company.ok("luck", "spend", "Sharpe", "--expr", "2d6", "--why", "nerve test", "--dice", "3,4")
    company.ok("session", "close")
    assert sheet(company, "Sharpe")["luck"] == 1


# -- wounds and healing (003 l.120-138) -----------------------------------------------------

def test_wounds_are_permanent_and_cumulative_and_a_healer_rolls_with_the_skill_bonus(company):
    # l.120: "Results of wound rolls ... are permanent and cumulative."
    # l.132: "A character with healing skill will be able to make a roll on the healing table"
    company.ok("char", "new", "Harper", "--player", "Ben", "--skills", "Healing=2")  # l.348: level 2 gives +2
    company.ok("wound", "roll", "Sharpe", "--dice", "2,3")  # 5: leg wound
    company.ok("wound", "roll", "Sharpe", "--dice", "1,2")  # 3: open wound
    wounds = sheet(company, "Sharpe")["wounds"]
    assert [(w["number"], w["result"], w["effect"]) for w in wounds] == [
        (1, "leg", "-3 M"), (2, "open", "roll a d6 and die on a 1")]
    # l.137: "6-9 Success: Character now has post-healing effects."
    company.ok("wound", "heal", "Sharpe", "1", "--healer", "Harper", "--dice", "2,2")  # 4 + 2
    healing = events(company, "wound.healing")[-1]["payload"]
    assert (healing["healer"], healing["skill"], healing["bonus"], healing["total"], healing["ladder"]) == (
        "Harper", 2, 2, 6, "printed")
    assert sheet(company, "Sharpe")["wounds"][0]["effect"] == "-1 M permanently"
    assert "already healed" in company.refused("wound", "heal", "Sharpe", "1", "--healer", "Harper").stderr
    # l.134: a natural 2 is a mistake whatever the bonus: a new wound roll.
    company.ok("wound", "heal", "Sharpe", "2", "--healer", "Harper", "--dice", "1,1,6,6")
    assert [w["result"] for w in sheet(company, "Sharpe")["wounds"]] == ["leg", "open", "recovered"]
    # l.124: "Until the character is healed, they must roll a d6 and die on a 1."
    company.ok("wound", "check", "Sharpe", "--dice", "2")
    assert sheet(company, "Sharpe")["status"] == "active"
    company.ok("wound", "check", "Sharpe", "--dice", "1")
    assert sheet(company, "Sharpe")["status"] == "dead"


def test_only_a_healer_with_the_skill_rolls_and_the_ladder_is_a_setting(company):
    # l.132: healing skill needed; l.348: "4-5 a +4" as printed, or +3 (setting skill_bonus, Z-36).
    company.ok("char", "new", "Harper", "--player", "Ben")
    company.ok("wound", "roll", "Sharpe", "--dice", "3,4")  # 7: left arm
    out = company.refused("wound", "heal", "Sharpe", "1", "--healer", "Harper")
    assert "no Healing skill" in out.stderr and "003 l.132" in out.stderr
    assert "--skill N" in company.refused("wound", "heal", "Sharpe", "1", "--healer", "Dr Kelly").stderr
    assert "drop --skill" in company.refused("wound", "heal", "Sharpe", "1", "--healer", "Harper",
                                             "--skill", "3").stderr
    company.ok("skirmish", "skill", "Harper", "healing", "4", "--why", "a surgeon's mate in Spain")
    company.ok("campaign", "set", "skill_bonus", "stepped")
    company.ok("wound", "heal", "Sharpe", "1", "--healer", "Harper", "--dice", "3,3")  # 6 + 3 = 9: healed
    company.ok("wound", "roll", "Sharpe", "--dice", "4,5")  # 9: right arm
    company.ok("campaign", "set", "skill_bonus", "printed")
    company.ok("wound", "heal", "Sharpe", "2", "--healer", "Dr Kelly", "--skill", "4", "--dice", "3,3")  # 6 + 4 = 10
    first, second = (e["payload"] for e in events(company, "wound.healing"))
    assert (first["bonus"], first["result"], first["ladder"]) == (3, "healed", "stepped")
    assert (second["healer"], second["bonus"], second["result"]) == ("Dr Kelly", 4, "healed_clean")


# -- level, stats and skills (003 l.320-348) ------------------------------------------------

def test_level_caps_hero_stats_and_the_skills_allowed(company):
    # l.322: "Maximums of hero stats ... are determined by level, as are the numbers of different
    # skill values available to them." No table: settings stat_caps and skill_allowance.
    company.ok("skirmish", "stat", "Sharpe", "St", "9")  # no caps set: anything goes
    company.ok("campaign", "set", "stat_caps", "5,6,7")
    company.ok("campaign", "set", "skill_allowance", "1,2")
    out = company.refused("skirmish", "stat", "Sharpe", "Nv", "6")
    assert "Nerve 6, above level 1's cap of 5" in out.stderr
    company.ok("skirmish", "stat", "Sharpe", "M", "8")  # Movement is on another scale: not capped
    company.ok("skirmish", "stat", "Sharpe", "nerve", "5")
    company.ok("skirmish", "skill", "Sharpe", "Shooting", "2")
    assert "2 different skills, more than level 1 allows (1" in company.refused(
        "skirmish", "skill", "Sharpe", "Stealth", "1").stderr
    company.ok("skirmish", "skill", "Sharpe", "shooting", "3")  # the same skill, better: still one
    company.ok("skirmish", "level", "Sharpe", "3", "--why", "promoted at Talavera")
    company.ok("skirmish", "skill", "Sharpe", "Stealth", "1")
    company.ok("skirmish", "stat", "Sharpe", "Nv", "7")
    s = sheet(company, "Sharpe")
    assert (s["stats"], s["skills"], s["skirmish_level"]) == (
        {"Striking": 9, "Movement": 8, "Nerve": 7}, {"Shooting": 3, "Stealth": 1}, 3)
    level = events(company, "skirmish.level_set")[-1]["payload"]
    assert (level["stat_cap"], level["skill_allowance"]) == (7, 2)
    stat = events(company, "skirmish.stat_set")[-1]["payload"]
    assert (stat["stat"], stat["value"], stat["level"], stat["cap"]) == ("Nerve", 7, 3, 7)
    # Striking 9 was set before the caps: a demotion is refused for the Nerve it would put above the cap.
    out = company.refused("skirmish", "level", "Sharpe", "2", "--why", "demoted").stderr
    assert "would have Nerve 7, above level 2's cap of 6" in out
    assert "a skill's level is 1 to 6" in company.refused("skirmish", "skill", "Sharpe", "Riding", "7").stderr
    assert "unknown hero stat" in company.refused("skirmish", "stat", "Sharpe", "Charm", "3").stderr
    assert "none, or whole numbers" in company.refused("campaign", "set", "stat_caps", "5,x").stderr
    assert "would start with 2 different skills" in company.refused(
        "char", "new", "Harper", "--player", "Ben", "--skills", "Healing=1,Riding=1").stderr


def test_a_late_demotion_that_a_later_stat_exceeds_is_refused(company):
    company.ok("campaign", "set", "stat_caps", "5,6,7")
    company.ok("skirmish", "level", "Sharpe", "2", "--why", "promoted")
    company.ok("calendar", "advance", "5d")
    raised = company.ok("skirmish", "stat", "Sharpe", "Pw", "6", "--json").json[0]["position"]
    out = company.refused("skirmish", "level", "Sharpe", "1", "--why", "broken to the ranks",
                          "--game-date", "1812-06-03")
    assert f"event {raised} (skirmish.stat_set" in out.stderr and "cap of 5" in out.stderr


# -- renown and clothing (003 l.419-435) ----------------------------------------------------

def test_renown_clothing_armour_and_level(company):
    company.ok("skirmish", "renown", "Sharpe", "+2", "--why", "took the eagle at Talavera")
    company.ok("skirmish", "clothing", "Sharpe", "officer's uniform")  # l.433: +1 to Rn in real terms
    s = sheet(company, "Sharpe")
    assert (s["renown"], s["effective_renown"], s["clothing"]) == (2, 3, "Officer's Uniform")
    assert s["clothing_effect"] == "allows command of troops"
    # l.435: "Armour (-1M, -1 to deadliness of all weapons)", listed among the clothing.
    company.ok("skirmish", "clothing", "Sharpe", "armour")
    s = sheet(company, "Sharpe")
    assert (s["effective_renown"], s["clothing"]) == (2, "Armour")
    worn = events(company, "clothing.worn")[-1]["payload"]
    assert (worn["movement_modifier"], worn["deadliness_modifier"]) == (-1, -1)
    company.ok("skirmish", "level", "Sharpe", "2", "--why", "promoted in the field")
    assert sheet(company, "Sharpe")["skirmish_level"] == 2
    assert "unknown clothing" in company.refused("skirmish", "clothing", "Sharpe", "toga").stderr
    assert "whole number" in company.refused("campaign", "set", "luck_cap", "lots").stderr


@pytest.mark.parametrize("event_type, schema, stored, current", [
    ("luck.changed", 1, {"character": "A", "delta": -1, "reason": "spent", "cap": 3, "after": 0, "mode": "reroll",
                         "roll": None},
     {"character": "A", "delta": -1, "reason": "spent", "cap": 3, "mode": "reroll", "roll": None, "rerolls": None}),
    ("luck.changed", 2, {"character": "A", "delta": -1, "reason": "spent", "cap": 3, "mode": "reroll", "roll": 7},
     {"character": "A", "delta": -1, "reason": "spent", "cap": 3, "mode": "reroll", "roll": 7, "rerolls": None}),
    ("skirmish.level_set", 1, {"character": "A", "level": 2, "why": "x"},
     {"character": "A", "level": 2, "why": "x", "stat_cap": None, "skill_allowance": None}),
    ("wound.healing", 1, {"character": "A", "wound": 1, "natural": 6, "bonus": 1, "total": 7, "result": "healed"},
     {"character": "A", "wound": 1, "natural": 6, "bonus": 1, "total": 7, "result": "healed", "healer": None,
      "skill": None, "ladder": None}),
    ("clothing.worn", 1, {"character": "A", "clothing": "Rags", "renown_modifier": -1},
     {"character": "A", "clothing": "Rags", "renown_modifier": -1, "movement_modifier": 0,
      "deadliness_modifier": 0}),
])
def test_older_skirmish_payloads_are_upcast(event_type, schema, stored, current):
    from ledger.events.registry import decode

    assert decode(event_type, schema, stored).payload() == current
