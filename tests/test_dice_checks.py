"""A roll checked against a target: what the event records, the odds of the
same check, the setting that says how "roll under" reads, and the refusals."""

from fractions import Fraction

import pytest

from ledger.dice.check import Target, target
from ledger.dice.expression import parse
from ledger.dice.odds import distribution
from ledger.errors import BadInput
from ledger.events.upcasters import upcast
from tests.test_decoder import plant


def check_of(t, *args):
    return t.ok("roll", *args, "--json").json["check"]


def test_a_roll_below_its_target_passes_with_its_margin(campaign):
    # 003 l.13: "They must roll below this number on 2d6 to succeed."
    assert check_of(campaign, "2d6", "--dice", "3,3", "--under", "7") == {
        "against": "below", "target": 7, "passed": True, "margin": 1, "epic": None, "band": None}
    assert check_of(campaign, "2d6", "--dice", "3,4", "--under", "7")["passed"] is False


def test_epic_bands_are_a_margin_either_way(campaign):
    # 003 l.23: "Generally getting 3 less than they need is an "epic success", 3 more an "epic failure"."
    epic = check_of(campaign, "2d6", "--dice", "2,2", "--under", "7", "--epic", "3")
    assert (epic["passed"], epic["margin"], epic["band"]) == (True, 3, "epic success")
    plain = check_of(campaign, "2d6", "--dice", "2,3", "--under", "7", "--epic", "3")
    assert (plain["passed"], plain["margin"], plain["band"]) == (True, 2, None)
    failure = check_of(campaign, "2d6", "--dice", "5,5", "--under", "7", "--epic", "3")
    assert (failure["passed"], failure["margin"], failure["band"]) == (False, -3, "epic failure")
    # 004 l.44: "a Margin of 3 or more might drastically exaggerate the effect".
    pool = check_of(campaign, "6d6s4", "--dice", "4,5,6,6,6,1", "--ob", "2", "--epic", "3")
    assert (pool["against"], pool["margin"], pool["band"]) == ("ob", 3, "epic success")


@pytest.mark.parametrize("args, against, passed, margin", [
    # 001 l.797: "the number which must not be exceeded by a percentile dice throw"
    (("d%", "--dice", "23", "--at-most", "23"), "at_most", True, 0),
    (("d%", "--dice", "0", "--at-most", "99"), "at_most", False, -1),  # 00 is 100 (001 l.143)
    # 000 l.167: "Dodging is used to avoid peril. A 15 or more must be rolled."
    (("d20", "--dice", "15", "--at-least", "15"), "at_least", True, 0),
    # 001 l.501: "If the combined total is larger than the rating score ... the player succeeds."
    (("1d20+36", "--dice", "4", "--over", "40"), "above", False, 0),
    (("1d20+36", "--dice", "5", "--over", "40"), "above", True, 1),
    # 004 l.19: "If you roll enough Successful dice to match or beat the Objective ... you pass"
    (("4d6s4", "--dice", "4,4,1,1", "--ob", "2"), "ob", True, 0),
])
def test_each_kind_of_target(campaign, args, against, passed, margin):
    check = check_of(campaign, *args)
    assert (check["against"], check["passed"], check["margin"]) == (against, passed, margin)


def test_roll_under_follows_the_wolves_setting_and_the_event_records_the_reading(tally):
    # 000 l.161: "Players attempt to roll under the Characteristic on a variable number of d6s".
    tally.ok("campaign", "new", "Karvi", "--rules", "wolves", "--start", "1024-03-01")
    assert check_of(tally, "3d6", "--dice", "4,4,4", "--under", "12")["passed"] is False
    tally.ok("campaign", "set", "roll_under", "at_most")
    at_most = check_of(tally, "3d6", "--dice", "4,4,4", "--under", "12")
    assert (at_most["against"], at_most["passed"], at_most["margin"]) == ("at_most", True, 0)
    assert "at most 12: pass, margin 0" in tally.ok("log").stdout
    assert "P(3d6 <= 12) = 74.07% (exactly 20/27)" in tally.ok("odds", "3d6", "--under", "12").stdout
    tally.ok("campaign", "set", "roll_under", "below")
    assert "P(3d6 < 12) = 62.50% (exactly 5/8)" in tally.ok("odds", "3d6", "--under", "12").stdout


