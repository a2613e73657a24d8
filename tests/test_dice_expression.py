"""Dice expressions: every roll the seeds call for (RULES.md "dice"),
hand-rolled faces, and the limits against abuse."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.dice.expression import (DROPPED, EXPLODE_LIMIT, EXTRA, KEPT, MAX_DICE, REROLL_LIMIT, REROLLED,
                                    parse)
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


def test_exploding_dice_read_an_extra_die_on_each_matching_value():
    # 000 l.83: "If a 6 is rolled for damage, roll another d6 and add the result.
    # This effect can be triggered multiple times."
    assert hand("1d6!", [6, 6, 2]) == 14
    assert hand("1d6e6", [6, 3]) == 9
    assert hand("1d6x", [5]) == 5
    assert hand("3d6!", [6, 2, 6, 6, 1, 4]) == 25  # the first 6 explodes into 6 and 1, the second into 4
    # A heavy weapon keeps the higher of 2d6 (000 l.62), and only the kept die explodes.
    assert hand("2d6kh1!", [6, 6, 3]) == 9
    assert hand("2d6kh1!", [2, 5]) == 5
    # 001 l.256: one bonus throw per ability, so a d10 explodes once: 1 to 20.
    assert hand("1d10xo10", [10, 10]) == 20
    assert parse("1d10xo10").bounds == (1, 20)
    assert hand("2d6e>=5", [5, 1, 3]) == 9
    assert hand("6d6!s4", [6, 1, 1, 1, 1, 1, 4]) == 2  # the extra die counts as a die of the pool


def test_explosions_stop_at_the_stated_depth():
    assert parse("1d6!").bounds == (1, 6 * (EXPLODE_LIMIT + 1))
    assert hand("1d6!", [6] * (EXPLODE_LIMIT + 1)) == 6 * (EXPLODE_LIMIT + 1)
    with pytest.raises(BadInput, match="reads 21 dice with these faces, 22 given"):
        hand("1d6!", [6] * (EXPLODE_LIMIT + 2))


def test_rerolls_replace_a_face_that_matches():
    assert hand("1d6rr1", [1, 1, 4]) == 4
    assert hand("1d6ro1", [1, 1]) == 1  # once only: the second 1 stands
    assert hand("4d6rr<=2", [2, 5, 1, 1, 3, 6, 6]) == 20
    assert hand("1d6rr1", [1] * REROLL_LIMIT + [1]) == 1  # the last allowed reroll stands
    assert hand("2dArr2", [2, 5, 3]) == 8


def test_drop_lowest_and_highest_and_min_max():
    # Avrae, Roll20 and Foundry agree: dl drops the lowest, dh the highest.
    assert hand("4d6dl1", [3, 1, 5, 6]) == 14
    assert hand("4d6dh1", [3, 1, 5, 6]) == 9
    assert hand("8d6mi2", [1, 1, 1, 1, 1, 1, 1, 1]) == 16
    assert hand("3d6ma4", [6, 5, 1]) == 9
    assert hand("3d6min2max5", [1, 6, 3]) == 10


def test_percentile_and_d10_zero_reads_as_the_top_face():
    # 001 l.143: "count the 0 as 10 when throwing one and 00 as 100 when throwing two".
    assert parse("d%").hand([0]).faces == (100,)
    assert hand("d%", [0]) == 100
    assert hand("1d10", [0]) == 10
    assert parse("2d10").hand([0, 3]).faces == (10, 3)


def test_reading_marks_what_became_of_each_face():
    reading = parse("2d6kh1!").hand([4, 6, 6, 3])
    assert reading.marks == (DROPPED, KEPT, EXTRA, EXTRA) and reading.total == 15
    assert parse("1d6rr1").hand([1, 5]).marks == (REROLLED, KEPT)


def test_faces_needed_splits_hand_faces_between_rolls():
    assert parse("1d6!").faces_needed([6, 6, 2, 3, 4]) == 3
    assert parse("2d6").faces_needed([1, 2, 3]) == 2
    assert parse("1d6!").faces_needed([6]) is None
    with pytest.raises(BadInput, match="reads more dice with these faces, 1 given"):
        parse("1d6!").hand([6])


@pytest.mark.parametrize("text, message", [
    ("1d6e", "exploding dice take a face: 1d6e6"),
    ("4d6r1", "a bare r rerolls once in Foundry"),
    ("4d6k3", "write kh or kl"),
    ("4d6d1", "write dl or dh"),
    ("4d6rr", "a reroll takes the faces to reroll"),
    ("2d20!!", "compounding dice (!!) are not supported"),
    ("1d6!p", "penetrating dice (!p) are not supported"),
    ("1d6ra6", "xo, explode once"),
    ("4dF", "fudge dice (dF) are not supported"),
    ("6d6>3", "count dice with s (6d6s4)"),
    ("4d6rr<3", "<3 in 4d6rr<3 means beyond 3 in Foundry and Avrae but 3 too in Roll20: write <=2 or <=3"),
    ("1d6!>4", "write >=5 or >=4"),
    ("4d6kh3rr1", "rr comes too late"),
    ("4d6!kh3", "kh comes too late"),
    ("4d6kh3dl1", "two keep or drop modifiers"),
    ("1d6rr<=6", "rerolls every face"),
    ("1d6rr7", "never shows"),
    ("1d6e7", "never counts"),
    ("1d6e>=1", "explodes on every value"),
    ("1d6ma5e6", "never counts"),
    ("4d6dl4", "cannot drop 4 of 4"),
    ("4d6mi7", "not a face"),
    ("4d6mi5ma2", "mi5 is above ma2"),
    ("4d6kh>=3", "kh takes a plain number"),
    ("4d6q2", "unknown dice modifier 'q'"),
    ("4d6s>=4", "s takes a plain number"),
])
def test_unsupported_notation_is_refused_by_name(text, message):
    with pytest.raises(BadInput) as refused:
        parse(text)
    assert message in str(refused.value)


ALPHABET = "0123456789d%A+-*/()khlsrexoim!<>= "


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=24), st.randoms(use_true_random=False))
def test_any_text_either_parses_and_stays_in_bounds_or_is_refused(text, rng):
    try:
        expression = parse(text)
    except BadInput:
        return
    assert expression.dice_count <= MAX_DICE
    low, high = expression.bounds
    faces, total = expression.evaluate(lambda die: rng.choice(die.faces))
    assert low <= total <= high
    assert len(faces) >= expression.dice_count
    if expression.fixed:
        assert len(faces) == expression.dice_count
    assert expression.total_from_faces(faces) == total


def _reading(read, text):
    """An expression's tree as ``read`` builds it, or the refusal it makes."""
    try:
        return read(text)
    except BadInput as refused:
        return f"refused: {refused}"


