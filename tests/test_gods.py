"""Gods (seed 001 l.741-978), with hand-rolled dice so every outcome is fixed."""

from tests.conftest import sheet


def odds(t, name="Aud"):
    return t.ok("god", "odds", name, "--json").json


def prayers(t):
    return [e["payload"] for e in t.ok("log", "--type", "god.prayed", "--json").json]




def test_god_odds_has_what_the_referee_needs(pantheon):
    o = odds(pantheon)
    assert {"prayer_chance", "answer_grade_table_row", "crawl_chance", "repent_needs", "punishment_threshold",
            "manifestation_eligible"} <= set(o)
    assert (o["prayer_chance"], o["crawl_chance"], o["punishment_threshold"]) == (23, 100, 10)
    assert o["answer_grade_table_row"] == [4, 4, 6, 7, 8, 9, 9, 10, 10, 10]
    s = sheet(pantheon, "Aud")
    assert (s["god"], s["power"], s["black_marks"], s["grey_marks"]) == ("Tyr", 5, 0, 0)


def test_an_answered_plea_reads_the_grade_and_its_d6(pantheon):
    # l.777: PR 5, no marks: answered on 23 or less; l.805: grade 8; l.823: a 5 or 6 raises it.
    pantheon.ok("god", "pray", "Aud", "--dice", "23,6")
    (p,) = prayers(pantheon)
    assert (p["table_chance"], p["chance"], p["outcome"], p["table_grade"], p["grade"], p["percent"]) == (
        23, 23, "answered", 8, 9, 95)
    pantheon.ok("god", "pray", "Aud", "--dice", "24")
    assert prayers(pantheon)[-1]["outcome"] == "refused"


def test_life_or_death_adds_20_and_5_grey_marks_when_answered(pantheon):
    # l.875: "a prayer in a life-or-death situation stands a 20% better chance of being answered.
    # However if this prayer is answered, the character automatically gains 5 grey marks."
    pantheon.ok("god", "pray", "Aud", "--life-or-death", "--dice", "43,3")
    (p,) = prayers(pantheon)
    assert (p["chance"], p["modifiers"], p["outcome"]) == (43, {"life_or_death": 20}, "answered")
    o = odds(pantheon)
    assert (o["grey_marks"], o["black_marks"]) == (5, 0)
    # l.875: grey marks "act as black marks" in the tables: 5 marks at PR 5 -> 21.
    assert o["prayer_chance"] == 21


def test_grey_marks_never_count_toward_punishment_and_go_only_by_sacrifice(pantheon):
    pantheon.ok("god", "mark", "Aud", "--grey", "12", "--why", "answered in a tight spot")
    assert odds(pantheon)["prayer_chance"] is None  # 12 marks at PR 5: X
    assert pantheon.ok("log", "--type", "god.punishment_checked", "--json").json == []
    assert "no black marks to repent" in pantheon.refused("god", "repent", "Aud").stderr
    pantheon.ok("god", "crawl", "Aud", "--dice", "1,7")  # accepted, but it can only bank a bonus
    assert odds(pantheon)["grey_marks"] == 12
    pantheon.ok("god", "sacrifice", "Aud", "--grey", "--marks", "12", "--why", "the Jarl's sword, broken")
    assert odds(pantheon)["grey_marks"] == 0


def test_punishment_is_checked_at_the_threshold_and_at_each_further_mark(pantheon):
    # l.925-929: "When a character has been awarded the amount of black marks equal to 15 minus the
    # P.R. ... There is a 50% chance that he will be punished. Every time he incurs another black
    # mark, the check is repeated, still at 50%."
    for _ in range(9):
        pantheon.ok("god", "mark", "Aud", "--why", "broke an oath")
    assert pantheon.ok("log", "--type", "god.punishment_checked", "--json").json == []
    pantheon.ok("god", "mark", "Aud", "--why", "killed a guest", "--dice", "50")
    pantheon.ok("god", "mark", "Aud", "--why", "stole from the temple", "--dice", "51")
    checks = [e["payload"] for e in pantheon.ok("log", "--type", "god.punishment_checked", "--json").json]
    assert [(c["black"], c["threshold"], c["roll"], c["punished"]) for c in checks] == [
        (10, 10, 50, True), (11, 10, 51, False)]


def test_repentance_clears_black_marks_and_a_relapse_reads_at_pr_plus_3(pantheon):
    for _ in range(4):
        pantheon.ok("god", "mark", "Aud", "--why", "broke an oath")
    pantheon.ok("god", "mark", "Aud", "--grey", "5", "--why", "life-or-death help")
    # l.885-897: 4 black marks at PR 5 -> 1+; grey marks stay.
    assert odds(pantheon)["repent_needs"] == 1
    pantheon.ok("god", "repent", "Aud", "--dice", "1")
    o = odds(pantheon)
    assert (o["black_marks"], o["grey_marks"]) == (0, 5)
    # l.903: after acting badly once more, the table is read as if PR were 3 higher (5 -> 8).
    for _ in range(4):
        pantheon.ok("god", "mark", "Aud", "--why", "broke the oath again")
    o = odds(pantheon)
    assert (o["repent_power"], o["repent_needs"]) == (8, 6)
    pantheon.ok("god", "repent", "Aud", "--dice", "5")
    (_, second) = [e["payload"] for e in pantheon.ok("log", "--type", "god.repented", "--json").json]
    assert (second["effective_power"], second["needs"], second["accepted"]) == (8, 6, False)
    assert odds(pantheon)["black_marks"] == 4


