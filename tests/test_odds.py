"""Exact odds agree with two independent calculations: counting every way
the dice can be read, by brute force (explosions and rerolls cut to a small
depth so the count ends), and icepool, another library's exact arithmetic,
at the full depth. Past the stated limits, a one-line refusal."""

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.dice.expression import EXPLODE_LIMIT, BinOp, Dice, Expression, Neg, parse
from ledger.dice.odds import MAX_DIGITS, MAX_STEPS, chance_at_least, distribution
from ledger.errors import BadInput


class _Short(Exception):
    pass


def brute_force(expression):
    """Every sequence of faces the expression can read, each weighted by its
    chance, run through the expression itself."""
    out = Counter()

    def explore(prefix, weight):
        at = iter(prefix)

        def take(die):
            face = next(at, None)
            if face is None:
                raise _Short(die)
            return face

        try:
            out[expression.read(take).total] += weight
        except _Short as short:
            die = short.args[0]
            for face in die.faces:
                explore(prefix + [face], weight / len(die.faces))

    explore([], Fraction(1))
    return dict(out)


def shallow(text, depth=3):
    """The expression with its explosions and rerolls cut to ``depth``."""
    def walk(node):
        if isinstance(node, Dice):
            return replace(node, explode_limit=min(node.explode_limit, depth),
                           reroll_limit=min(node.reroll_limit, depth))
        if isinstance(node, BinOp):
            return replace(node, left=walk(node.left), right=walk(node.right))
        if isinstance(node, Neg):
            return replace(node, inner=walk(node.inner))
        return node

    expression = parse(text)
    return Expression(expression.text, walk(expression.tree))


def as_fractions(die):
    return {outcome: Fraction(quantity, die.denominator()) for outcome, quantity in die.items()}


@pytest.mark.parametrize("text", ["2d6", "3d6kh2", "2d6kl1", "4d6kh3", "5d6kl2", "6d6s4", "2dA+1d4",
                                  "1d6/2", "3d4*2-1d3", "d12+3", "4dAkh2", "3d8s6", "4d6dl1", "4d6dh1",
                                  "2d6rr1", "3d4ro<=2", "4d4mi2", "3d6ma4kh2", "2dArr2", "1d10xo10",
                                  "2d4xo>=3s3", "3d4rr1kl2"])
def test_distribution_matches_brute_force(text):
    expression = shallow(text)  # rr cut to 3 rerolls; nothing else changes
    assert distribution(expression) == brute_force(expression)


@pytest.mark.parametrize("text", ["1d4!", "2d4!", "2d4kh1!", "3d4kl2!", "2d3e>=2", "1d4rr1!", "2dA!",
                                  "2d4ma3!", "3d3kh2xo>=2s2", "1d4!+1d4-2", "2d4!s3", "1d3x1", "2d3!*2"])
def test_explosions_match_brute_force_at_a_small_depth(text):
    # The engine takes the depth from the term, so the cut expression is counted exactly too.
    expression = shallow(text)
    assert distribution(expression) == brute_force(expression)


