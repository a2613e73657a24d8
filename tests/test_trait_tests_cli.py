"""`tally test` on the command line, on both backends: the test formed from
the sheet, recorded through the dice machinery (a derived roll of the epoch,
or hand faces), the dry run's exact odds with nothing recorded, and the
refusals (one line, exit 1, nothing written)."""

import pytest


@pytest.fixture
def mixed(tally):
    """An open table also running the xp, skirmish and wolves rules: Bo (Stealth 2) and Cy in session 1."""
    t = tally
    t.ok("campaign", "new", "Mixed", "--rules", "coeac,xp,skirmish,wolves", "--start", "1024-03-01")
    for player in ("Ann", "Ben", "Cy"):
        t.ok("player", "add", player)
    t.ok("char", "new", "Bo", "--player", "Ben", "--max-hp", "4", "--skills", "Stealth=2",
         "--spend", "Leather (Light)", "--dice", "3,4,5, 6,6,3, 2,2,2, 3, 4, 5,5,5")
    t.ok("char", "new", "Cy", "--player", "Cy", "--max-hp", "4", "--dice", "1,1,1, 1,1,1, 1,1,1, 1, 1, 1,1,1")
    t.ok("char", "new", "Dee", "--player", "Ann", "--max-hp", "4", "--dice", "1,1,1, 1,1,1, 1,1,1, 1, 1, 1,1,1")
    t.ok("session", "open", "--activate", "Bo", "--activate", "Cy", "--no-income", "--client-seed", "players")
    return t


def recorded_tests(t) -> list[dict]:
    return [e["payload"] for e in t.ok("log", "--type", "trait.tested", "--json").json]


def test_a_004_test_forms_the_pool_from_the_sheet_and_records_it(mixed):
    # 004 l.18: "two regular, six-sided dice plus a number of additional dice equal to a relevant Skill";
    # l.40: allies "hand you an additional Helping bonus die to roll"
    out = mixed.ok("test", "Bo", "Stealth", "--aid-by", "Cy", "--ob", "2", "--dice", "4,1,5,2,3",
                   "--why", "past the gate").stdout
    assert "Bo: 5d6s4 [4, 1, 5, 2, 3] = 2 (by hand) — test of Stealth: past the gate" in out
    assert ("Bo tests Stealth (004 l.17-22): base dice (004 l.18) 2, Stealth +2, help from Cy (l.40) +1; "
            "5d6s4 2 against Ob 2: passed at the mark — past the gate") in out
    (p,) = recorded_tests(mixed)
    assert (p["expression"], p["aid_by"], p["check"]["passed"], p["check"]["margin"]) == ("5d6s4", ["Cy"], True, 0)


def test_a_derived_roll_of_the_epoch_is_recorded_with_the_test(mixed):
    events = mixed.ok("test", "Bo", "Vigor", "--ob", "2", "--json").json
    roll, test = events
    assert roll["type"] == "dice.rolled" and roll["payload"]["verifiable"] and roll["payload"]["nonce"] == 0
    assert test["type"] == "trait.tested" and test["cause"] == roll["position"]
    assert test["payload"]["natural"] == sum(1 for f in roll["payload"]["dice"] if f >= 4)
    assert test["payload"]["check"]["passed"] == (test["payload"]["natural"] >= 2)


def test_the_dry_run_gives_exact_odds_and_records_nothing(mixed):
    before = mixed.event_count()
    out = mixed.ok("test", "Bo", "Stealth", "--dry-run").stdout
    # 4 dice, each a Success on 4-6: P(at least 3) = (4 + 1) / 16
    assert out.splitlines() == ["Bo tests Stealth (004 l.17-22): base dice (004 l.18) 2 + Stealth 2 = 4 dice",
                                "4d6s4 against Ob 3: passes 31.25% (exactly 5/16). Nothing recorded."]
    info = mixed.ok("test", "Bo", "Stealth", "--dry-run", "--json").json
    assert (info["dry_run"], info["exact"], info["chance"], info["target"]) == (True, "5/16", 0.3125, 3)
    # l.38: a penalty die, given as a negative number
    assert "- penalty dice (l.38) 1 = 3 dice" in mixed.ok("test", "Bo", "Stealth", "--bonus", "-1", "--dry-run").stdout
    assert mixed.event_count() == before


