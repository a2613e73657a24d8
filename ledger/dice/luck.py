"""How lucky a roll was, and how unusual a run of rolls was, counted from
the exact distributions of ledger/dice/odds.py (never simulated).

A roll's standing: ``p_at_least``, the chance of a result at least as good
as the one rolled, and its percentile, P(worse) + P(the same)/2 (the
mid-percentile). Over fair dice the percentile of any roll averages exactly
1/2, whatever its distribution, so the percentiles of different rolls can be
averaged: a run's mean percentile says how lucky it was on one scale.

How unusual a run was: the chance that fair dice, rolling the same
expressions, give a mean percentile at least as far from 1/2 as this one,
either way (a two-sided p). It is counted exactly: each roll's percentile
takes a few values with known chances, as whole numbers over a common
denominator; the run is split in two halves, every sum of each half is
counted with its ways, and each sum of one half is matched with the sums of
the other that reach as far out (bisection over a running total). Where a
half would have more than ``MAX_STATES`` sums the count stops and the normal
approximation answers instead, marked as such.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from fractions import Fraction
from math import erfc, gcd, lcm, log, sqrt
from typing import Optional, Sequence

HIGHER, LOWER = "higher", "lower"  # which way a result is better
MAX_STATES = 60_000  # sums of either half of a run counted whole
MAX_WORK = 2_000_000  # sums formed in one step of counting a half

Distribution = dict[int, Fraction]


@dataclass(frozen=True)
class Standing:
    """Where a rolled total stands in its distribution, ``better`` telling which way is good."""

    p_at_least: Fraction  # a result at least as good
    p_equal: Fraction  # this very result

    @property
    def p_at_most(self) -> Fraction:
        """A result at most as good: how unlucky the roll was."""
        return 1 - self.p_at_least + self.p_equal

    @property
    def percentile(self) -> Fraction:
        return 1 - self.p_at_least + self.p_equal / 2


def standing(dist: Distribution, total: int, better: str = HIGHER) -> Optional[Standing]:
    """The total's standing, or None if the distribution cannot give it."""
    if total not in dist:
        return None
    good = (lambda t: t >= total) if better == HIGHER else (lambda t: t <= total)
    return Standing(sum((p for t, p in dist.items() if good(t)), Fraction(0)), dist[total])


@dataclass(frozen=True)
class Roll:
    """One roll of a run: its distribution, which way is better, and the total rolled."""

    dist: Distribution
    better: str
    total: int


@dataclass(frozen=True)
class Unusual:
    p: float  # the chance of a run at least as far from even, either way
    exact: bool  # counted exactly (else the normal approximation)
    direction: str  # lucky, unlucky or even
    p_exact: Optional[Fraction] = None


