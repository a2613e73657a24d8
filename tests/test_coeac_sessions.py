"""Stables and the session cycle (seed 004), with hand-rolled dice so every
outcome is fixed."""

import pytest

from tests.conftest import sheet


def test_char_show_json_has_the_sheet(table):
    s = sheet(table, "Nureddine")
    assert {"name", "player", "status", "class", "boons", "cash", "wealth", "lifestyle", "max_hp",
            "skills", "saves"} <= set(s)
    assert (s["player"], s["class"], s["wealth"], s["lifestyle"], s["cash"]) == ("Ann", "Warrior", 5, "Modest", 40)
    assert sheet(table, "bo")["skills"] == {"Athletics": 2, "Stealth": 1}  # names are case-blind


def test_opening_balances_are_recorded_as_such(table):
    (created,) = table.ok("log", "--stream", "character:nureddine", "--json").json
    assert created["payload"]["opening"] == {"wealth": 5, "cash": 40}


def test_income_rolls_wealth_dice_at_session_start(table):
    # 004 l.158-159: "roll a number of dice equal to your Wealth rating and receive one Cash die per [Success]"
    table.ok("session", "open", "--activate", "Nureddine", "--activate", "Bo", "--dice", "6,5,4,1,1")
    income, none = table.ok("log", "--type", "income.rolled", "--json").json
    assert income["payload"] == {"character": "Nureddine", "wealth_dice": 5, "economy_dice": 0, "successes": 3}
    assert sheet(table, "Nureddine")["cash"] == 43
    # Bo has Wealth 0: no dice, no roll; recorded all the same, so `why` can tell it.
    assert none["payload"] == {"character": "Bo", "wealth_dice": 0, "economy_dice": 0, "successes": 0}
    assert none["cause"] is None
    assert len(table.ok("log", "--type", "dice.rolled", "--json").json) == 1


def test_session_open_hands_over_the_epoch(table):
    table.ok("session", "open", "--activate", "Nureddine")
    types = [e["type"] for e in table.ok("log", "--since-event", "8", "--json").json]
    assert types == ["session.opened", "dice.rolled", "income.rolled", "dice.revealed", "dice.committed"]
    epochs = table.ok("dice", "epochs", "--json").json
    assert epochs[0]["revealed"] and epochs[0]["rolls"] == 1 and not epochs[1]["revealed"]
    assert "revealed by `tally session close`" in table.refused("dice", "reveal").stderr
    table.ok("dice", "client-seed", "players' choice for session 1")  # before any roll of the session


@pytest.mark.parametrize("args, message", [
    (("--activate", "Nureddine", "--activate", "Nureddine"), "one character per player"),
    (("--activate", "Nobody"), "no character named 'Nobody'"),
])
def test_activation_refusals(table, args, message):
    assert message in table.refused("session", "open", *args).stderr


def test_two_characters_for_one_player_are_refused(table):
    table.ok("char", "new", "Nadia", "--player", "Ann", "--max-hp", "5")
    refused = table.refused("session", "open", "--activate", "Nureddine", "--activate", "Nadia")
    assert "Ann already activates Nureddine" in refused.stderr


def test_one_session_at_a_time(table):
    table.ok("session", "open", "--activate", "Bo")
    assert "session 1 is still open" in table.refused("session", "open", "--activate", "Cass").stderr


def test_close_runs_down_and_out_outside_a_haven_and_gives_boons(table):
    table.ok("session", "open", "--activate", "Bo", "--activate", "Cass", "--no-income")
    # 004 l.629: "If they do not return to a safe haven ... each player must make a Down and Out Check"
    table.ok("session", "close", "--days", "4", "--haven", "Cass", "--dice", "Bo=1,2")
    (dao,) = table.ok("log", "--type", "down_and_out.rolled", "--json").json
    assert dao["payload"] == {"character": "Bo", "total": 3, "result": "max_hp_up"}
    assert sheet(table, "Bo")["max_hp"] == 5
    # 004 l.497: "At the end of the session, the activated character receives a Boon."
    assert sheet(table, "Bo")["boons"] == 1 and sheet(table, "Cass")["boons"] == 1
    assert sheet(table, "Nureddine")["boons"] == 0
    shown = table.ok("session", "show", "1", "--json").json
    assert (shown["start"], shown["end"], shown["open"]) == ("1024-03-01", "1024-03-05", False)
    # 0 is a number asked for, not "the latest" (it showed session 1)
    assert "no session 0" in table.refused("session", "show", "0").stderr


