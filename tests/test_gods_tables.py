"""Every cell of Bifrost's god tables against fixtures/tables/bifrost.json,
the transcription of seed 001 (a wrong cell is a one-line fix)."""

import json
from pathlib import Path

import pytest

from ledger.rules import gods

FIXTURE = json.loads((Path(__file__).parent.parent / "fixtures" / "tables" / "bifrost.json").read_text())


@pytest.mark.parametrize("name, table", [
    ("prayer_chance", gods.PRAYER_CHANCE),  # l.777-795
    ("answer_grade", gods.ANSWER_GRADE),  # l.801-817
    ("crawling_acceptance", gods.CRAWLING_ACCEPTANCE),  # l.855-871
    ("repentance", gods.REPENTANCE),  # l.883-897
    ("battle", gods.BATTLE),  # l.941-952
])
def test_every_cell(name, table):
    expected = FIXTURE[name]["table"]
    assert sorted(table) == sorted(int(row) for row in expected)
    for row, cells in expected.items():
        for column, cell in enumerate(cells, 1):
            assert table[int(row)][column - 1] == cell, f"{name} row {row}, PR {column}"


def test_grade_percent_and_shift():
    # l.827-837: "1 55 … 10 100"; l.821-823: "1, 2, reduce the grade by 1 … 5, 6, increase"
    for grade, percent in FIXTURE["grade_percent"]["table"].items():
        assert gods.grade_percent(int(grade)) == percent
    for die, shift in FIXTURE["grade_shift"]["table"].items():
        assert gods.GRADE_SHIFT[int(die)] == shift
    assert gods.shifted_grade(1, 1) == 1 and gods.shifted_grade(10, 6) == 10


def test_the_seed_worked_examples():
    # l.901: "a character repenting with a god with a P.R. of 3, and 8 black marks will have to
    # throw a 4, 5, or 6"
    assert gods.repentance_needs(8, 3) == 4
    # l.843: "a god with a P.R. of 6 and 5 black marks is 50 - 19 = 31%": the book used 19, the
    # (4 marks, PR 6) cell; its own table gives 16 for 5 marks, so the ledger says 34 (RULES.md).
    assert gods.backfire_chance(gods.prayer_chance(5, 6)) == 34
    # l.925: "15 minus the P.R. of the god (i.e. 10 for a god with a P.R. of 5)"
    assert gods.punishment_threshold(5) == 10
    # l.903: "three points higher than it was originally (i.e. 1-4, 4-7, 7-9. etc.) never exceeding 10"
    assert [gods.relapse_power(p) for p in (1, 4, 7, 8, 10)] == [4, 7, 10, 10, 10]


def test_beyond_the_printed_rows():
    assert gods.prayer_chance(17, 1) is None
    assert gods.crawling_chance(15, 1) is None
    assert gods.repentance_needs(13, 1) is None
    assert gods.answer_grade_row(20) == [1] * 10


def test_the_alignment_matrix():
    # l.681-688: basic alignment 1-7 down, cosmic order allegiance A-G across; l.707: "forty-nine".
    printed = {code for row in FIXTURE["alignment_matrix"]["table"].values() for code in row}
    assert len(printed) == 49
    assert all(gods.alignment(code) == code for code in printed)
    assert all(gods.alignment(code.lower()) == code for code in printed)
    everything = {f"{b}{c}" for b in "0123456789" for c in "ABCDEFGHLN"}
    assert {code for code in everything if gods.alignment(code)} == printed


def test_the_settings_behind_the_tables():
    # l.841: "reduced to a half of what it was"
    assert (gods.halved(23, "down"), gods.halved(23, "up"), gods.halved(22, "up")) == (11, 12, 11)
    # l.903-905: "(i.e. 1-4, 4-7, 7-9. etc.) never exceeding 10"
    assert [gods.relapse_power(p, "illustration") for p in (1, 4, 7, 8, 9, 10)] == [4, 7, 9, 9, 9, 10]
    assert [gods.relapse_power(p, "plus3") for p in (1, 4, 7, 8, 9, 10)] == [4, 7, 10, 10, 10, 10]
    # l.883-897: past the 12th row, X or the 12th row again
    assert (gods.repentance_needs(13, 1), gods.repentance_needs(13, 1, "last_row")) == (None, 6)
    assert gods.repentance_needs(20, 3, "last_row") is None  # the 12th row is X at PR 3
