"""Exact odds of a dice expression: its whole distribution, computed by
counting outcomes (never by simulation), as fractions.

Every distribution is held as whole numbers: ``ways[v]`` of ``total``
equally likely readings of the byte stream. Sums of independent dice are
products of polynomials, multiplied as big integers (each coefficient
packed into its own run of bytes, so one multiplication of two Python ints
does a whole convolution). Keeping or dropping dice is counted value by
value: how many dice show each value, highest first (or lowest first).

A size is worked out before anything is counted (``plan``); a roll whose
exact answer would keep a referee waiting is refused, naming the limit it
passes. docs/dice.md ("Exact odds") gives the limits and measured times.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import comb, log10

from ledger.dice.expression import Const, Dice, Expression, Neg, Node, ceil_div, kept_die_range
from ledger.errors import BadInput

# The limits, stated in every refusal. Digits: the size of an exact answer
# (its totals times the digits of the count of equally likely readings),
# plus what an explosion counts on the way. Steps: one step adds one count
# while keeping or dropping dice, or pairs two totals under * or /.
MAX_DIGITS = 2_000_000
MAX_STEPS = 4_000_000

Distribution = dict[int, Fraction]


@dataclass(frozen=True)
class Counts:
    """An exact distribution: ``ways[v]`` of ``total`` equally likely outcomes."""

    ways: dict[int, int]
    total: int

    def scaled(self, factor: int) -> "Counts":
        return Counts({v: w * factor for v, w in self.ways.items()}, self.total * factor)


def distribution(expression: Expression) -> Distribution:
    """Every total and its exact chance; refused in one line if too large to count."""
    plan(expression)
    counts = _counts(expression.tree)
    return {v: Fraction(w, counts.total) for v, w in sorted(counts.ways.items()) if w}


def chance_at_least(expression: Expression, objective: int) -> Fraction:
    """P(total ≥ objective): the chance of meeting an Objective."""
    return sum((p for total, p in distribution(expression).items() if total >= objective), Fraction(0))


def mean(dist: Distribution) -> Fraction:
    return sum((total * p for total, p in dist.items()), Fraction(0))


# -- sizing -----------------------------------------------------------------

@dataclass(frozen=True)
class Size:
    low: int
    high: int
    log_total: float  # log10 of the count of equally likely outcomes
    counted: int = 0  # digits counted on the way to this answer (an explosion's depths), besides its own

    @property
    def digits(self) -> int:
        """How large the exact answer is: its totals times the digits of each count."""
        return int((self.high - self.low + 1) * (self.log_total + 1))


def plan(expression: Expression) -> Size:
    """The size of the exact answer, worked out without counting it; a
    refusal naming the limit if counting it would pass one."""
    return _size(expression.tree, expression.text)


def _size(node: Node, text: str) -> Size:
    if isinstance(node, Const):
        return Size(node.value, node.value, 0.0)
    if isinstance(node, Neg):
        inner = _size(node.inner, text)
        return Size(-inner.high, -inner.low, inner.log_total, inner.counted)
    if isinstance(node, Dice):
        return _dice_size(node, text)
    left, right = _size(node.left, text), _size(node.right, text)
    low, high = _bounds_of(node.op, left, right)
    if node.op in "*/":
        pairs = (left.high - left.low + 1) * (right.high - right.low + 1)
        if pairs > MAX_STEPS:
            raise BadInput(f"exact odds of {text} would pair {pairs:,} totals under {node.op}; tally counts at "
                           f"most {MAX_STEPS:,} steps: multiply or divide a smaller roll")
    size = Size(low, high, left.log_total + right.log_total, left.counted + right.counted)
    _check_digits(size, text)
    return size


def _bounds_of(op: str, a: Size, b: Size) -> tuple[int, int]:
    if op == "+":
        return a.low + b.low, a.high + b.high
    if op == "-":
        return a.low - b.high, a.high - b.low
    combine = (lambda x, y: x * y) if op == "*" else ceil_div
    corners = [combine(x, y) for x in (a.low, a.high) for y in (b.low, b.high)]
    return min(corners), max(corners)


def _dice_size(die: Dice, text: str) -> Size:
    low, high = kept_die_range(die)
    read = _log_read_total(die)
    depth = die.explode_limit if die.explode is not None else 0
    scores = [die.scored(v) for v in die.values]
    span = max(scores) - min(scores)
    # each depth of an explosion is counted in turn, one die's worth bigger than the last
    chain = sum(int((level * span + 1) * ((level + 1) * read + 1)) for level in range(1, depth + 1))
    size = Size(die.kept * low, die.kept * high, read * die.count + read * depth * die.kept, chain)
    if die.keep:
        steps = len(die.values) * die.n * die.n * (die.n * span + 1) * (die.n + 1 if depth else 1)
        if steps > MAX_STEPS:
            raise BadInput(f"exact odds of keeping {die.n} of {die.count} dice in {text} would take {steps:,} "
                           f"steps to count; tally counts at most {MAX_STEPS:,}: keep or drop fewer dice")
    _check_digits(size, text)
    return size


def _log_read_total(die: Dice) -> float:
    faces = len(die.faces)
    rolls = die.reroll_limit + 1 if die.reroll is not None else 1
    return rolls * log10(faces)


def _check_digits(size: Size, text: str) -> None:
    if size.digits + size.counted > MAX_DIGITS:
        how = (f"{size.high - size.low + 1:,} totals, each a count out of about 10^{int(size.log_total):,}"
               + (f", and {size.counted:,} more counting its explosions depth by depth" if size.counted else ""))
        raise BadInput(
            f"the exact odds of {text} would take about {size.digits + size.counted:,} digits of counting "
            f"({how}); tally counts up to {MAX_DIGITS:,} digits: roll fewer dice, dice with fewer faces "
            "or an explosion on fewer faces")


# -- counting -----------------------------------------------------------------

def _counts(node: Node) -> Counts:
    if isinstance(node, Const):
        return Counts({node.value: 1}, 1)
    if isinstance(node, Neg):
        inner = _counts(node.inner)
        return Counts({-v: w for v, w in inner.ways.items()}, inner.total)
    if isinstance(node, Dice):
        return _term(node)
    left, right = _counts(node.left), _counts(node.right)
    if node.op == "+":
        return multiply(left, right)
    if node.op == "-":
        return multiply(left, Counts({-v: w for v, w in right.ways.items()}, right.total))
    combine = (lambda a, b: a * b) if node.op == "*" else ceil_div
    out: dict[int, int] = defaultdict(int)
    for a, wa in left.ways.items():
        for b, wb in right.ways.items():
            out[combine(a, b)] += wa * wb
    return Counts(dict(out), left.total * right.total)


def read_counts(die: Dice) -> Counts:
    """What one die of the term counts for, as read: its face, rerolled while
    it matches (up to the limit), then held within mi/ma."""
    faces = defaultdict(int)
    for face in die.faces:
        faces[face] += 1
    whole = len(die.faces)
    if die.reroll is not None:
        matching = sum(w for f, w in faces.items() if die.reroll.matches(f))
        limit = die.reroll_limit
        # a face that does not match stands after k rerolls (k = 0..limit); one that
        # matches stands only when the limit is reached
        standing = sum(matching ** k * whole ** (limit - k) for k in range(limit + 1))
        faces = {f: w * (matching ** limit if die.reroll.matches(f) else standing) for f, w in faces.items()}
        whole = whole ** (limit + 1)
    ways: dict[int, int] = defaultdict(int)
    for face, w in faces.items():
        ways[die.value(face)] += w
    return Counts(dict(ways), whole)


def _chain(die: Dice, read: Counts, depth: int) -> Counts:
    """What one die adds when it may still explode ``depth`` times: a die that
    does not match adds its own score; one that matches adds its score and
    what a die with one explosion fewer adds."""
    result = Counts(_scored(die, read.ways), read.total)
    if die.explode is None:
        return result
    matching = {v: w for v, w in read.ways.items() if die.explode.matches(v)}
    for _ in range(depth):
        exploded = multiply(Counts(_scored(die, matching), read.total), result)
        ways = defaultdict(int, exploded.ways)
        for v, w in read.ways.items():
            if v not in matching:
                ways[die.scored(v)] += w * result.total
        result = Counts(dict(ways), exploded.total)
    return result


def _scored(die: Dice, ways: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = defaultdict(int)
    for v, w in ways.items():
        out[die.scored(v)] += w
    return dict(out)


def _term(die: Dice) -> Counts:
    read = read_counts(die)
    depth = die.explode_limit if die.explode is not None else 0
    if not die.keep:
        return power(_chain(die, read, depth), die.count)
    return _kept(die, read, depth)


def _kept(die: Dice, read: Counts, depth: int) -> Counts:
    """Keep the n highest (or lowest) of the term's dice, then let each kept
    die explode: dice are given out to the values one value at a time, from
    the kept end; once n are kept, the rest may show anything further on."""
    values = sorted(read.ways, reverse=die.keep == "kh")
    n, k = die.count, die.n
    exploding = {v for v in values if die.explode is not None and die.explode.matches(v)}
    # states: (dice given out, scored sum of the kept ones, kept ones that explode) -> ways
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    done: dict[tuple[int, int], int] = defaultdict(int)
    for i, v in enumerate(values):
        w = read.ways[v]
        rest = sum(read.ways[u] for u in values[i + 1:])
        score, chains = die.scored(v), int(v in exploding)
        nxt: dict[tuple[int, int, int], int] = defaultdict(int)
        tails: dict[int, int] = {}
        for (given, total, exploded), ways in states.items():
            left, room = n - given, k - given
            for c in range(room):  # not full yet: the next values take the rest
                nxt[(given + c, total + c * score, exploded + c * chains)] += ways * comb(left, c) * w ** c
            # full: `room` of the c dice here are kept, the others and every later die are dropped
            if given not in tails:
                tails[given] = sum(comb(left, c) * w ** c * rest ** (left - c) for c in range(room, left + 1))
            done[(total + room * score, exploded + room * chains)] += ways * tails[given]
        states = nxt
    # states still short of n kept dice had dice left over with no value to take: none
    if not exploding:
        ways: dict[int, int] = defaultdict(int)
        for (total, _), count in done.items():
            ways[total] += count
        return Counts(dict(ways), read.total ** n)
    # each kept die that matched adds what a die with one explosion fewer adds;
    # the others are scaled to the same count of equally likely readings
    extra = _chain(die, read, depth - 1)
    ways = defaultdict(int)
    for (total, exploded), count in done.items():
        chained = power(extra, exploded) if exploded else Counts({0: 1}, 1)
        scale = extra.total ** (k - exploded)
        for x, w in chained.ways.items():
            ways[total + x] += count * w * scale
    return Counts(dict(ways), read.total ** n * extra.total ** k)


# -- polynomial arithmetic on big integers ----------------------------------

def _slot(largest: int) -> int:
    """Bytes that hold any coefficient up to ``largest``."""
    return largest.bit_length() // 8 + 1


def _pack(counts: Counts, low: int, high: int, slot: int) -> int:
    buffer = bytearray(slot * (high - low + 1))
    for v, w in counts.ways.items():
        buffer[(v - low) * slot:(v - low + 1) * slot] = w.to_bytes(slot, "little")
    return int.from_bytes(buffer, "little")


def _unpack(number: int, low: int, count: int, slot: int, total: int) -> Counts:
    raw = number.to_bytes(slot * count, "little")
    ways = {}
    for i in range(count):
        w = int.from_bytes(raw[i * slot:(i + 1) * slot], "little")
        if w:
            ways[low + i] = w
    return Counts(ways, total)


def multiply(a: Counts, b: Counts) -> Counts:
    """The distribution of the sum of two independent totals."""
    if not a.ways or not b.ways:
        return Counts({}, a.total * b.total)
    a_low, a_high, b_low, b_high = min(a.ways), max(a.ways), min(b.ways), max(b.ways)
    total = a.total * b.total
    slot = _slot(sum(a.ways.values()) * sum(b.ways.values()))
    product = _pack(a, a_low, a_high, slot) * _pack(b, b_low, b_high, slot)
    return _unpack(product, a_low + b_low, (a_high - a_low) + (b_high - b_low) + 1, slot, total)


def power(counts: Counts, n: int) -> Counts:
    """The distribution of the sum of ``n`` independent copies."""
    if n == 1:
        return counts
    low, high = min(counts.ways), max(counts.ways)
    total = counts.total ** n
    slot = _slot(sum(counts.ways.values()) ** n)
    number = pow(_pack(counts, low, high, slot), n)
    return _unpack(number, low * n, (high - low) * n + 1, slot, total)
