"""The skirmish campaign rules (seed 003), with hand-rolled dice."""

import json
from pathlib import Path

import pytest

from ledger.rules import skirmish
from tests.conftest import Tally, sheet

TABLES = json.loads((Path(__file__).parent.parent / "fixtures" / "tables" / "skirmish.json").read_text())


@pytest.fixture
def company(tally_sqlite) -> Tally:
    t = tally_sqlite
    t.ok("campaign", "new", "Rifles", "--rules", "skirmish", "--start", "1812-06-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Sharpe", "--player", "Ann")
    return t


def test_tables_cell_by_cell():
    for total, result in TABLES["wound_roll"]["rows"].items():  # l.122-128
        assert skirmish.wound_result(int(total)) == result
    for total, result in TABLES["healing"]["rows"].items():  # l.130-138
        assert skirmish.healing_result(int(total) if int(total) > 2 else 2, int(total)) == result
    # l.132: "2 is always a mistake no matter what bonuses the healer has"
    assert skirmish.healing_result(2, 8) == "mistake"
    assert skirmish.CLOTHING_RENOWN == TABLES["clothing_renown"]["modifiers"]


def test_luck_starts_is_spent_and_regained_within_the_cap(company):
    # l.311: "a luck point may be expended to reroll, or force your opponent to reroll"
    assert sheet(company, "Sharpe")["luck"] == 1  # setting luck_start
    roll = company.ok("roll", "2d6", "--for", "Sharpe", "--why", "shooting", "--json").json["position"]
    company.ok("luck", "spend", "Sharpe", "--roll", str(roll), "--why", "a missed shot")
    (spent,) = [e for e in company.ok("log", "--type", "luck.changed", "--json").json if e["payload"]["reason"] == "spent"]
    assert (spent["payload"]["mode"], spent["cause"], spent["payload"]["delta"]) == ("reroll", roll, -1)
    assert sheet(company, "Sharpe")["luck"] == 0
    assert "no luck points left" in company.refused("luck", "spend", "Sharpe", "--why", "again").stderr
    company.ok("luck", "regain", "Sharpe", "5")
    assert sheet(company, "Sharpe")["luck"] == 3  # setting luck_cap
    assert "the cap" in company.refused("luck", "regain", "Sharpe").stderr


def test_luck_refresh_at_session_close(company):
    company.ok("campaign", "set", "luck_refresh", "session")
    company.ok("session", "open", "--activate", "Sharpe")
    company.ok("luck", "spend", "Sharpe", "--why", "nerve test")
    company.ok("session", "close")
    assert sheet(company, "Sharpe")["luck"] == 1


def test_wounds_are_permanent_and_cumulative_and_heal_by_the_table(company):
    # l.120: "Results of wound rolls ... are permanent and cumulative."
    company.ok("wound", "roll", "Sharpe", "--dice", "2,3")  # 5: leg wound
    company.ok("wound", "roll", "Sharpe", "--dice", "1,2")  # 3: open wound
    wounds = sheet(company, "Sharpe")["wounds"]
    assert [(w["number"], w["result"], w["effect"]) for w in wounds] == [
        (1, "leg", "-3 M"), (2, "open", "roll a d6 and die on a 1")]
    # l.137: "6-9 Success: Character now has post-healing effects."
    company.ok("wound", "heal", "Sharpe", "1", "--bonus", "1", "--dice", "3,3")
    assert sheet(company, "Sharpe")["wounds"][0]["effect"] == "-1 M permanently"
    assert "already healed" in company.refused("wound", "heal", "Sharpe", "1").stderr
    # l.134: a natural 2 is a mistake whatever the bonus: a new wound roll.
    company.ok("wound", "heal", "Sharpe", "2", "--bonus", "4", "--dice", "1,1,6,6")
    assert [w["result"] for w in sheet(company, "Sharpe")["wounds"]] == ["leg", "open", "recovered"]
    # l.124: "Until the character is healed, they must roll a d6 and die on a 1."
    company.ok("wound", "check", "Sharpe", "--dice", "2")
    assert sheet(company, "Sharpe")["status"] == "active"
    company.ok("wound", "check", "Sharpe", "--dice", "1")
    assert sheet(company, "Sharpe")["status"] == "dead"


def test_renown_clothing_and_level(company):
    company.ok("skirmish", "renown", "Sharpe", "+2", "--why", "took the eagle at Talavera")
    company.ok("skirmish", "clothing", "Sharpe", "officer's uniform")  # l.431: +1 to Rn in real terms
    s = sheet(company, "Sharpe")
    assert (s["renown"], s["effective_renown"], s["clothing"]) == (2, 3, "Officer's Uniform")
    company.ok("skirmish", "level", "Sharpe", "2", "--why", "promoted in the field")
    assert sheet(company, "Sharpe")["skirmish_level"] == 2
    assert "unknown clothing" in company.refused("skirmish", "clothing", "Sharpe", "toga").stderr
    assert "whole number" in company.refused("campaign", "set", "luck_cap", "lots").stderr
