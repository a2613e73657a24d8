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
takes a few values with known chances, and their sums are convolved as
whole numbers; a partial sum whose every completion is decided (surely as
far out, or surely not) is settled at once and dropped. Where the sums still
undecided would pass ``MAX_STATES`` the count stops and the normal
approximation answers instead, marked as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import erfc, lcm, sqrt
from typing import Optional, Sequence

HIGHER, LOWER = "higher", "lower"  # which way a result is better
MAX_STATES = 50_000  # undecided sums kept while convolving a run's percentiles
MAX_WORK = 2_000_000  # sums formed in one step of the convolution

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
        ways = int(roll.dist[t] * whole)
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
    # Rolls with few totals first: the sums stay few for longer, and more are settled early.
    parts = [_percentile_ways(r) for r in sorted(rolls, key=lambda r: len(r.dist))]
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


def _count(values: list[list[tuple[int, int]]], wholes: list[int], centre: int, reach: int,
           max_states: int) -> Optional[Fraction]:
    """P(|2 * sum - centre| >= reach), counted; None if the undecided sums grow past ``max_states``."""
    n = len(values)
    # What the rolls after the k-th can still add: the least and the most.
    low_rest, high_rest, whole_rest = [0] * (n + 1), [0] * (n + 1), [1] * (n + 1)
    for k in range(n - 1, -1, -1):
        low_rest[k] = low_rest[k + 1] + min(v for v, _ in values[k])
        high_rest[k] = high_rest[k + 1] + max(v for v, _ in values[k])
        whole_rest[k] = whole_rest[k + 1] * wholes[k]
    far = 0  # ways (out of every whole) settled as at least as far out
    states = {0: 1}
    for k in range(n):
        if len(states) * len(values[k]) > MAX_WORK:
            return None
        grown: dict[int, int] = {}
        for s, w in states.items():
            for v, ways in values[k]:
                grown[s + v] = grown.get(s + v, 0) + w * ways
        states = {}
        low, high = low_rest[k + 1], high_rest[k + 1]
        for s, w in grown.items():
            least, most = 2 * (s + low) - centre, 2 * (s + high) - centre
            if least >= reach or most <= -reach:
                far += w * whole_rest[k + 1]  # every way on is as far out
            elif -reach < least and most < reach:
                continue  # no way on reaches as far
            else:
                states[s] = w
        if len(states) > max_states:
            return None
    return Fraction(far, whole_rest[0])


def _normal(rolls: Sequence[Roll], values, wholes, scale: int, observed: int) -> float:
    """The two-sided normal approximation to the same chance."""
    variance = Fraction(0)
    for ways, whole in zip(values, wholes):
        variance += sum(Fraction(v, scale) ** 2 * Fraction(w, whole) for v, w in ways) - Fraction(1, 4)
    if variance == 0:
        return 1.0
    z = abs(Fraction(observed, scale) - Fraction(len(rolls), 2)) / sqrt(variance)
    return min(1.0, erfc(float(z) / sqrt(2)))