def _percentile_ways(roll: Roll) -> tuple[list[tuple[int, int]], int, int]:
    """The roll's percentile as whole numbers: (value, ways) over ``2 * whole`` and ``whole``, and
    the value rolled. A percentile of t is (2 * ways worse + ways of t) / (2 * whole)."""
    whole = lcm(*(p.denominator for p in roll.dist.values()))
    order = sorted(roll.dist, reverse=roll.better == LOWER)  # worst first
    out, worse, rolled = [], 0, None
    for t in order:
        chance = roll.dist[t]
        ways = chance.numerator * (whole // chance.denominator)
        value = 2 * worse + ways
        out.append((value, ways))
        if t == roll.total:
            rolled = value
        worse += ways
    if rolled is None:
        raise ValueError(f"{roll.total} is not a possible total")
    return out, whole, rolled


def unusual(rolls: Sequence[Roll], max_states: int = MAX_STATES) -> Optional[Unusual]:
    """How unusual the run's mean percentile is under fair dice; None for no rolls."""
    if not rolls:
        return None
    parts = [_percentile_ways(r) for r in rolls]
    scale = lcm(*(2 * whole for _, whole, _ in parts))
    # Each roll's values in units of 1/scale; the sums are compared with n * scale / 2 doubled.
    values = [[(v * (scale // (2 * whole)), w) for v, w in ways] for ways, whole, _ in parts]
    wholes = [whole for _, whole, _ in parts]
    observed = sum(rolled * (scale // (2 * whole)) for _, whole, rolled in parts)
    centre = len(rolls) * scale  # twice the expected sum
    reach = abs(2 * observed - centre)
    direction = "lucky" if 2 * observed > centre else "unlucky" if 2 * observed < centre else "even"
    if reach == 0:
        return Unusual(1.0, True, direction, Fraction(1))
    counted = _count(values, wholes, centre, reach, max_states)
    if counted is not None:
        return Unusual(float(counted), True, direction, counted)
    return Unusual(_normal(rolls, values, wholes, scale, observed), False, direction)


def _bound(values: list[list[tuple[int, int]]]) -> int:
    """At most how many sums the rolls can make: fewer than the product of their counts of values
    where the values lie on a common step (rolls of one expression add up along a line)."""
    product, span, step = 1, 0, 0
    for ways_of in values:
        product *= len(ways_of)
        low = min(v for v, _ in ways_of)
        span += max(v for v, _ in ways_of) - low
        for v, _ in ways_of:
            step = gcd(step, v - low)
    return min(product, span // step + 1 if step else 1)


def _sums(values: list[list[tuple[int, int]]], max_states: int) -> Optional[dict[int, int]]:
    """Every sum of one value of each roll, with its ways; None past ``max_states`` sums or MAX_WORK steps."""
    if _bound(values) > max_states:
        return None  # no need to count it to know
    states = {0: 1}
    for ways_of in values:
        if len(states) * len(ways_of) > MAX_WORK:
            return None
        grown: dict[int, int] = {}
        for s, w in states.items():
            for v, ways in ways_of:
                grown[s + v] = grown.get(s + v, 0) + w * ways
        states = grown
        if len(states) > max_states:
            return None
    return states


def _count(values: list[list[tuple[int, int]]], wholes: list[int], centre: int, reach: int,
           max_states: int) -> Optional[Fraction]:
    """P(|2 * sum - centre| >= reach), counted; None if a half's sums grow past ``max_states``.

    Meet in the middle: the rolls are split in two halves of about equal count of sums, each
    half's sums are counted whole, and for each sum of one half the sums of the other that
    reach as far out are read off a running total by bisection."""
    halves: tuple[list[int], list[int]] = ([], [])
    sizes = [0.0, 0.0]
    for i in sorted(range(len(values)), key=lambda i: -len(values[i])):
        half = 0 if sizes[0] <= sizes[1] else 1
        halves[half].append(i)
        sizes[half] += log(len(values[i]))
    first = _sums([values[i] for i in halves[0]], max_states)
    second = _sums([values[i] for i in halves[1]], max_states) if first is not None else None
    if second is None:
        return None
    keys = sorted(second)
    running = [0]
    for k in keys:
        running.append(running[-1] + second[k])
    far = 0
    for a, w in first.items():
        # the other half's sum b reaches as far when 2(a + b) - centre >= reach, or <= -reach
        up = -((2 * a - centre - reach) // 2)  # the least b above: ceil((centre + reach - 2a) / 2)
        down = (centre - reach - 2 * a) // 2  # the most b below
        far += w * (running[-1] - running[bisect_left(keys, up)] + running[bisect_right(keys, down)])
    whole = 1
    for each in wholes:
        whole *= each
    return Fraction(far, whole)


def _normal(rolls: Sequence[Roll], values, wholes, scale: int, observed: int) -> float:
    """The two-sided normal approximation to the same chance (in floating point: it is approximate)."""
    variance = 0.0
    for ways, whole in zip(values, wholes):
        variance += sum((v / scale) ** 2 * (w / whole) for v, w in ways) - 0.25
    if variance <= 0:
        return 1.0
    z = abs(observed / scale - len(rolls) / 2) / sqrt(variance)
    return min(1.0, erfc(z / sqrt(2)))
