"""Three places where the ledger read seed 004 otherwise than its words (issue 14
items 1-3): once per session, the stronghold's pool, and Trauma on a 0. Each
reading is the seed's by default; the earlier one stays a campaign setting,
and every event records the one it was decided under."""

import pytest

from tests.conftest import sheet

FAILS = lambda n: ",".join(["1"] * n)  # noqa: E731 - n dice, no success
SIXES = lambda n: ",".join(["6"] * n)  # noqa: E731


@pytest.fixture
def town(tally):
    """A coeac campaign on both backends: Nureddine (Wealth 6, 60 Cash), Bo (no Saves rated but
    Agility, Skills Athletics 2 and Stealth 1), Cass (nothing rated)."""
    t = tally
    t.ok("campaign", "new", "COEAC", "--rules", "coeac", "--start", "1024-03-01")
    for player in ("Ann", "Ben", "Cy"):
        t.ok("player", "add", player)
    t.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "6", "--wealth", "6", "--cash", "60")
    t.ok("char", "new", "Bo", "--player", "Ben", "--max-hp", "4", "--skills", "Athletics=2,Stealth=1",
         "--saves", "Agility=2")
    t.ok("char", "new", "Cass", "--player", "Cy", "--max-hp", "6")
    return t


# -- 1. once per session ------------------------------------------------------------

def test_one_wealth_attempt_from_one_sessions_opening_to_the_next(town):
    # 004 l.171: "You may only attempt to improve Wealth once per sesssion, regardless of whether
    # you succeed (and gain one rank) or fail."
    town.ok("session", "open", "--activate", "Nureddine", "--no-income")
    town.ok("wealth", "improve", "Nureddine", "--wager", "14", "--dice", FAILS(14))
    town.ok("session", "close", "--days", "2", "--haven", "Nureddine")
    # The weeks after session 1 belong to session 1: no second attempt before session 2 opens.
    refused = town.refused("wealth", "improve", "Nureddine", "--wager", "14").stderr
    assert "since session 1 opened: once per session" in refused and "attempt_limit session" in refused
    town.ok("session", "open", "--activate", "Nureddine", "--no-income")
    town.ok("wealth", "improve", "Nureddine", "--wager", "14", "--dice", SIXES(14))
    attempts = [e["payload"] for e in town.ok("log", "--type", "wealth.attempted", "--json").json]
    assert [(a["period"], a["limit"]) for a in attempts] == [("session 1", "session"), ("session 2", "session")]
    assert sheet(town, "Nureddine")["wealth"] == 7


def test_before_the_first_session_there_is_one_attempt_too(town):
    town.ok("wealth", "improve", "Nureddine", "--wager", "14", "--dice", FAILS(14))
    assert "before session 1" in town.refused("wealth", "improve", "Nureddine", "--wager", "14").stderr


def test_the_earlier_reading_is_the_epoch_setting(town):
    # The ledger once allowed one attempt in each session and one in each downtime between:
    # three attempts in two sessions. It stays a setting, recorded in the events it decided.
    town.ok("campaign", "set", "attempt_limit", "epoch")
    town.ok("session", "open", "--activate", "Nureddine", "--no-income")
    town.ok("wealth", "improve", "Nureddine", "--wager", "14", "--dice", FAILS(14))
    town.ok("session", "close", "--haven", "Nureddine")
    town.ok("wealth", "improve", "Nureddine", "--wager", "14", "--dice", FAILS(14))
    assert "once per session" in town.refused("wealth", "improve", "Nureddine", "--wager", "14").stderr
    attempts = [e["payload"] for e in town.ok("log", "--type", "wealth.attempted", "--json").json]
    assert [(a["period"], a["limit"]) for a in attempts] == [("session 1", "epoch"), ("downtime epoch 3", "epoch")]