@pytest.mark.parametrize("given, message", [
    (["Bo=6,6", "Bo=1,1"], "--dice names Bo twice: give each once"),
    (["Bo=6,6", "bo=1,1"], "--dice names Bo twice (Bo and bo): give each once"),
])
def test_faces_given_twice_for_one_character_are_refused(table, given, message):
    # Only the last faces were kept: a hand roll recorded other than the referee typed it.
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    before = table.event_count()
    words = [w for item in given for w in ("--dice", item)]
    assert message in table.refused("session", "close", "--days", "2", "--haven", "Cass", *words).stderr
    assert table.event_count() == before


def test_a_skill_given_twice_in_any_case_is_refused(table):
    refused = table.refused("char", "new", "Dee", "--player", "Ann", "--max-hp", "5", "--skills", "Stealth=1,stealth=2")
    assert "--skills names Stealth twice (Stealth and stealth): give each once" in refused.stderr


def test_close_refuses_while_treasure_is_undivided(table):
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    table.ok("treasure", "add", "20", "--from", "bandit camp")
    assert "20 Cash of treasure is still undivided" in table.refused("session", "close", "--haven", "Bo").stderr


DOWN_AND_OUT_CASES = [
    # faces (2d6 then follow-ups), result, check
    ("1,1", "boon", lambda s: s["boons"] == 1),
    ("1,3", "save_lost", lambda s: s["saves"]["Vigor"] == 0),  # follow-up die 1 -> Vigor
    ("2,3", "death", lambda s: s["status"] == "dead"),
    ("3,3", "gear_broken", lambda s: s["status"] == "active"),
    ("3,4", "max_hp_down", lambda s: s["max_hp"] == 3),
    ("4,4", "skills_lost", lambda s: s["skills"] == {"Athletics": 1, "Stealth": 0}),
    ("4,5", "death", lambda s: s["status"] == "dead"),
    ("5,5", "save_lost", lambda s: s["saves"]["Agility"] == 1),
    ("5,6", "max_hp_up", lambda s: s["max_hp"] == 5),
    ("6,6", "boon", lambda s: s["boons"] == 1),
]


@pytest.mark.parametrize("faces, result, check", DOWN_AND_OUT_CASES)
def test_down_and_out_records_each_consequence(table, faces, result, check):
    # Follow-up dice pick the random Save (1d3: all three are rated) or the two Skills among the
    # two rated (1d2, then the other without a roll).
    follow = {"save_lost": ",1" if faces == "1,3" else ",2", "skills_lost": ",1"}.get(result, "")
    table.ok("down-and-out", "Bo", "--dice", faces + follow)
    (rolled,) = table.ok("log", "--type", "down_and_out.rolled", "--json").json
    assert rolled["payload"]["result"] == result
    assert check(sheet(table, "Bo")), sheet(table, "Bo")


def test_down_and_out_needs_its_follow_up_dice(table):
    assert "needs 1 face(s), 0 left" in table.refused("down-and-out", "Bo", "--dice", "2,2").stderr
    assert "more than the rolls needed" in table.refused("down-and-out", "Bo", "--dice", "6,6,1").stderr


def test_max_hp_reduced_to_zero_is_death(table):
    # 004 l.86: "If a character's maximum Hit Points are ever reduced to zero, that character is
    # permanently and irreversibly dead."
    for _ in range(3):
        table.ok("down-and-out", "Bo", "--dice", "3,4")
    assert sheet(table, "Bo")["max_hp"] == 1
    table.ok("down-and-out", "Bo", "--dice", "3,4")
    assert sheet(table, "Bo")["status"] == "dead"
    assert "maximum HP reduced to 0" in table.ok("log").stdout


def test_dead_and_retired_characters_are_never_activated(table):
    table.ok("down-and-out", "Bo", "--dice", "2,3")
    assert "Bo is dead" in table.refused("session", "open", "--activate", "Bo").stderr
    table.ok("retire", "Cass")
    assert "Cass is retired" in table.refused("session", "open", "--activate", "Cass").stderr


