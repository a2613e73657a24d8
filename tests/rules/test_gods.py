"""Bifrost's gods (seed 001 l.741-978) as pure decisions: pleas, crawling
prayers, repentance, punishment and battles of gods, with hand-rolled d%."""

import pytest

from commands.gods import (alignment_chosen, battle_of_gods, crawling_prayer, god_adopted, mark_given, prayer,
                           repentance)
from ledger.errors import BadInput, RuleRefused
from ledger.events.gods import CrawlingPrayerMade, GodsBattled, PrayerMade, PunishmentChecked, RepentanceMade
from tests.rules.table import Table, dice, kinds, only, rolls


def worshipper(t: Table, name: str, god: str, *, power: int, alignment: str, flatterable: bool = False) -> None:
    t.character(name)
    t.record(alignment_chosen(t.state(), name, alignment))
    t.record(god_adopted(t.state(), name, god, power=power, code=alignment, flatterable=flatterable,
                         sacrifice="unspecified"))


def black_marks(t: Table, name: str, count: int) -> None:
    for _ in range(count):
        t.record(mark_given(t.state(), name, "an act against the alignment", dice()))


@pytest.fixture
def t() -> Table:
    """Aud (2B) worships Tyr (PR 5, flatterable)."""
    t = Table("gods", calendar="bifrost", start="day 1 of week 1, 1024")
    worshipper(t, "Aud", "Tyr", power=5, alignment="2B", flatterable=True)
    return t


# -- the plea for aid (l.767-849) -------------------------------------------------------

@pytest.mark.parametrize("marks, power, faces, outcome", [
    # l.779: "0 | 30 29 27 25 23 ..." -- PR 5 with no marks answers on 23 or less
    (0, 5, (23, 4), "answered"),
    (0, 5, (24,), "refused"),
    # l.788: "9 | 23 21 16 13 10 4 X" -- nine black marks, PR 5: 10
    (9, 5, (10, 3), "answered"),
    (9, 5, (11,), "refused"),
    # l.783: "4 | 30 29 27 25 23 19 16 10 7 X" -- PR 10 with four marks: X, no throw at all
    (4, 10, (), "unanswerable"),
])
def test_a_plea_is_answered_if_the_throw_does_not_exceed_the_table(marks, power, faces, outcome):
    # 001 l.797: "the number which must not be exceeded by a percentile dice throw in order that the
    # prayer may be answered"
    t = Table("gods", calendar="bifrost", start="day 1 of week 1, 1024")
    worshipper(t, "Aud", "Tyr", power=power, alignment="2B")
    black_marks(t, "Aud", marks)
    made = only(prayer(t.state(), "Aud", dice(*faces)), PrayerMade)
    assert made.outcome == outcome


def test_an_answer_is_graded_by_the_marks_and_shifted_by_a_die(t):
    # 001 l.805: "0 | 4 4 6 7 8 ..." -- grade 8 for PR 5; l.819-823: "Throw a normal die": 5-6 up one
    made = only(prayer(t.state(), "Aud", dice(23, 5)), PrayerMade)
    assert (made.table_grade, made.grade, made.percent) == (8, 9, 95)


def test_an_excessive_plea_has_half_the_chance_and_may_backfire(t):
    # 001 l.843: "the chance of it being answered is reduced to a half of what it was"; a backfire
    # on 50 minus the original chance
    events = prayer(t.state(), "Aud", dice(12, 27), excessive=True)
    made = only(events, PrayerMade)
    assert (made.chance, made.backfire_chance, made.outcome) == (11, 27, "backfired")
    assert rolls(events) == [[12], [27]]


def test_an_answered_life_or_death_plea_brings_five_grey_marks(t):
    # 001 l.875: "a prayer in a life-or-death situation stands a 20% better chance"
    events = prayer(t.state(), "Aud", dice(43, 3), life_or_death=True)
    assert (only(events, PrayerMade).chance, kinds(events)[-1]) == (43, "god.grey_marks")


# -- crawling prayers (l.851-873) ----------------------------------------------------------

def test_a_crawling_prayer_with_no_black_mark_banks_a_bonus(t):
    # 001 l.873: "it knocks off one black mark, or, if there are no black marks to be knocked off, it
    # increases the chance of a prayer being answered"
    events = crawling_prayer(t.state(), "Aud", dice(100, 7))
    made = only(events, CrawlingPrayerMade)
    assert (made.chance, made.accepted, made.effect, made.bonus) == (100, True, "banked_bonus", 7)
    t.record(events)
    plea = only(prayer(t.state(), "Aud", dice(30, 4)), PrayerMade)  # the next plea: 23 + 7
    assert (plea.modifiers, plea.chance, plea.outcome) == ({"crawling_bonus": 7}, 30, "answered")


def test_a_crawling_prayer_knocks_off_a_black_mark_and_the_chance_falls_with_prayers_this_week(t):
    # 001 l.857-858: "0 | 100 ...", "1 | 90 ..." prayers in the last week, PR 5
    black_marks(t, "Aud", 1)
    t.record(prayer(t.state(), "Aud", dice(99)))
    made = only(crawling_prayer(t.state(), "Aud", dice(90)), CrawlingPrayerMade)
    assert (made.prayers_last_week, made.chance, made.effect) == (1, 90, "removed_black_mark")


