"""`tally why` tells a figure's whole story: what changed it, with the roll
behind it, and what bore on it and left it as it was — a failed attempt,
Income of no dice, an event a void withdrew, a fact logged late."""

import pytest

from tests.conftest import Tally


@pytest.fixture
def coeac(tally) -> Tally:
    """A coeac campaign: Ann's Astrid (Wealth 0, 30 Cash) and Ben's Bors (Wealth 2, 30 Cash)."""
    tally.ok("campaign", "new", "Saga", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("player", "add", "Ben")
    tally.ok("char", "new", "Astrid", "--player", "Ann", "--max-hp", "5", "--cash", "30")
    tally.ok("char", "new", "Bors", "--player", "Ben", "--max-hp", "5", "--cash", "30", "--wealth", "2")
    return tally


def story(t: Tally, *args: str) -> dict:
    return t.ok("why", *args, "--json").json


def only(rows: list[dict], type_: str) -> dict:
    (row,) = [r for r in rows if r["type"] == type_]
    return row


def test_a_failed_wealth_improvement_is_listed_with_its_roll(coeac):
    # 004 l.140-150: Ob is the rank sought; 2 Cash wagered buys 2 dice, both blank here.
    coeac.ok("wealth", "improve", "Astrid", "--wager", "2", "--dice", "1,1")
    told = story(coeac, "Astrid", "wealth")
    assert told["value"] == 0
    failed = only(told["changes"], "wealth.attempted")
    assert (failed["before"], failed["after"], failed["changed"]) == (0, 0, False)
    assert failed["roll"].startswith("Astrid: 2d6s4 [1, 1] = 0 (by hand)")
    assert failed["roll_position"] == failed["position"] - 1
    assert "failed (2 Cash wagered)" in failed["what"]
    # the same attempt is in Cash's story as the wager it cost
    wager = only(story(coeac, "Astrid", "cash")["changes"], "wealth.attempted")
    assert (wager["before"], wager["after"], wager["changed"]) == (30, 28, True)
    table = coeac.ok("why", "Astrid", "wealth").stdout
    assert "no change" in table and "[1, 1]" in table


def test_zero_dice_income_is_recorded_and_told(coeac):
    # 004 l.158-159: Income is [Wealth] dice; Astrid has Wealth 0 and no stronghold.
    coeac.ok("session", "open", "--activate", "Astrid", "--activate", "Bors", "--dice", "6,5")
    nothing = only(story(coeac, "Astrid", "cash")["changes"], "income.rolled")
    assert (nothing["before"], nothing["after"], nothing["changed"]) == (30, 30, False)
    assert nothing["roll"] is None and "no dice: Wealth 0" in nothing["what"]
    income = only(story(coeac, "Bors", "cash")["changes"], "income.rolled")
    assert (income["before"], income["after"], income["changed"]) == (30, 32, True)
    assert income["roll"].startswith("Bors: 2d6s4 [6, 5] = 2") and "from 2 dice" in income["what"]


def test_a_voided_event_is_marked_with_its_void(coeac):
    coeac.ok("cash", "Astrid", "+5", "--why", "misheard: it was Bors's")
    (gift,) = [e for e in coeac.ok("log", "--type", "cash.changed", "--json").json]
    coeac.ok("void", gift["position"], "--why", "the purse was Bors's")
    void = coeac.ok("log", "--json").json[-1]
    told = story(coeac, "Astrid", "cash")
    assert told["value"] == 30
    row = only(told["changes"], "cash.changed")
    assert row["position"] == gift["position"]
    assert (row["before"], row["after"], row["changed"], row["would_be"]) == (30, 30, False, 35)
    assert row["voided"] == {"by": void["position"], "reason": "the purse was Bors's", "ruled_by": "referee",
                             "recorded_at": void["recorded_at"]}
    assert f"VOIDED by #{void['position']} (referee): the purse was Bors's; would have made it 35" in \
        coeac.ok("why", "Astrid", "cash").stdout
    # Before the void was recorded, the gift was a change like any other.
    before = only(story(coeac, "Astrid", "cash", "--at-event", str(gift["position"]))["changes"], "cash.changed")
    assert (before["after"], before["changed"], before["voided"]) == (35, True, None)


def test_a_voided_event_that_would_not_have_changed_the_figure_is_left_out(coeac):
    coeac.ok("cash", "Bors", "+5", "--why", "not Astrid's business")
    position = coeac.ok("log", "--json").json[-1]["position"]
    coeac.ok("void", position, "--why", "wrong amount")
    assert all(r["position"] != position for r in story(coeac, "Astrid", "cash")["changes"])
    assert only(story(coeac, "Bors", "cash")["changes"], "cash.changed")["voided"]["by"] == position + 1


def test_a_late_fact_is_marked_with_when_it_was_recorded(coeac):
    coeac.ok("calendar", "advance", "2w", "--why", "winter quarters")
    coeac.ok("cash", "Astrid", "-5", "--why", "rope, today")
    coeac.ok("--game-date", "1024-03-05", "cash", "Astrid", "+7", "--why", "loot, remembered late")
    told = story(coeac, "Astrid", "cash")
    assert told["value"] == 32
    late, today = [r for r in told["changes"] if r["type"] == "cash.changed"]  # fold order: the 5th first
    assert (late["game_date"], late["before"], late["after"]) == ("1024-03-05", 30, 37)
    assert late["late"]["recorded_date"] == "1024-03-15" and late["late"]["recorded_at"] == late["recorded_at"]
    assert today["late"] is None and (today["before"], today["after"]) == (37, 32)
    assert "late: logged on 1024-03-15" in coeac.ok("why", "Astrid", "cash").stdout


def test_a_clamped_reputation_change_is_listed_as_no_change(coeac):
    coeac.ok("rep", "River Guild", "+6", "--why", "saved the barges", "--new")
    coeac.ok("rep", "River Guild", "+1", "--why", "and again")
    told = story(coeac, "rep:River Guild")
    assert told["value"] == 6
    assert [(r["before"], r["after"], r["changed"]) for r in told["changes"]] == [(None, 6, True), (6, 6, False)]


def test_why_refuses_what_it_cannot_tell(coeac):
    assert "name the field" in coeac.refused("why", "Astrid").stderr
    assert "no field 'charisma'" in coeac.refused("why", "Astrid", "charisma").stderr
    assert "no character, faction or stronghold" in coeac.refused("why", "Nobody", "cash").stderr


def test_why_tells_an_items_chain_of_custody_with_both_dates(tally):
    # Issue 27: "where did this come from?" for items as for Cash — found, used, given, cashed in,
    # each with its game date and when it was recorded; the roll behind a Depletion check beside it.
    t = tally
    t.ok("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01")
    for player, name in (("Ann", "Nureddine"), ("Dee", "Dagny")):
        t.ok("player", "add", player)
        t.ok("char", "new", name, "--player", player, "--max-hp", "5")
    t.ok("item", "add", "Nureddine", "Torches", "--depletion", "15", "--why", "the Company's stores")
    t.ok("item", "add", "Nureddine", "Silks", "--cash", "3", "--why", "a noble's baggage")
    t.ok("item", "use", "Nureddine", "Torches", "--dice", "16")  # 004 l.563: one use left
    t.ok("give", "Nureddine", "Dagny", "--item", "Torches", "--why", "Dagny scouts ahead")
    t.ok("item", "cash-in", "Nureddine", "Silks")
    torches = t.ok("why", "Nureddine", "item:Torches", "--json").json
    assert torches["value"] is None  # given away
    rows = torches["changes"]
    assert [r["type"] for r in rows] == ["item.gained", "item.depletion_checked", "item.given"]
    assert [r["after"] for r in rows] == ["carried (1 Slot, Depletion 15+)", "carried (1 Slot, its last use)", None]
    assert rows[1]["roll"].endswith("[16] = 16 (by hand) — used: Depletion of Torches")
    assert all(r["game_date"] == "1024-03-01" and r["recorded_at"] for r in rows)
    dagny = t.ok("why", "Dagny", "item:Torches", "--json").json
    assert dagny["value"] == "carried (1 Slot, its last use)" and [r["type"] for r in dagny["changes"]] == ["item.given"]
    silks = t.ok("why", "Nureddine", "item:silks", "--json").json  # names are case-blind
    assert [(r["type"], r["after"]) for r in silks["changes"]] == [
        ("item.gained", "carried (1 Slot, worth 3 Cash)"), ("commodity.converted", None)]
    said = t.refused("why", "Dagny", "item:Silks").stderr
    assert "Dagny never had an item called 'Silks'" in said and said.count("\n") == 1