def test_a_boon_for_a_character_who_died_goes_to_the_replacement(table):
    # 004 l.503: "If your character dies at the end of the session, grant the Boon to your newly
    # rolled replacement character, not to an existing character in your stable."
    table.ok("char", "new", "Old Hand", "--player", "Ben", "--max-hp", "5")
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    table.ok("session", "close", "--dice", "Bo=2,3")  # 5: death on the way home
    assert sheet(table, "Bo")["boons"] == 0 and sheet(table, "Old Hand")["boons"] == 0
    assert table.ok("stable", "Ben", "--json").json["owed_boons"] == 1
    table.ok("char", "new", "Bo the Younger", "--player", "Ben", "--max-hp", "4")
    assert sheet(table, "Bo the Younger")["boons"] == 1
    assert table.ok("stable", "Ben", "--json").json["owed_boons"] == 0


def test_a_replacement_rolled_during_the_session_gets_the_boon_at_close(table):
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    table.ok("down-and-out", "Bo", "--dice", "4,5")  # 9: death in the dungeon
    table.ok("char", "new", "Bo II", "--player", "Ben", "--max-hp", "4")  # l.15: roll up a new one at once
    table.ok("session", "close")
    assert sheet(table, "Bo II")["boons"] == 1


def test_treasure_must_be_split_exactly_among_the_present(table):
    table.ok("session", "open", "--activate", "Bo", "--activate", "Cass", "--no-income")
    table.ok("treasure", "add", "20", "--from", "Kobold Clan (minor)")
    assert "add up to 21 but 20 was found" in table.refused("treasure", "split", "Bo=11", "Cass=10").stderr
    assert "add up to 19 but 20 was found" in table.refused("treasure", "split", "Bo=9", "Cass=10").stderr
    assert "was not on this expedition" in table.refused("treasure", "split", "Bo=10", "Nureddine=10").stderr
    assert "played this session" in table.refused("treasure", "split", "Bo=10", "--set-aside", "Cy=10").stderr
    # 004 l.630: "set aside a share for any regular players who happen to have missed a session"
    table.ok("treasure", "split", "Bo=8", "Cass=8", "--set-aside", "Ann=4")
    assert sheet(table, "Bo")["cash"] == 11 and sheet(table, "Cass")["cash"] == 8
    assert table.ok("stable", "Ann", "--json").json["set_aside"] == 4
    table.ok("session", "close", "--haven", "Bo", "--haven", "Cass")
    table.ok("session", "open", "--activate", "Nureddine", "--no-income")
    assert sheet(table, "Nureddine")["cash"] == 44
    assert table.ok("stable", "Ann", "--json").json["set_aside"] == 0


def test_retirement_passes_its_legacy_to_the_next_new_character_only(table):
    # 004 l.513-519
    table.ok("char", "new", "Veteran", "--player", "Cy", "--max-hp", "8", "--boons", "12", "--wealth", "7")
    table.ok("rep", "River Guild", "2", "--why", "escorted a barge", "--new")
    table.ok("retire", "Veteran", "--rep-faction", "River Guild", "--dice", "1")  # 1 + 12//5 = 3 > 2
    assert table.ok("rep", "show", "--json").json == {"River Guild": 3}
    legacy = table.ok("stable", "Cy", "--json").json["legacies"]
    assert legacy == [{"from": "Veteran", "skill_points": 2, "wealth_ranks": 2}]
    assert sheet(table, "Cass")["wealth"] == 0  # existing characters never benefit
    assert "exactly 2 different Skill(s)" in table.refused(
        "char", "new", "Heir", "--player", "Cy", "--max-hp", "5", "--retirement-skills", "Medicine").stderr
    assert "different Skills" in table.refused(
        "char", "new", "Heir", "--player", "Cy", "--max-hp", "5", "--retirement-skills", "Medicine,medicine").stderr
    table.ok("char", "new", "Heir", "--player", "Cy", "--max-hp", "5", "--skills", "Medicine=1",
             "--retirement-skills", "Medicine,Stealth")
    heir = sheet(table, "Heir")
    assert heir["skills"] == {"Medicine": 2, "Stealth": 1} and heir["wealth"] == 2
    assert "no retired character's legacy" in table.refused(
        "char", "new", "Third", "--player", "Cy", "--max-hp", "5", "--retirement-skills", "Stealth").stderr


def test_the_faction_roll_raises_reputation_only_when_it_beats_it(table):
    table.ok("char", "new", "Veteran", "--player", "Cy", "--max-hp", "8", "--boons", "4")
    table.ok("rep", "River Guild", "3", "--why", "escorted a barge", "--new")
    table.ok("retire", "Veteran", "--rep-faction", "River Guild", "--dice", "3")  # 3 + 0 is not > 3
    assert table.ok("rep", "show", "--json").json == {"River Guild": 3}