def test_only_an_impressionable_god_hears_crawling_prayers():
    # 001 l.851: "Some gods will fall for this flattery, others will not"
    t = Table("gods", calendar="bifrost", start="day 1 of week 1, 1024")
    worshipper(t, "Aud", "Odin", power=9, alignment="2B")
    with pytest.raises(RuleRefused, match="Odin is not the impressionable type"):
        crawling_prayer(t.state(), "Aud", dice(1))


# -- repentance and punishment (l.877-931) ------------------------------------------------------

def test_the_seeds_repentance_example():
    # 001 l.901: "a character repenting with a god with a P.R. of 3, and 8 black marks will have to
    # throw a 4, 5, or 6"
    t = Table("gods", calendar="bifrost", start="day 1 of week 1, 1024")
    worshipper(t, "Aud", "Ull", power=3, alignment="2B")
    black_marks(t, "Aud", 8)
    assert only(repentance(t.state(), "Aud", dice(3)), RepentanceMade).accepted is False
    events = repentance(t.state(), "Aud", dice(4))
    assert (only(events, RepentanceMade).needs, only(events, RepentanceMade).accepted) == (4, True)
    t.record(events)
    assert t.world.gods.of("Aud").black == 0  # l.903: "all of that character's black marks are removed"


def test_a_black_mark_at_the_threshold_calls_for_a_punishment_check(t):
    # 001 l.925-929: black marks equal to 15 minus the god's P.R.; "There is a 50% chance that he will be
    # punished"
    black_marks(t, "Aud", 9)
    checked = only(mark_given(t.state(), "Aud", "a temple burned", dice(50)), PunishmentChecked)
    assert (checked.black, checked.threshold, checked.chance, checked.punished) == (10, 10, 50, True)


# -- battles of gods (l.933-962) -----------------------------------------------------------

def test_a_battle_of_gods_goes_on_through_a_draw_until_one_god_wins(t):
    # 001 l.954: "The figure in the table is the number which must be exceeded for that god to win the
    # battle. In the case of a draw, the battle continues."  l.947: PR 5 v PR 3 is 40; l.945: PR 3 v PR 5, 65
    worshipper(t, "Bjorn", "Loki", power=3, alignment="6F")
    t.record(prayer(t.state(), "Aud", dice(1, 3)), prayer(t.state(), "Bjorn", dice(1, 3)))
    events = battle_of_gods(t.state(), "Aud", "Bjorn", dice(41, 66, 41, 10))
    battled = only(events, GodsBattled)
    assert (battled.needs, battled.opponent_needs, battled.rounds) == (40, 65, [[41, 66], [41, 10]])
    assert (battled.winner, battled.loser, battled.penalty) == ("Aud", "Bjorn", 10)
    assert events[-1].cause.index == 0  # the battle follows from its first throw


def test_a_battle_needs_an_answered_plea_on_both_sides_today(t):
    # 001 l.935: "When a character meets an opponent, and both pray and get their god's support"
    worshipper(t, "Bjorn", "Loki", power=3, alignment="6F")
    t.record(prayer(t.state(), "Aud", dice(1, 3)))
    with pytest.raises(RuleRefused, match="Bjorn has no answered plea today"):
        battle_of_gods(t.state(), "Aud", "Bjorn", dice())
    with pytest.raises(BadInput, match="a god does not battle itself"):
        battle_of_gods(t.state(), "Aud", "Aud", dice())


# -- readings of l.873 and l.964 ------------------------------------------------------------

@pytest.mark.parametrize("stacking, banked", [("add", 13), ("replace", 6)])
def test_a_second_crawling_bonus_adds_or_replaces_as_crawl_stacking_says(t, stacking, banked):
    # 001 l.873: "if there are no black marks to be knocked off, it increases the chance of a prayer being
    # answered by 1-10% (throw a 10-sided die)" -- whether two such add up past 10% is setting crawl_stacking
    t.set("crawl_stacking", stacking)
    t.record(crawling_prayer(t.state(), "Aud", dice(1, 7)))
    second = crawling_prayer(t.state(), "Aud", dice(1, 6))
    assert only(second, CrawlingPrayerMade).stacking == stacking
    t.record(second)
    assert t.world.gods.of("Aud").bonus == banked


@pytest.mark.parametrize("marks, power, faces, outcome, thrown", [
    # 001 l.964: "there is a 30% chance that it will join in of its own accord": Aud's own god, thrown for
    # only when the plea is refused (73% with +50% for interference: 74 refuses) or the cell is X
    (0, 5, (73, 4), "answered", [[73], [4]]),
    (0, 5, (74, 30), "joined", [[74], [30]]),
    (0, 5, (74, 31), "refused", [[74], [31]]),
    (4, 10, (30,), "joined", [[30]]),
    (4, 10, (31,), "unanswerable", [[31]]),
])
def test_the_worshippers_own_god_may_join_in_only_on_a_refused_plea_or_an_x(marks, power, faces, outcome, thrown):
    t = Table("gods", calendar="bifrost", start="day 1 of week 1, 1024")
    worshipper(t, "Aud", "Tyr", power=power, alignment="2B")
    black_marks(t, "Aud", marks)
    events = prayer(t.state(), "Aud", dice(*faces), interference=True)
    made = only(events, PrayerMade)
    assert (made.outcome, rolls(events), made.god) == (outcome, thrown, "Tyr")