PLAIN_COUNTS = ["", "0", "1", "01", "2", "12", "1000", "1001", "99999999999999999999"]
PLAIN_SIDES = ["0", "1", "2", "6", "06", "20", "100", "1000", "1001", "1000001"]
PLAIN_TAILS = ["", "+0", "+3", "-1", " + 2", "\t-\t7", "+1000000", "-1000001", "+007"]


@pytest.mark.parametrize("count", PLAIN_COUNTS)
def test_a_plain_roll_reads_as_the_grammar_reads_it(count):
    """1d6, d20-2, 2D6 + 3: read without the parser (a cold roll does not load it), into the very
    tree the parser's reading builds, or refused with its very message."""
    from ledger.dice import expression

    for sides in PLAIN_SIDES:
        for dee in "dD":
            for tail in PLAIN_TAILS:
                text = f"{count}{dee}{sides}{tail}"
                plain = expression.PLAIN.fullmatch(text)
                assert plain, text
                assert _reading(lambda t: expression._plain(plain, t), text) == _reading(expression._parsed, text)


@pytest.mark.parametrize("text", ["1d6", "d20-2", "2D6 + 3"])
def test_a_plain_roll_does_not_load_the_parser(text):
    import subprocess
    import sys

    probe = f"import sys; from ledger.dice.expression import parse; parse({text!r}); print('lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("text", ["1d6+1d4", "2d6*2", "1 d6", "1d6+ -2", "d%", "dA", "4d6dl1", "1d6+2+1", "3+1d6",
                                  "1d6+", "d", "1d", "+1d6"])
def test_anything_else_goes_to_the_grammar(text):
    from ledger.dice import expression

    assert expression.PLAIN.fullmatch(text) is None
