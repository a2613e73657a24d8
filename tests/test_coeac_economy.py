"""Cash, Wealth, buying, selling, strongholds and Reputation (seed 004),
from the seed's own worked examples, with hand-rolled dice."""

import pytest

from tests.conftest import sheet

SIX_OF_TWELVE = "4,5,6,4,5,6,1,2,3,1,2,3"  # exactly six successes


def test_the_warhorse_under_the_pool_rule(table):
    # 004 l.153: "purchase a warhorse (Cost 6) ... Wealth 5 ... wager seven Cash dice ... a total
    # of 12 dice ... If at least six dice are successes, she acquires the destrier ... Either way,
    # the seven Cash dice that she wagered at permanently lost."
    table.ok("campaign", "set", "purchase_rule", "pool")
    dry = table.ok("buy", "Nureddine", "warhorse", "--cost", "6", "--wager", "7", "--dry-run", "--json").json
    assert (dry["ob"], dry["pool"], dry["exact"]) == (6, 12, "1255/2048")
    assert table.event_count() == 9  # the dry run recorded nothing
    table.ok("buy", "Nureddine", "warhorse", "--cost", "6", "--wager", "7", "--dice", SIX_OF_TWELVE)
    (bought,) = table.ok("log", "--type", "item.bought", "--json").json
    p = bought["payload"]
    assert (p["rule"], p["ob"], p["pool"], p["successes"], p["succeeded"], p["cash_spent"]) == (
        "pool", 6, 12, 6, True, 7)
    assert bought["cause"] == bought["position"] - 1  # the roll it follows from
    assert sheet(table, "Nureddine")["cash"] == 33


def test_one_success_short_keeps_the_horse_but_not_the_cash(table):
    table.ok("campaign", "set", "purchase_rule", "pool")
    table.ok("buy", "Nureddine", "warhorse", "--cost", "6", "--wager", "7", "--dice", "4,5,6,4,5,1,1,2,3,1,2,3")
    (bought,) = table.ok("log", "--type", "item.bought", "--json").json
    assert bought["payload"]["succeeded"] is False
    assert sheet(table, "Nureddine")["cash"] == 33


def test_wealth_4_cost_6_under_the_discount_rule(table):
    # 004 l.602: "if your Wealth rating is 4 and you would like to purchase a Cost 6 service, you
    # must succeed against an Objective 2 Cash test"
    table.ok("char", "new", "Merchant", "--player", "Cy", "--max-hp", "5", "--wealth", "4", "--cash", "6")
    table.ok("buy", "Merchant", "a fine cloak", "--cost", "6", "--wager", "4", "--dice", "6,4,1,1")
    p = table.ok("log", "--type", "item.bought", "--json").json[0]["payload"]
    assert (p["rule"], p["ob"], p["pool"], p["successes"], p["succeeded"]) == ("discount", 2, 4, 2, True)
    assert sheet(table, "Merchant")["cash"] == 2


def test_discounted_to_zero_costs_one_cash_die_without_a_roll(table):
    # 004 l.603: "discounted to Cost 0 ... purchased for the flat cost of a single Cash die (no wager or roll)"
    # The dry run says so (it said "wagering 0 Cash: certain", as if it cost nothing).
    said = table.ok("buy", "Nureddine", "rope", "--cost", "5", "--dry-run").stdout
    assert said == "Nureddine: Ob 0, so no roll: bought for one Cash die flat (004 l.603). Nothing recorded.\n"
    assert table.ok("buy", "Nureddine", "rope", "--cost", "5", "--dry-run", "--json").json["cash_spent"] == 1
    table.ok("buy", "Nureddine", "rope", "--cost", "5")
    p = table.ok("log", "--type", "item.bought", "--json").json[0]["payload"]
    assert (p["ob"], p["successes"], p["succeeded"], p["cash_spent"]) == (0, None, True, 1)
    assert table.ok("log", "--type", "dice.rolled", "--json").json == []
    assert "drop --wager" in table.refused("buy", "Nureddine", "more rope", "--cost", "5", "--wager", "2").stderr


def test_scarcity_raises_the_cost_by_one(table):
    # 004 l.604: "scarcity causes goods or services to be more expensive (usually Cost +1)"
    plan = table.ok("buy", "Nureddine", "rope", "--cost", "5", "--scarce", "--wager", "1", "--dry-run", "--json").json
    assert plan["ob"] == 1


