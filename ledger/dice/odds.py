"""Exact odds of a dice expression: its whole distribution, computed by
counting outcomes (never by simulation), as fractions."""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from math import comb

from ledger.dice.expression import AVERAGE_FACES, Const, Dice, Expression, Neg, Node, ceil_div
from ledger.errors import BadInput

# Work beyond these sizes would keep a referee waiting: refuse instead.
MAX_SUPPORT = 200_000
MAX_STEPS = 30_000_000

Distribution = dict[int, Fraction]


def distribution(expression: Expression) -> Distribution:
    return _dist(expression.tree)


def chance_at_least(expression: Expression, objective: int) -> Fraction:
    """P(total ≥ objective): the chance of meeting an Objective."""
    return sum((p for total, p in distribution(expression).items() if total >= objective), Fraction(0))


def mean(dist: Distribution) -> Fraction:
    return sum((total * p for total, p in dist.items()), Fraction(0))


def _face_weights(die: Dice) -> dict[int, int]:
    if die.average:
        return dict(Counter(AVERAGE_FACES))
    return {face: 1 for face in range(1, die.sides + 1)}


def _dist(node: Node) -> Distribution:
    if isinstance(node, Const):
        return {node.value: Fraction(1)}
    if isinstance(node, Neg):
        return {-total: p for total, p in _dist(node.inner).items()}
    if isinstance(node, Dice):
        return _dice_dist(node)
    left, right = _dist(node.left), _dist(node.right)
    if len(left) * len(right) > MAX_SUPPORT:
        raise BadInput("too many outcomes to compute these odds exactly; split the expression")
    combine = {
        "+": lambda a, b: a + b, "-": lambda a, b: a - b,
        "*": lambda a, b: a * b, "/": ceil_div,
    }[node.op]
    out: dict[int, Fraction] = defaultdict(Fraction)
    for a, pa in left.items():
        for b, pb in right.items():
            out[combine(a, b)] += pa * pb
    return dict(out)


def _dice_dist(die: Dice) -> Distribution:
    weights = _face_weights(die)
    faces = sum(weights.values())
    if die.keep == "s":
        p = Fraction(sum(w for face, w in weights.items() if face >= die.n), faces)
        return {k: comb(die.count, k) * p ** k * (1 - p) ** (die.count - k)
                for k in range(die.count + 1)}
    keep = die.n if die.keep else die.count
    steps = len(weights) * die.count * die.count * (keep * max(weights) + 1)
    if steps > MAX_STEPS:
        raise BadInput(f"{die.count}d{die.sides} is too large to compute exact odds for")
    highest_first = die.keep != "kl"
    # Assign dice to face values one value at a time (highest first when
    # keeping the highest): states are (dice assigned, sum of kept dice).
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for value in sorted(weights, reverse=highest_first):
        weight = weights[value]
        nxt: dict[tuple[int, int], int] = defaultdict(int)
        for (assigned, kept_sum), ways in states.items():
            remaining = die.count - assigned
            room = max(0, keep - assigned)
            for c in range(remaining + 1):
                nxt[(assigned + c, kept_sum + min(c, room) * value)] += (
                    ways * comb(remaining, c) * weight ** c)
        states = nxt
    total = faces ** die.count
    return {s: Fraction(ways, total) for (assigned, s), ways in states.items() if assigned == die.count}
