"""The Company's treasury (issue 14 item 4): a Company stronghold's Economy tags
roll Income into the Company's Cash, which the referee pays out."""

import pytest

from tests.conftest import sheet


@pytest.fixture
def company(tally):
    """Greyhold, the Company's, rated 1 with two Economy tags; Nureddine (Wealth 2, 30 Cash)."""
    t = tally
    t.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "6", "--wealth", "2", "--cash", "30")
    t.ok("stronghold", "found", "Greyhold", "--owner", "company")
    t.ok("stronghold", "improve", "Greyhold", "--by", "Nureddine", "--wager", "10",
         "--tags", "Economy: river tolls,Economy: orchards", "--dice", ",".join(["6"] * 10 + ["1"] * 2))
    return t


def test_a_company_strongholds_economy_tags_roll_income_into_the_company_cash(company):
    # 004 l.176: "Individual characters or the company as a whole may invest time and money to
    # construct Strongholds"; l.183: "economic tags function like Wealth: the owner may roll
    # [Economic Tags] dice for Income during the inital phase of play each session".
    # --dice: Nureddine's Income (Wealth 2) first, then Greyhold's two Economy dice.
    company.ok("session", "open", "--activate", "Nureddine", "--dice", "1,2,5,6")
    (rolled,) = company.ok("log", "--type", "company.income_rolled", "--json").json
    assert rolled["payload"] == {"stronghold": "Greyhold", "economy_dice": 2, "successes": 2}
    assert rolled["cause"] == rolled["position"] - 1
    view = company.ok("company", "--json").json
    assert view["cash"] == 2 and view["strongholds"][0]["economy"] == 2
    assert "the Company's Cash: 2" in company.ok("company").stdout
    assert sheet(company, "Nureddine")["cash"] == 20  # her own Income rolled no success
    story = company.ok("why", "company", "--json").json
    assert story["value"] == 2
    assert [r["type"] for r in story["changes"]] == ["campaign.created", "company.income_rolled"]


def test_no_income_means_none_for_the_company_either(company):
    company.ok("session", "open", "--activate", "Nureddine", "--no-income")
    assert company.ok("company", "--json").json["cash"] == 0


def test_the_referee_pays_out_of_the_treasury_and_characters_pay_in(company):
    company.ok("treasury", "fund", "Nureddine", "5", "--why", "her share of the tolls")
    company.ok("treasury", "pay", "Nureddine", "3", "--why", "wages for the ford guards")
    assert company.ok("company", "--json").json["cash"] == 2
    assert sheet(company, "Nureddine")["cash"] == 18
    assert "the Company has 2 Cash and cannot give 3" in company.refused(
        "treasury", "pay", "Nureddine", "3", "--why", "x").stderr
    assert "Nureddine has 18 Cash and cannot give 19" in company.refused(
        "treasury", "fund", "Nureddine", "19", "--why", "x").stderr
    assert "at least 1 Cash" in company.refused("treasury", "pay", "Nureddine", "0", "--why", "x").stderr
    assert "no character named 'Ghost'" in company.refused("treasury", "pay", "Ghost", "1", "--why", "x").stderr


def test_the_treasury_pays_for_the_companys_own_stronghold(company):
    company.ok("treasury", "fund", "Nureddine", "14", "--why", "for the walls")
    company.ok("session", "open", "--game-date", "1024-03-08", "--activate", "Nureddine", "--no-income")
    plan = company.ok("stronghold", "improve", "Greyhold", "--by", "company", "--wager", "12", "--tags", "A,B",
                      "--dry-run", "--json").json
    assert (plan["ob"], plan["pool"], plan["wealth_dice"]) == (12, 12, 0)  # the Company has no Wealth score
    assert "the Company has 14 Cash and cannot wager 15" in company.refused(
        "stronghold", "improve", "Greyhold", "--by", "company", "--wager", "15", "--tags", "A,B").stderr
    company.ok("stronghold", "improve", "Greyhold", "--by", "company", "--wager", "12", "--tags", "A,B",
               "--dice", ",".join(["5"] * 12))
    assert company.ok("company", "--json").json["cash"] == 2
    assert company.ok("company", "--json").json["strongholds"][0]["rating"] == 2


def test_a_characters_stronghold_is_not_paid_from_the_treasury(company):
    company.ok("stronghold", "found", "Hut", "--owner", "Nureddine")
    assert "the Company's treasury pays only for the Company's own" in company.refused(
        "stronghold", "improve", "Hut", "--by", "company", "--wager", "1", "--tags", "A,B").stderr


def test_a_late_payment_that_empties_the_treasury_under_a_later_one_is_refused(company):
    company.ok("treasury", "fund", "Nureddine", "5", "--why", "tolls")
    company.ok("calendar", "advance", "2w")
    company.ok("treasury", "pay", "Nureddine", "4", "--why", "guards")
    (later,) = company.ok("log", "--type", "treasury.paid", "--json").json
    refused = company.refused("treasury", "pay", "Nureddine", "3", "--why", "a bribe", "--game-date", "1024-03-05")
    assert f"event {later['position']} (treasury.paid" in refused.stderr
    assert "the Company's Cash would be -2, below zero" in refused.stderr