def test_improving_wealth_5_to_6_at_ob_12(table):
    # 004 l.154: "improve her Wealth score from 5 to 6 ... her pool consists of only wagered Cash
    # dice. The Objective is 12, so she decides to wager 28 Cash"
    dry = table.ok("wealth", "improve", "Nureddine", "--wager", "28", "--dry-run", "--json").json
    assert (dry["ob"], dry["pool"]) == (12, 28) and 0.5 < dry["chance"] < 0.9  # "better than even odds"
    faces = ",".join(["4"] * 12 + ["1"] * 16)
    table.ok("wealth", "improve", "Nureddine", "--wager", "28", "--dice", faces)
    s = sheet(table, "Nureddine")
    assert (s["wealth"], s["lifestyle"], s["cash"]) == (6, "Bountiful", 12)


def test_wealth_improvement_is_once_per_session(table):
    # 004 l.171: "You may only attempt to improve Wealth once per sesssion, regardless of whether
    # you succeed (and gain one rank) or fail."
    table.ok("session", "open", "--activate", "Nureddine", "--no-income")
    table.ok("wealth", "improve", "Nureddine", "--wager", "12", "--dice", ",".join(["1"] * 12))
    assert sheet(table, "Nureddine")["wealth"] == 5
    assert "once per session" in table.refused("wealth", "improve", "Nureddine", "--wager", "12").stderr
    table.ok("session", "close", "--haven", "Nureddine")
    table.ok("session", "open", "--activate", "Nureddine", "--no-income")
    table.ok("wealth", "improve", "Nureddine", "--wager", "12", "--dice", ",".join(["6"] * 12))
    assert sheet(table, "Nureddine")["wealth"] == 6


@pytest.mark.parametrize("args, message", [
    (("wealth", "improve", "Nureddine", "--wager", "41"), "has 40 Cash and cannot wager 41"),
    (("wealth", "improve", "Nureddine", "--wager", "0"), "wager at least 1"),
    (("wealth", "improve", "Nureddine", "--wager", "11"), "can never make 12 successes"),
    (("wealth", "improve", "Nureddine", "--wager", "12", "--dice", "6,6"), "needs 12 face(s), 2 left"),
    (("buy", "Bo", "mule", "--cost", "3", "--wager", "4"), "has 3 Cash and cannot wager 4"),
    (("buy", "Cass", "mule", "--cost", "3"), "wager at least 1"),
    (("cash", "Bo", "-4", "--why", "bribe"), "has 3 Cash; cannot take away 4"),
    (("cash", "Bo", "0", "--why", "nothing"), "changes nothing"),
    (("wealth", "improve", "Ghost", "--wager", "1"), "no character named 'Ghost'"),
])
def test_economy_refusals(table, args, message):
    assert message in table.refused(*args).stderr


def test_only_activated_characters_act_during_a_session(table):
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    assert "not activated in session 1" in table.refused("wealth", "improve", "Nureddine", "--wager", "12").stderr


def test_cash_and_rolls_for_a_character_are_the_activated_ones_during_a_session(tally):
    # 004 l.496: "choose one character from their stable to activate (play) for the session. The other
    # characters in the stable are considered to be occupied doing something else"
    table = tally  # both backends
    table.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    for player, name in (("Ann", "Nureddine"), ("Ben", "Bo")):
        table.ok("player", "add", player)
        table.ok("char", "new", name, "--player", player, "--max-hp", "4", "--cash", "3")
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    before = table.event_count()
    refused = table.refused("cash", "Nureddine", "+2", "--why", "a job")
    assert "Nureddine is not activated in session 1: the others in the stable are busy elsewhere" in refused.stderr
    refused = table.refused("roll", "2d6", "--for", "Nureddine", "--why", "Stealth")
    assert "Nureddine is not activated in session 1" in refused.stderr
    assert table.event_count() == before
    table.ok("cash", "Bo", "+2", "--why", "a job")
    table.ok("roll", "2d6", "--for", "Bo", "--why", "Stealth", "--dice", "3,4")
    # A roll for no character of the stable is refused (issue 28: a misspelt or dead name was kept as if it
    # were one); the referee's roll for a monster names it with --why.
    assert "no character named 'the kobold chief'" in table.refused(
        "roll", "2d6", "--for", "the kobold chief", "--dice", "3,4").stderr
    table.ok("roll", "2d6", "--why", "the kobold chief", "--dice", "3,4")
    table.ok("session", "close", "--haven", "Bo")
    table.ok("cash", "Nureddine", "+2", "--why", "a job in downtime")