@pytest.mark.parametrize("text, die", [
    ("1d6!", lambda: icepool.d6.explode(depth=EXPLODE_LIMIT)),
    ("3d6!", lambda: 3 @ icepool.d6.explode(depth=EXPLODE_LIMIT)),
    ("1d10xo10", lambda: icepool.d10.explode(depth=1)),
    ("4d6kh3", lambda: icepool.d6.pool(4).highest(3).sum()),
    ("4d6dl1", lambda: icepool.d6.pool(4).highest(3).sum()),
    ("3d6kh2", lambda: icepool.d6.pool(3).highest(2).sum()),
    ("10d6kl4", lambda: icepool.d6.pool(10).lowest(4).sum()),
    ("2d20kh1", lambda: icepool.d20.pool(2).highest(1).sum()),
    ("95d6", lambda: 95 @ icepool.d6),
    ("45d20", lambda: 45 @ icepool.d20),
    ("15d100", lambda: 15 @ icepool.d100),
    ("12d6s4", lambda: 12 @ (icepool.d6 >= 4)),
    ("1d20rr<=2", lambda: icepool.d20.reroll([1, 2], depth=20)),
    ("2d8ro1", lambda: 2 @ icepool.d8.reroll([1], depth=1)),
    ("8d6mi2", lambda: 8 @ icepool.d6.map(lambda x: max(x, 2))),
    ("3d6*10", lambda: (3 @ icepool.d6) * 10),
    ("1d6/2", lambda: -((-icepool.d6) // 2)),
])
def test_distribution_matches_icepool(text, die):
    assert distribution(parse(text)) == as_fractions(die())


def test_keeping_then_exploding_matches_icepool():
    # 000 l.83 on a heavy weapon: keep the higher of 2d6; a 6 adds another d6, again and again.
    kept = icepool.d6.pool(2).highest(1).sum()
    chain = icepool.d6.explode(depth=EXPLODE_LIMIT - 1)
    die = kept.map(lambda v: 6 + chain if v == 6 else v)
    assert distribution(parse("2d6kh1!")) == as_fractions(die)


def test_chance_of_reaching_an_objective():
    assert chance_at_least(parse("2d6"), 7) == Fraction(21, 36)
    assert chance_at_least(parse("6d6s4"), 0) == 1
    assert chance_at_least(parse("6d6s4"), 7) == 0
    # 001 l.256: a d10 with one bonus throw on a 10 reaches 12 or more only as 10 and then 2 to 10.
    assert chance_at_least(parse("1d10xo10"), 12) == Fraction(9, 100)


@pytest.mark.parametrize("text", ["95d6", "15d100", "45d20", "120d6", "60d6+60d6", "100d100"])
def test_rolls_the_old_cap_refused_are_counted_exactly(text):
    dist = distribution(parse(text))
    assert sum(dist.values()) == 1 and (min(dist), max(dist)) == parse(text).bounds


@pytest.mark.parametrize("text, limit, message", [
    ("1000d1000", f"{MAX_DIGITS:,} digits", "would take about 2,998,002,001 digits of counting"),
    ("1000d6", f"{MAX_DIGITS:,} digits", "5,001 totals, each a count out of about 10^778"),
    ("1d1000!", f"{MAX_DIGITS:,} digits", "more counting its explosions depth by depth"),
    ("1000d6kh500", f"{MAX_STEPS:,}", "keeping 500 of 1000 dice in 1000d6kh500 would take 3,751,500,000 steps"),
    ("200d20*200d20", f"{MAX_STEPS:,} steps", "would pair 14,447,601 totals under *"),
])
def test_past_a_stated_limit_the_odds_are_refused_with_the_limit(text, limit, message):
    with pytest.raises(BadInput) as refused:
        distribution(parse(text))
    assert limit in str(refused.value) and message in str(refused.value)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.sampled_from([4, 6, 8, 10, 20, 100]),
       st.sampled_from(["", "kh", "kl", "dl", "dh", "s", "!", "rr1", "xo"]), st.data())
def test_every_distribution_sums_to_one_within_bounds(count, sides, modifier, data):
    if modifier in ("kh", "kl"):
        modifier += str(data.draw(st.integers(1, count)))
    elif modifier in ("dl", "dh"):
        if count == 1:
            return
        modifier += str(data.draw(st.integers(1, count - 1)))
    elif modifier == "s":
        modifier += str(data.draw(st.integers(1, sides)))
    elif modifier == "xo":
        modifier += str(sides)
    expression = parse(f"{count}d{sides}{modifier}")
    try:
        dist = distribution(expression)
    except BadInput as refused:  # only a stated limit may stop it
        assert "tally counts" in str(refused)
        return
    assert sum(dist.values()) == 1
    low, high = expression.bounds
    assert low == min(dist) and max(dist) == high