def test_one_stronghold_attempt_per_session_whatever_the_result(town):
    # 004 l.185: "You may only attempt to improve a Stronghold once per sesssion, regardless of
    # whether you succeed (and gain one rank) or fail."
    town.ok("stronghold", "found", "Greyhold", "--owner", "Nureddine")
    town.ok("session", "open", "--activate", "Nureddine", "--no-income")
    town.ok("stronghold", "improve", "Greyhold", "--wager", "10", "--by", "Nureddine", "--tags", "A,B",
            "--dice", FAILS(16))
    town.ok("session", "close", "--haven", "Nureddine")
    assert "since session 1 opened" in town.refused(
        "stronghold", "improve", "Greyhold", "--wager", "10", "--by", "Nureddine", "--tags", "A,B").stderr


def test_a_late_attempt_in_the_same_session_as_a_later_one_is_refused(town):
    town.ok("session", "open", "--game-date", "1024-03-01", "--activate", "Nureddine", "--no-income")
    town.ok("session", "close", "--days", "2", "--haven", "Nureddine")
    town.ok("calendar", "advance", "2w")
    town.ok("wealth", "improve", "Nureddine", "--wager", "14", "--dice", FAILS(14))
    (later,) = town.ok("log", "--type", "wealth.attempted", "--json").json
    refused = town.refused("wealth", "improve", "Nureddine", "--wager", "14", "--dice", FAILS(14),
                           "--game-date", "1024-03-06").stderr
    assert f"event {later['position']} (wealth.attempted" in refused
    assert "two Wealth attempts in session 1" in refused


# -- 2. strongholds roll Wealth dice too ----------------------------------------------

def test_a_stronghold_pool_is_wealth_dice_plus_wagered_cash(town):
    # 004 l.151: "For Wealth and Strongholds, however, use the Costs outlined in those sections below.
    # Next, form a pool of dice equal to your Wealth score plus any Cash dice that you would like to
    # wager"; l.152: only improving Wealth drops the [Wealth] dice; l.157: Wealth "is tested ... when
    # ... constructing a Stronghold".
    town.ok("stronghold", "found", "Greyhold", "--owner", "Nureddine")
    plan = town.ok("stronghold", "improve", "Greyhold", "--wager", "10", "--by", "Nureddine",
                   "--tags", "Economy,Garrison", "--dry-run", "--json").json
    assert (plan["ob"], plan["pool"], plan["wealth_dice"], plan["pool_rule"]) == (10, 16, 6, "wealth")
    assert plan["exact"] != "1/1024"  # what the cash-only pool of ten gave
    town.ok("stronghold", "improve", "Greyhold", "--wager", "10", "--by", "Nureddine",
            "--tags", "Economy,Garrison", "--dice", SIXES(10) + "," + FAILS(6))
    (attempt,) = town.ok("log", "--type", "stronghold.attempted", "--json").json
    p = attempt["payload"]
    assert (p["wealth_dice"], p["wager"], p["pool"], p["successes"], p["succeeded"]) == (6, 10, 16, 10, True)
    assert sheet(town, "Nureddine")["cash"] == 50  # only the wagered Cash is lost


def test_the_cash_only_pool_is_a_setting(town):
    town.ok("campaign", "set", "stronghold_pool", "cash")
    town.ok("stronghold", "found", "Greyhold", "--owner", "Nureddine")
    plan = town.ok("stronghold", "improve", "Greyhold", "--wager", "10", "--by", "Nureddine",
                   "--tags", "Economy,Garrison", "--dry-run", "--json").json
    assert (plan["pool"], plan["exact"]) == (10, "1/1024")


def test_high_wealth_may_build_without_a_wager_but_never_with_no_chance(town):
    town.ok("stronghold", "found", "Greyhold", "--owner", "Nureddine")
    assert "can never make 10 successes" in town.refused(
        "stronghold", "improve", "Greyhold", "--wager", "0", "--by", "Nureddine", "--tags", "A,B").stderr
    town.ok("stronghold", "found", "Hut", "--owner", "Cass")
    assert "wager at least 1" in town.refused(
        "stronghold", "improve", "Hut", "--wager", "0", "--by", "Cass", "--tags", "A,B").stderr