def test_selling(table):
    # 004 l.605-606: "If a good has a Cost lower than a character's Wealth score, that good cannot
    # be sold for a significant amount of Cash ... If a good has a higher Cost than a character's
    # Wealth, subtract your Wealth score from the Cost and roll that number of dice"
    table.ok("sell", "Nureddine", "old boots", "--cost", "2")
    table.ok("sell", "Nureddine", "silver chalice", "--cost", "8", "--dice", "6,5,1")
    low, high = [e["payload"] for e in table.ok("log", "--type", "item.sold", "--json").json]
    assert (low["dice"], low["cash_gained"]) == (0, 0)
    assert (high["dice"], high["cash_gained"]) == (3, 2)
    assert sheet(table, "Nureddine")["cash"] == 42


def test_strongholds_rank_up_at_ob_8_plus_2r_with_two_tags(table):
    table.ok("cash", "Nureddine", "+20", "--why", "a patron's reward")
    table.ok("stronghold", "found", "Greyhold", "--owner", "Nureddine")
    assert "name the two tags" in table.refused(
        "stronghold", "improve", "Greyhold", "--wager", "12", "--by", "Nureddine", "--tags", "Economy").stderr
    dry = table.ok("stronghold", "improve", "Greyhold", "--wager", "12", "--by", "Nureddine",
                   "--tags", "Economy,Garrison", "--dry-run", "--json").json
    assert dry["ob"] == 10  # 004 l.187: rank 1, Ob 10
    # 004 l.151: Nureddine's pool is her Wealth 5 and the 12 Cash she wagers.
    table.ok("stronghold", "improve", "Greyhold", "--wager", "12", "--by", "Nureddine", "--tags",
             "Economy: vineyards,Garrison", "--dice", ",".join(["5"] * 10 + ["2"] * 7))
    company = table.ok("company", "--json").json
    assert company["strongholds"] == [{"name": "Greyhold", "owner": "Nureddine", "rating": 1,
                                       "tags": ["Economy: vineyards", "Garrison"], "economy": 1,
                                       "garrison": 1, "population": 5}]
    assert "once per session" in table.refused(
        "stronghold", "improve", "Greyhold", "--wager", "14", "--by", "Nureddine", "--tags", "A,B").stderr
    assert "belongs to Nureddine" in table.refused(
        "stronghold", "improve", "Greyhold", "--wager", "1", "--by", "Bo", "--tags", "A,B").stderr
    # 004 l.184: Economy tags "function like Wealth": roll them for Income each session.
    table.ok("session", "open", "--activate", "Nureddine", "--dice", "4,4,4,4,4,1")
    (income,) = table.ok("log", "--type", "income.rolled", "--json").json
    assert (income["payload"]["wealth_dice"], income["payload"]["economy_dice"], income["payload"]["successes"]) == (5, 1, 5)


def test_reputation_is_clamped_and_the_clamp_recorded(table):
    # 004 l.201: "Reputation scores start at zero, but may increase or decrease (to a limit of ±6)"
    table.ok("rep", "River Guild", "4", "--why", "rescued the barge", "--new")
    changed = table.ok("rep", "river guild", "5", "--why", "broke the blockade", "--json").json["payload"]
    # The event records the change asked for and the clamp in force; the fold applies it.
    assert (changed["before"], changed["requested"], changed["limit"]) == (4, 5, 6)
    assert "+6 -> +6 (clamped at the limit; asked +1)" in table.ok("rep", "river guild", "+1", "--why", "x").stdout
    table.ok("rep", "Bandit Kings", "-9", "--why", "hanged their captain", "--new")
    assert table.ok("rep", "show", "--json").json == {"River Guild": 6, "Bandit Kings": -6}
    assert "changes nothing" in table.refused("rep", "River Guild", "0", "--why", "x").stderr
    assert "--why" in table.refused("rep", "River Guild", "1").stderr


def test_coeac_commands_need_the_module(tally_sqlite):
    tally_sqlite.ok("campaign", "new", "Plain", "--start", "1024-03-01")
    assert "does not run the coeac rules" in tally_sqlite.refused("rep", "Guild", "1", "--why", "x").stderr