def test_excessive_prayers_are_halved_and_may_backfire(pantheon):
    # l.841-843: "reduced to a half ... a chance of the prayer backfiring ... subtracting the
    # original chance of the prayer being answered from 50"
    pantheon.ok("god", "pray", "Aud", "--excessive", "--dice", "12,27")
    (p,) = prayers(pantheon)
    assert (p["chance"], p["backfire_chance"], p["outcome"]) == (11, 27, "backfired")
    pantheon.ok("god", "pray", "Aud", "--excessive", "--dice", "12,28")
    assert prayers(pantheon)[-1]["outcome"] == "refused"


def test_a_free_hand_may_bring_inconvenient_help(pantheon):
    # l.966-968: "a 10% increase ... but there is a 50% chance of the help coming in an inconvenient form"
    pantheon.ok("god", "pray", "Aud", "--free-hand", "--interference", "--dice", "83,4,50")
    (p,) = prayers(pantheon)
    assert (p["chance"], p["outcome"], p["inconvenient"]) == (83, "answered", True)


def test_crawling_removes_a_black_mark_or_banks_a_bonus_for_the_next_plea(pantheon):
    pantheon.ok("god", "mark", "Aud", "--why", "lied to a priest")
    pantheon.ok("god", "crawl", "Aud", "--dice", "100")  # l.857: no prayers this week, PR 5: 100%
    assert odds(pantheon)["black_marks"] == 0
    pantheon.ok("god", "crawl", "Aud", "--dice", "90,7")  # one prayer this week: 90%; no marks: bank 1d10
    o = odds(pantheon)
    assert (o["crawling_bonus"], o["prayers_last_week"], o["crawl_chance"]) == (7, 2, 70)
    pantheon.ok("god", "pray", "Aud", "--dice", "30,3")  # 23 + 7
    p = prayers(pantheon)[-1]
    assert (p["modifiers"], p["chance"], p["outcome"]) == ({"crawling_bonus": 7}, 30, "answered")
    assert odds(pantheon)["crawling_bonus"] == 0  # next plea only


def test_a_thank_you_prayer_is_a_crawling_prayer_at_plus_10(pantheon):
    pantheon.ok("god", "pray", "Aud", "--dice", "99")
    pantheon.ok("god", "pray", "Aud", "--thanks", "--dice", "100,2")  # 90 + 10
    (c,) = [e["payload"] for e in pantheon.ok("log", "--type", "god.crawled", "--json").json]
    assert (c["table_chance"], c["chance"], c["thanks"], c["accepted"]) == (90, 100, True, True)


def test_refusals(pantheon):
    pantheon.ok("char", "new", "Hallr", "--player", "Ann")
    assert "adopted no god" in pantheon.refused("god", "pray", "Hallr").stderr
    assert "already worships Tyr" in pantheon.refused("god", "adopt", "Aud", "Odin", "--power", "9",
                                                      "--alignment", "2C").stderr
    assert "power rating is 1 to 10" in pantheon.refused("god", "adopt", "Hallr", "Loki", "--power", "11",
                                                         "--alignment", "4C").stderr
    pantheon.ok("god", "adopt", "Hallr", "Njord", "--power", "3", "--alignment", "2L")
    assert "not the impressionable type" in pantheon.refused("god", "crawl", "Hallr").stderr
    assert "cannot redeem 1" in pantheon.refused("god", "sacrifice", "Hallr", "--why", "a goat").stderr
    assert "not both" in pantheon.refused("god", "mark", "Hallr", "--why", "x", "--warning", "--grey", "2").stderr
    pantheon.ok("god", "mark", "Hallr", "--why", "nearly broke an oath", "--warning")
    assert odds(pantheon, "Hallr")["black_marks"] == 0


def test_manifestation_needs_a_clean_year(pantheon):
    # l.976: "has not received a black mark in a year of campaigning actively, or 10 years of dormancy"
    assert odds(pantheon)["manifestation_eligible"] is False
    pantheon.ok("session", "open", "--activate", "Aud", "--game-date", "day 1 of week 1, 1024")
    pantheon.ok("session", "close", "--days", "363")
    o = odds(pantheon)
    assert (o["clean_active_days"], o["manifestation_eligible"]) == (364, True)
    pantheon.ok("god", "mark", "Aud", "--why", "broke an oath")
    assert odds(pantheon)["manifestation_eligible"] is False


def test_gods_commands_need_the_module(table):
    assert "does not run the gods rules" in table.refused("god", "adopt", "Bo", "Tyr", "--power", "5",
                                                          "--alignment", "2L").stderr


def test_a_battle_of_gods_draws_until_one_side_alone_wins(pantheon):
    # l.941-954: "The figure in the table is the number which must be exceeded for that god to win
    # the battle. In the case of a draw, the battle continues." Tyr (PR 5) needs > 65 against
    # Odin (PR 7); Odin needs > 40 against Tyr.
    pantheon.ok("char", "new", "Hallr", "--player", "Ann")
    pantheon.ok("god", "adopt", "Hallr", "Odin", "--power", "7", "--alignment", "3C")
    pantheon.ok("god", "battle", "Aud", "Hallr", "--dice", "70,50,10,20,66,40")
    (b,) = [e["payload"] for e in pantheon.ok("log", "--type", "god.battle", "--json").json]
    assert (b["needs"], b["opponent_needs"], b["rounds"], b["winner"]) == (65, 40, [[70, 50], [10, 20], [66, 40]], "Aud")
    assert "two different worshippers" in pantheon.refused("god", "battle", "Aud", "Aud").stderr