def test_a_late_wealth_rank_under_a_later_stronghold_roll_is_refused(town):
    town.ok("stronghold", "found", "Greyhold", "--owner", "Nureddine")
    town.ok("calendar", "advance", "2w")
    town.ok("stronghold", "improve", "Greyhold", "--wager", "10", "--by", "Nureddine", "--tags", "A,B",
            "--dice", FAILS(16))
    refused = town.refused("wealth", "improve", "Nureddine", "--wager", "14", "--dice", SIXES(14),
                           "--game-date", "1024-03-05").stderr
    assert "Nureddine's Wealth would be 7, not the 6 dice the pool was rolled with" in refused


# -- 3. Trauma and Impairment choose among the rated ----------------------------------

def test_trauma_picks_among_the_rated_saves(town):
    # 004 l.105: "Trauma: Permanently lose one point from a random Save". Bo rates only Agility:
    # it is the one random Save there is to lose, so no die is rolled for it.
    town.ok("down-and-out", "Bo", "--dice", "1,3")
    (lost,) = town.ok("log", "--type", "save.lost", "--json").json
    assert {k: lost["payload"][k] for k in ("save", "before", "pick", "among")} == {
        "save": "Agility", "before": 2, "pick": "rated", "among": ["Agility"]}
    assert sheet(town, "Bo")["saves"] == {"Agility": 1}


def test_trauma_with_no_save_rated_loses_nothing_and_says_so(town):
    town.ok("down-and-out", "Cass", "--dice", "4,6")
    (lost,) = town.ok("log", "--type", "save.lost", "--json").json
    assert (lost["payload"]["save"], lost["payload"]["among"]) == (None, [])
    assert "no Save rated above 0, nothing lost (trauma_pick rated)" in town.ok("log", "--type", "save.lost").stdout
    assert sheet(town, "Cass")["saves"] == {}


def test_impairment_picks_two_rated_skills(town):
    # 004 l.109: "Impairment: Two random Skills decrease by one point each". Bo rates two: a 1d2
    # picks the first (2: Stealth), the other is the second without a roll.
    assert "needs 1 face(s), 0 left" in town.refused("down-and-out", "Bo", "--dice", "4,4").stderr
    town.ok("down-and-out", "Bo", "--dice", "4,4,2")
    lost = [e["payload"] for e in town.ok("log", "--type", "skill.reduced", "--json").json]
    assert [(p["skill"], p["among"]) for p in lost] == [("Stealth", ["Athletics", "Stealth"]),
                                                          ("Athletics", ["Athletics"])]
    assert sheet(town, "Bo")["skills"] == {"Athletics": 1, "Stealth": 0}


def test_the_earlier_reading_picks_among_all_and_a_zero_stays_zero(town):
    town.ok("campaign", "set", "trauma_pick", "any")
    town.ok("down-and-out", "Cass", "--dice", "4,6,1")  # 1d3: Vigor, rated 0
    (lost,) = town.ok("log", "--type", "save.lost", "--json").json
    assert (lost["payload"]["save"], lost["payload"]["pick"], len(lost["payload"]["among"])) == ("Vigor", "any", 3)
    assert sheet(town, "Cass")["saves"] == {"Vigor": 0}


def test_the_v2_payloads_upcast_to_the_readings_of_their_day():
    from ledger.events.upcasters import upcast

    assert upcast("wealth.attempted", 2, {"period": "downtime epoch 2"})["limit"] == "epoch"
    lifted = upcast("stronghold.attempted", 2, {"wager": 12, "period": "session 1"})
    assert (lifted["pool"], lifted["wealth_dice"], lifted["pool_rule"], lifted["limit"]) == (12, 0, "cash", "epoch")
    assert upcast("save.lost", 2, {"save": "Vigor", "before": 0})["among"] == ["Vigor", "Agility", "Discipline"]
    assert len(upcast("skill.reduced", 2, {"skill": "Ruin", "before": 1})["among"]) == 17
