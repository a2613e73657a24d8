"""Dice expressions: every roll the seeds call for (RULES.md "dice"),
hand-rolled faces, and the limits against abuse."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.dice.expression import MAX_DICE, parse
from ledger.errors import BadInput


def hand(text, faces):
    return parse(text).total_from_faces(faces)


def test_pools_count_dice_showing_4_to_6():
    # 004 l.17-21: "Each individual die that comes up 4-6 counts as a Success."
    assert hand("6d6s4", [1, 2, 3, 4, 5, 6]) == 3
    assert hand("12d6s4", [4] * 6 + [3] * 6) == 6


def test_keep_lowest_and_highest():
    # 000 l.62: light and heavy weapons roll 2d6 and keep the lowest or highest.
    assert hand("2d6kl1", [2, 5]) == 2
    assert hand("2d6kh1", [2, 5]) == 5
    # 002 §1.3: expertise, "roll 3d6 keep the best two".
    assert hand("3d6kh2", [6, 1, 4]) == 10


def test_arithmetic_and_round_up_division():
    # 000 l.48: starting hacksilver 3d6x10.
    assert hand("3d6*10", [3, 4, 5]) == 120
    # 000 l.51: languages 1d6/2; 004 l.46 "Always round up": 1-3.
    assert [hand("1d6/2", [f]) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    # 004 l.318: harvest of a unique monster 1d12+3.
    assert hand("1d12+3", [12]) == 15
    assert hand("2d6-1d4*2", [6, 6, 3]) == 6
    assert hand("-(1d6)+10", [4]) == 6


def test_percentile_and_average_dice():
    # 001 prayers roll d%: 1-100.
    assert parse("d%").bounds == (1, 100)
    assert hand("d%", [100]) == 100
    # 001 l.139: the average die reads 2,3,3,4,4,5.
    assert parse("dA").bounds == (2, 5)
    assert hand("2dA", [2, 5]) == 7


@pytest.mark.parametrize("text, faces, message", [
    ("2d6", [3], "needs exactly 2 dice, 1 given"),
    ("2d6", [3, 4, 5], "needs exactly 2 dice, 3 given"),
    ("2d6", [7, 1], "7 is not a face of a d6"),
    ("d%", [101], "101 is not a face of a d100"),
    ("d8", [0], "0 is not a face of a d8"),
    ("dA", [6], "6 is not a face of an average die"),
])
def test_hand_rolled_faces_must_fit_the_expression(text, faces, message):
    with pytest.raises(BadInput, match=message):
        hand(text, faces)


@pytest.mark.parametrize("text, message", [
    ("", "empty"), ("2d", "cannot read"), ("d", "cannot read"), ("2x6", "cannot read"),
    ("1001d6", "at most 1000"), ("600d6+600d6", "rolls 1200 dice"), ("d1001", "too many faces"),
    ("d1", "not a die"), ("0d6", "at least one die"), ("3d6kh4", "cannot keep 4 of 3"),
    ("3d6kl0", "cannot keep 0"), ("6d6s7", "not a face"), ("1/(1d6-1d6)", "divisor"),
    ("5/0", "divisor"), ("1" * 250, "longer than"), ("10000000", "too large"),
    ("((((2d6", "cannot read"),
])
def test_malformed_and_abusive_expressions_are_refused(text, message):
    with pytest.raises(BadInput, match=message):
        parse(text)


ALPHABET = "0123456789d%A+-*/()khls "


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=24), st.randoms(use_true_random=False))
def test_any_text_either_parses_and_stays_in_bounds_or_is_refused(text, rng):
    try:
        expression = parse(text)
    except BadInput:
        return
    assert expression.dice_count <= MAX_DICE
    low, high = expression.bounds
    faces, total = expression.evaluate(lambda die: rng.randint(*die.face_range))
    assert low <= total <= high
    assert len(faces) == expression.dice_count
    assert expression.total_from_faces(faces) == total