def test_the_other_rulesets_tests_from_the_sheet(mixed):
    # 000 l.167: "Dodging ... A 15 or more must be rolled"; l.30: Agility 15+ adds 1; l.43: Light Armour adds 2
    assert ("Agility 15 (000 l.30-32) +1, Leather (Light) worn (000 l.42-44) +2; 1d20 11 → 14 against >= 15: "
            "failed by 1") in mixed.ok("test", "Bo", "Dodging", "--dice", "11").stdout
    # 002 l.168: "2D6+DEX mod."; DEX 13 gives +1 (l.48-51)
    mixed.ok("attributes", "Bo", "DEX=13", "STR=9", "--why", "3d6 in order")
    assert "2d6 8 → 9 against >= 9: passed at the mark, success" in mixed.ok(
        "test", "Bo", "DEX", "--dice", "3,5").stdout
    # 003 l.13: "add their nerve and intelligence and divide by 2 (rounding down). They must roll below"
    mixed.ok("skirmish", "stat", "Bo", "Nerve", "7")
    mixed.ok("skirmish", "stat", "Bo", "Intelligence", "6")
    assert "2d6 3 against < 6: passed by 3, epic success" in mixed.ok(
        "test", "Bo", "Interpersonal", "--dice", "1,2").stdout
    assert [p["rules"] for p in recorded_tests(mixed)] == ["wolves", "xp", "skirmish"]


@pytest.mark.parametrize("args, message", [
    (("Zed", "Stealth"), "no character named 'Zed'"),
    (("Bo", "Juggling"), "no test called 'Juggling'"),
    (("Bo", "CHA"), "Bo has no CHA score on the sheet"),
    (("Bo", "Stealth", "--ob", "0"), "--ob 0 is out of range"),
    (("Bo", "Stealth", "--aid-by", "Bo"), "Bo cannot help their own test"),
    (("Bo", "Stealth", "--aid-by", "Nobody"), "no character named 'Nobody'"),
    (("Bo", "Stealth", "--aid-by", "Dee"), "Dee is not activated in session 1"),
    (("Bo", "Warding", "--ob", "3"), "there is no Ob to give"),
    (("Bo", "Stealth", "--dry-run", "--dice", "4,4,4,4"), "a dry run rolls nothing"),
    (("Bo", "Stealth", "--dice", "4,4"), "--dice ran out"),
    (("Bo", "Warding", "--bonus", "-17"), "Bo can never pass this test of Warding (1d20 -17, >= 17)"),
    (("Bo", "Stealth", "--ob", "5"), "4 dice can never make Ob 5"),
])
def test_refusals_are_one_line_and_write_nothing(mixed, args, message):
    assert message in mixed.refused("test", *args).stderr


def test_a_ruleset_the_campaign_does_not_run_has_no_such_test(tally):
    tally.ok("campaign", "new", "Band", "--rules", "wolves", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Ulf", "--player", "Ann", "--dice", "1,1,1, 1,1,1, 1,1,1, 1, 1, 1,1,1")
    err = tally.refused("test", "Ulf", "Stealth").stderr
    assert "Stealth is a test of the coeac rules, which campaign Band does not run: its tests are wolves: " \
           "Dodging, Physique, Warding" in err


def test_a_fact_logged_before_a_test_that_changes_its_figures_is_refused(tally):
    # 004 l.507: a Boon raises the pool; a Stealth test at 2 dice + Stealth 2 was formed on Stealth 2, so a Boon
    # on Stealth logged for an earlier day would change the figure the test stood on
    t = tally
    t.ok("campaign", "new", "Late", "--rules", "coeac", "--start", "1024-03-01")
    t.ok("player", "add", "Ben")
    t.ok("char", "new", "Bo", "--player", "Ben", "--max-hp", "4", "--skills", "Stealth=2")
    t.ok("session", "open", "--activate", "Bo", "--no-income")
    t.ok("session", "close", "--days", "2", "--haven", "Bo")  # Bo's Boon for the session (l.497)
    t.ok("calendar", "advance", "5d")
    t.ok("test", "Bo", "Stealth", "--ob", "1", "--dice", "4,1,1,1")
    err = t.refused("boon", "choose", "Bo", "--skill", "Stealth", "--game-date", "1024-03-04").stderr
    assert "Bo's Stealth would be 3, not 2 as the test of Stealth was formed on" in err
    t.ok("boon", "choose", "Bo", "--save", "Vigor", "--game-date", "1024-03-04")  # a figure the test did not read
