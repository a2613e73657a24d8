"""Exact odds agree with counting every outcome by brute force."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.dice.expression import parse
from ledger.dice.odds import chance_at_least, distribution


def brute_force(text):
    expression = parse(text)
    ranges = []
    for die in expression.dice:
        faces = [2, 3, 3, 4, 4, 5] if die.average else list(range(1, die.sides + 1))
        ranges += [faces] * die.count
    totals = Counter(expression.total_from_faces(list(faces)) for faces in product(*ranges))
    n = sum(totals.values())
    return {total: Fraction(count, n) for total, count in totals.items()}


@pytest.mark.parametrize("text", ["2d6", "3d6kh2", "2d6kl1", "4d6kh3", "5d6kl2", "6d6s4", "2dA+1d4",
                                  "1d6/2", "3d4*2-1d3", "d12+3", "4dAkh2", "3d8s6"])
def test_distribution_matches_brute_force(text):
    assert distribution(parse(text)) == brute_force(text)


def test_chance_of_reaching_an_objective():
    assert chance_at_least(parse("2d6"), 7) == Fraction(21, 36)
    assert chance_at_least(parse("6d6s4"), 0) == 1
    assert chance_at_least(parse("6d6s4"), 7) == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.sampled_from([4, 6, 8, 10, 20, 100]), st.sampled_from(["", "kh", "kl", "s"]),
       st.data())
def test_every_distribution_sums_to_one_within_bounds(count, sides, keep, data):
    n = data.draw(st.integers(1, sides if keep == "s" else count)) if keep else 0
    expression = parse(f"{count}d{sides}{keep}{n if keep else ''}")
    dist = distribution(expression)
    assert sum(dist.values()) == 1
    low, high = expression.bounds
    assert low <= min(dist) and max(dist) <= high