def test_retiring_mid_session_is_refused(table):
    table.ok("session", "open", "--activate", "Nureddine", "--no-income")
    table.ok("retire", "Cass")  # nothing else logged yet: still the start of the session
    table.ok("roll", "2d6", "--why", "a trap")
    assert "under way" in table.refused("retire", "Bo").stderr


def test_an_activated_character_cannot_retire_in_its_session(table):
    table.ok("session", "open", "--activate", "Nureddine", "--no-income")
    assert "activated for session 1" in table.refused("retire", "Nureddine").stderr


def test_everything_recorded_during_a_session_carries_its_number(table):
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    table.ok("roll", "2d6")
    table.ok("cash", "Bo", "-1", "--why", "torches")
    logged = table.ok("log", "--session", "1", "--json").json
    assert [e["type"] for e in logged][-2:] == ["dice.rolled", "cash.changed"]


def test_a_feat_follower_is_refilled_after_a_week_from_the_next_session(table):
    # 004 l.615: "When a Feat grants a Follower, that position may be 'refilled' ... although it takes
    # a week to recruit any new Followers (so replacements will not be able to join the expedition
    # until the beginning of the session following the loss)."
    table.ok("follower", "add", "Nureddine", "Hasan", "--feat")
    table.ok("follower", "add", "Nureddine", "a stray dog")
    table.ok("session", "open", "--game-date", "1024-03-01", "--activate", "Nureddine", "--no-income")
    table.ok("follower", "lose", "Nureddine", "Hasan", "--why", "fell at the ford")
    assert sheet(table, "Nureddine")["follower_vacancies"] == [{"lost": "Hasan", "ready_day": 373710}]
    assert "ready on 1024-03-08" in table.refused("follower", "add", "Nureddine", "Yusuf", "--refills", "Hasan").stderr
    table.ok("session", "close", "--days", "8", "--haven", "Nureddine")
    table.ok("follower", "add", "Nureddine", "Yusuf", "--refills", "Hasan")
    s = sheet(table, "Nureddine")
    assert s["followers"] == ["a stray dog", "Yusuf"] and s["follower_vacancies"] == []
    # l.616: a Follower gained through the fiction leaves no position to refill.
    table.ok("follower", "lose", "Nureddine", "a stray dog", "--why", "ran off")
    assert "no Feat position left by" in table.refused(
        "follower", "add", "Nureddine", "Rex", "--refills", "a stray dog").stderr


def test_a_character_retires_at_the_start_of_a_session_not_once_play_is_under_way(table):
    # 004 l.513: "At the beginning of any session, you may retire an existing character from your stable."
    # The opening's own events (the Income rolled for the activated) are not play: Cass may still retire.
    table.ok("session", "open", "--activate", "Nureddine", "--dice", "6,5,4,1,1")
    table.ok("retire", "Cass")
    # A roll made at the table is play under way.
    table.ok("roll", "1d6", "--dice", "4", "--why", "listening at the door")
    said = table.refused("retire", "Bo").stderr
    assert "session 1 is under way" in said and "004 l.513" in said


def test_any_fact_of_play_puts_the_session_under_way(table):
    # 004 l.513, as above: a fact of play other than a roll does it as well.
    table.ok("session", "open", "--activate", "Nureddine", "--dice", "1,1,1,1,1")
    table.ok("cash", "Nureddine", "-1", "--why", "a toll")
    assert "session 1 is under way" in table.refused("retire", "Cass").stderr


def test_a_sessions_opening_or_close_cannot_be_voided(table):
    # A voided opening left its close and its Boons standing, and the next session took its number again
    # ("session 1 opens" twice; `session show 10` and `recap --session 10` disagreeing).
    table.ok("session", "open", "--activate", "Bo", "--no-income")
    table.ok("session", "close", "--days", "2", "--haven", "Bo")
    edges = table.ok("log", "--type", "session.opened", "--type", "session.closed", "--json").json
    before = table.event_count()
    for event in edges:
        refused = table.refused("void", str(event["position"]), "--why", "a mistake").stderr
        assert refused.count("\n") == 1 and "which cannot be voided" in refused
    assert "`tally session close`" in table.refused("void", str(edges[0]["position"]), "--why", "x").stderr
    assert table.event_count() == before
    assert "session 2 opens" in table.ok("session", "open", "--activate", "Bo", "--no-income").stdout