def test_roll_under_is_a_wolves_setting(campaign):
    assert "belongs to the wolves rules" in campaign.refused("campaign", "set", "roll_under", "at_most").stderr


def test_odds_without_a_ledger_read_under_as_below(tmp_path):
    from tests.conftest import Tally

    t = Tally(str(tmp_path / "none.db"))
    assert "P(2d6 < 7) = 41.67% (exactly 5/12)" in t.ok("odds", "2d6", "--under", "7").stdout
    assert not (tmp_path / "none.db").exists()


def test_odds_of_a_check_and_its_bands_are_exact(campaign):
    odds = campaign.ok("odds", "2d6", "--under", "7", "--epic", "3", "--json").json
    assert (odds["against"], odds["target"], odds["exact"]) == ("below", 7, "5/12")
    assert odds["epic_success"]["exact"] == "1/6"  # 2d6 of 4 or less
    assert odds["epic_failure"]["exact"] == "1/6"  # 10 or more
    shown = campaign.ok("odds", "2d6", "--under", "7", "--epic", "3").stdout
    assert "P(epic success, a margin of 3 or more) = 16.67% (exactly 1/6)" in shown
    assert campaign.ok("odds", "12d6s4", "--ob", "6", "--json").json["exact"] == "1255/2048"


def test_check_chances_sum_what_passes():
    dist = distribution(parse("3d6"))
    below = Target("below", 12, epic=3).chances(dist)
    assert below["pass"] == Fraction(5, 8)
    assert below["epic success"] == sum(p for t, p in dist.items() if t <= 9)
    assert below["epic failure"] == sum(p for t, p in dist.items() if t >= 15)
    assert Target("at_most", 12).chances(dist)["pass"] == Fraction(20, 27)


@pytest.mark.parametrize("args, message", [
    (("2d6", "--under", "7", "--ob", "3"), "a roll has one target: give only one of --under and --ob"),
    (("2d6", "--epic", "3"), "--epic needs a target"),
    (("2d6", "--under", "7", "--epic", "0"), "--epic takes a margin of 1 or more"),
    (("2d6", "--at-least", "2000000"), "out of reach"),
    (("2d6", "--under", "seven"), None),
])
def test_bad_targets_are_refused_and_nothing_is_written(campaign, args, message):
    if message is None:  # Typer's own usage error: exit 2, nothing written
        before = campaign.event_count()
        assert campaign("roll", *args).exit_code == 2 and campaign.event_count() == before
        return
    assert message in campaign.refused("roll", *args).stderr
    assert message in campaign.refused("odds", *args).stderr


def test_a_checked_roll_still_audits(campaign):
    campaign.ok("roll", "2d6kh1!", "--at-least", "6", "--epic", "3")
    campaign.ok("roll", "4d6rr1dl1", "--under", "12")
    campaign.ok("dice", "reveal")
    assert campaign.ok("audit", "--json").json["ok"]


def test_rolls_recorded_before_checks_read_with_no_check(campaign):
    stored = {"expression": "2d6", "dice": [3, 4], "total": 7, "epoch": 1, "nonce": None,
              "verifiable": False, "character": None, "why": None}
    assert upcast("dice.rolled", 1, stored) == {**stored, "check": None, "source": None, "source_id": None,
                                                 "speaker": None, "rolled_at": None, "dropped": [],
                                                 "exact_total": None, "on": None}  # schema 3: no sealed table
    assert "check" not in stored
    position = plant(campaign.url, "dice.rolled", 1, stored, stream="epoch:1")
    logged = campaign.ok("log", "--type", "dice.rolled", "--json").json[-1]
    assert logged["position"] == position and logged["upcast_from"] == 1 and logged["payload"]["check"] is None
    assert campaign.ok("dice", "epochs", "--json").json[0]["hand_rolls"] == 1
    assert campaign.ok("roll", "2d6", "--json").json["check"] is None


def test_target_reads_under_as_the_setting_says():
    assert target("under", 7) == Target("below", 7)
    assert target("under", 7, roll_under="at_most") == Target("at_most", 7)
    assert target("over", 7, 2) == Target("above", 7, 2)
    with pytest.raises(BadInput):
        target("beside", 7)
