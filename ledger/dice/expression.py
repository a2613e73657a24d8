"""Dice expressions: a grammar, a tree, bounds and evaluation.

    expression := sum
    sum        := product (("+" | "-") product)*
    product    := unary (("*" | "/") unary)*
    unary      := "-" unary | atom
    atom       := NUMBER | dice | "(" sum ")"
    dice       := [NUMBER] "d" (NUMBER | "%" | "A") modifier*
    modifier   := NAME [selector]          NAME: letters, or "!"
    selector   := NUMBER | ">=" NUMBER | "<=" NUMBER

``NdX`` sums N dice of X faces; ``d%`` is a d100; ``dA`` the average die (a
d6 whose faces read 2,3,3,4,4,5). Division rounds up (004 l.46 "always round
up"; 000 l.51 languages ``1d6/2`` = 1-3). A dice term's modifiers come in
this order, each at most once (docs/dice.md has the whole notation):

1. how every die of the term is read: ``rr``/``ro`` reroll (until the face
   no longer matches, at most REROLL_LIMIT times / once), then ``mi``/``ma``
   (each die counts at least / at most n);
2. ``kh``/``kl``/``dh``/``dl`` keep or drop n of the dice;
3. ``!``, ``x``, ``e`` explode each kept die (an extra die, kept too, each
   time it shows a matching value, at most EXPLODE_LIMIT per die), ``xo``
   explode once;
4. ``s`` counts the kept dice showing at least n instead of summing them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Iterator, Optional, Union

from ledger.errors import BadInput

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_NUMBER = 1_000_000
MAX_LENGTH = 200
AVERAGE_FACES = (2, 3, 3, 4, 4, 5)
# The depth limits: an exploding die adds at most this many extra dice
# (a d6 reaches it once in 6**20, about 3.7e15 rolls), a rerolled die is
# rerolled at most this many times. Both are part of the derivation spec.
EXPLODE_LIMIT = 20
REROLL_LIMIT = 20

GRAMMAR = r"""
?start: sum
?sum: product
    | sum "+" product   -> add
    | sum "-" product   -> sub
?product: unary
    | product "*" unary -> mul
    | product "/" unary -> div
?unary: atom
    | "-" unary         -> neg
?atom: NUMBER           -> const
    | dice
    | "(" sum ")"
dice: [NUMBER] DEE sides modifier*
sides: NUMBER           -> numbered
    | "%"               -> percent
    | AVG               -> average
modifier: MOD [selector]
selector: NUMBER        -> equal
    | ">=" NUMBER       -> at_least
    | "<=" NUMBER       -> at_most
    | ">" NUMBER        -> greater
    | "<" NUMBER        -> less
DEE: "d"i
AVG: "A"i
MOD: /[a-z]+/i | "!"
NUMBER: /[0-9]+/
%ignore /[ \t]+/
"""

EXAMPLES = "2d6, 3d6kh2, 4d6dl1, 6d6s4, 1d6!, 1d10xo10, 4d6rr1, d%, dA, 3d6*10, 1d6/2"

# Each modifier's stage: the order they must be written in (module docstring).
STAGE = {"rr": 1, "ro": 1, "mi": 2, "ma": 2, "kh": 3, "kl": 3, "dh": 3, "dl": 3,
         "!": 4, "x": 4, "e": 4, "xo": 4, "s": 5}
SYNONYMS = {"min": "mi", "max": "ma"}
# Notations other dice rollers use that read differently there, or that tally
# does not roll: each refusal names what to write instead.
UNSUPPORTED = {
    "r": "a bare r rerolls once in Foundry but until it stops matching in Roll20: write ro1 (once) or rr1",
    "k": "a bare k keeps the highest in Roll20 and Foundry but keeps matching faces in Avrae: write kh or kl",
    "d": "a bare d drops the lowest in Roll20 and Foundry: write dl or dh (4d6dl1)",
    "p": "drop with dl or dh (4d6dl1); penetrating dice (!p) are not supported",
    "pl": "drop with dl or dh (4d6dl1)", "ph": "drop with dl or dh (4d6dh1)",
    "ra": "reroll-and-add is written xo, explode once (1d10xo10)",
    "cs": "count successes with s (6d6s4); critical marks are not supported",
    "cf": "critical marks are not supported; compare the total with --under, --at-most, --at-least or --ob",
    "f": "count successes with s (6d6s4)",
    "sf": "failures are not subtracted; count successes with s (6d6s4)",
    "df": "fudge dice (dF) are not supported",
}


@dataclass(frozen=True)
class Selector:
    """Which values a reroll or an explosion acts on."""

    op: str  # "=", ">=" or "<="
    value: int

    def matches(self, value: int) -> bool:
        if self.op == ">=":
            return value >= self.value
        if self.op == "<=":
            return value <= self.value
        return value == self.value

    def __str__(self) -> str:
        return f"{'' if self.op == '=' else self.op}{self.value}"


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int  # faces of the physical die (6 for dA, 100 for d%)
    average: bool = False
    keep: str = ""  # "", "kh" or "kl": keep the n highest / lowest (a drop is read as a keep)
    n: int = 0  # how many kept
    successes: Optional[int] = None  # count the kept dice showing at least this, instead of summing
    reroll: Optional[Selector] = None
    reroll_limit: int = 0
    low: Optional[int] = None  # mi: each die counts at least this
    high: Optional[int] = None  # ma: each die counts at most this
    explode: Optional[Selector] = None
    explode_limit: int = 0

    @property
    def face_range(self) -> tuple[int, int]:
        """The faces a die of this term can show as read (before mi/ma)."""
        return (2, 5) if self.average else (1, self.sides)

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face of the physical die, read: 1..sides, or the average die's six."""
        return AVERAGE_FACES if self.average else tuple(range(1, self.sides + 1))

    @property
    def kept(self) -> int:
        """How many of the named dice stay after keeping or dropping."""
        return self.n if self.keep else self.count

    @property
    def fixed(self) -> bool:
        """Whether every roll of this term reads exactly ``count`` dice."""
        return self.reroll is None and self.explode is None

    def value(self, face: int) -> int:
        """What a face counts for, after mi/ma."""
        if self.low is not None and face < self.low:
            face = self.low
        if self.high is not None and face > self.high:
            face = self.high
        return face

    def scored(self, value: int) -> int:
        """What a kept die showing ``value`` adds to the term's total."""
        return value if self.successes is None else int(value >= self.successes)

    @property
    def values(self) -> tuple[int, ...]:
        """The values a die of this term can count for, lowest first."""
        return tuple(sorted({self.value(f) for f in self.faces}))


@dataclass(frozen=True)
class Const:
    value: int


@dataclass(frozen=True)
class BinOp:
    op: str
    left: "Node"
    right: "Node"


@dataclass(frozen=True)
class Neg:
    inner: "Node"


Node = Union[Dice, Const, BinOp, Neg]

# What became of each face read, in derivation order (Reading.marks).
KEPT, DROPPED, REROLLED, EXTRA = "kept", "dropped", "rerolled", "extra"


@dataclass(frozen=True)
class Reading:
    """One roll of an expression: every face read, in derivation order, what
    became of each (kept, dropped, rerolled away, or an explosion's extra die)
    and the total."""

    faces: tuple[int, ...]
    marks: tuple[str, ...]
    total: int


@dataclass(frozen=True)
class Expression:
    text: str
    tree: Node

    @property
    def dice(self) -> list[Dice]:
        return list(_dice_in(self.tree))

    @property
    def dice_count(self) -> int:
        """The dice the expression names (an explosion or a reroll reads more)."""
        return sum(d.count for d in self.dice)

    @property
    def fixed(self) -> bool:
        """Whether every roll reads exactly ``dice_count`` faces."""
        return all(d.fixed for d in self.dice)

    @property
    def bounds(self) -> tuple[int, int]:
        return _bounds(self.tree)

    def read(self, read_face: Callable[[Dice], int]) -> Reading:
        """Roll left to right, taking each face from ``read_face`` in the
        order docs/dice.md specifies."""
        faces: list[int] = []
        marks: list[str] = []
        total = _evaluate(self.tree, read_face, faces, marks)
        return Reading(tuple(faces), tuple(marks), total)

    def evaluate(self, read_face: Callable[[Dice], int]) -> tuple[list[int], int]:
        """The faces in derivation order and the total."""
        reading = self.read(read_face)
        return list(reading.faces), reading.total

    def hand(self, faces: list[int]) -> Reading:
        """The roll these hand-rolled faces give, read in derivation order; each
        must be a face of its die (a d10 or d100 showing 0 is its 10 or 100,
        001 l.143), and every one must be used."""
        supply = _HandFaces(self, faces)
        reading = self.read(supply.take)
        if supply.used < len(faces):
            need = (f"needs exactly {supply.used} dice" if self.fixed
                    else f"reads {supply.used} dice with these faces")
            raise BadInput(f"{self.text} {need}, {len(faces)} given in --dice")
        return reading

    def total_from_faces(self, faces: list[int]) -> int:
        """The total these faces give, after checking they fit the expression."""
        return self.hand(faces).total

    def faces_needed(self, faces: list[int]) -> Optional[int]:
        """How many faces from the start of ``faces`` one roll of this expression
        reads (a command rolling several times takes its share, then the next);
        None if they run out first."""
        supply = _HandFaces(self, faces)
        try:
            self.read(supply.take)
        except _RanOut:
            return None
        return supply.used


class _RanOut(BadInput):
    pass


class _HandFaces:
    """Faces given by hand, handed out as the expression reads them."""

    def __init__(self, expression: Expression, faces: list[int]) -> None:
        self.expression, self.faces, self.used = expression, faces, 0

    def take(self, die: Dice) -> int:
        if self.used >= len(self.faces):
            need = (f"needs exactly {self.expression.dice_count} dice" if self.expression.fixed
                    else "reads more dice with these faces")
            raise _RanOut(f"{self.expression.text} {need}, {len(self.faces)} given in --dice")
        face = self.faces[self.used]
        self.used += 1
        if face == 0 and not die.average and die.sides in (10, 100):
            return die.sides  # a d10's 0 is 10, percentile dice's 00 is 100 (001 l.143)
        if face not in die.faces:
            low, high = die.face_range
            name = "an average die" if die.average else f"a d{die.sides}"
            raise BadInput(f"{face} is not a face of {name} (it shows {low} to {high})")
        return face


def parse(text: str) -> Expression:
    """Parse and check an expression, or refuse it in one line."""
    text = text.strip()
    if not text:
        raise BadInput(f"empty dice expression: write something like {EXAMPLES}")
    if len(text) > MAX_LENGTH:
        raise BadInput(f"dice expression longer than {MAX_LENGTH} characters")
    plain = PLAIN.fullmatch(text)
    expression = Expression(text=text, tree=_plain(plain, text) if plain else _parsed(text))
    if expression.dice_count > MAX_DICE:
        raise BadInput(f"{text} rolls {expression.dice_count} dice; at most {MAX_DICE} per expression")
    expression.bounds  # refuses a divisor that can be zero
    return expression


# What most rolls at the table look like (1d6, 2d6+1, d20-2): read without the grammar's
# parser, whose import is a fifth of a cold `tally roll`'s own time. The term and the sum are
# built by the same code, in the same order, as from the parser's tree (tests/test_dice_expression.py
# holds the two readings equal); anything else goes to the parser.
PLAIN = re.compile(r"([0-9]+)?[dD]([0-9]+)(?:[ \t]*([+-])[ \t]*([0-9]+))?")


@dataclass(frozen=True)
class _Sides:  # what _build_dice reads of the parser's ``numbered`` subtree
    children: tuple[str]
    data: str = "numbered"


def _plain(match: re.Match, text: str) -> Node:
    count, sides, sign, number = match.groups()
    die = _build_dice([count, "d", _Sides((sides,))], text)
    if sign is None:
        return die
    return BinOp(sign, die, Const(_number(number)))


def _parsed(text: str) -> Node:
    from lark.exceptions import LarkError, UnexpectedInput

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise BadInput(_unreadable(text, exc.column)) from None
    except LarkError:
        raise BadInput(f"cannot read dice expression {text!r}") from None
    return _build(tree, text)


def _unreadable(text: str, column: int) -> str:
    if re.search(r"d\s*f", text, re.I):
        return f"fudge dice (dF) are not supported: write dice like {EXAMPLES}"
    if re.search(r"[0-9%a]\s*[<>=]", text, re.I):
        return (f"cannot read dice expression {text!r} at column {column}: count dice with s (6d6s4), "
                "and compare the total with --under, --at-most, --at-least or --ob")
    return f"cannot read dice expression {text!r} at column {column}: write dice like {EXAMPLES}"


@lru_cache(maxsize=1)
def _parser():
    from lark import Lark

    # cache: the built parser is kept in a file in the temporary folder (keyed by the
    # grammar and lark version), so a roll at the table does not rebuild it each time.
    return Lark(GRAMMAR, parser="lalr", cache=True)


def _number(token) -> int:
    value = int(token)
    if value > MAX_NUMBER:
        raise BadInput(f"{value} is too large for a dice expression (at most {MAX_NUMBER})")
    return value


def _build(tree, text: str) -> Node:
    from lark import Tree

    if not isinstance(tree, Tree):
        raise BadInput("cannot read dice expression")
    kind = tree.data
    if kind == "const":
        return Const(_number(tree.children[0]))
    if kind == "neg":
        return Neg(_build(tree.children[0], text))
    if kind in ("add", "sub", "mul", "div"):
        ops = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
        return BinOp(ops[kind], _build(tree.children[0], text), _build(tree.children[1], text))
    if kind == "dice":
        return _build_dice(tree.children, text)
    raise BadInput(f"cannot read dice expression ({kind})")


def _build_dice(children, text: str) -> Dice:
    count_token, _dee, sides_tree, *modifiers = children
    count = 1 if count_token is None else _number(count_token)
    if count < 1:
        raise BadInput("a dice term needs at least one die (0d6 rolls nothing)")
    if count > MAX_DICE:
        raise BadInput(f"{count} dice in one term; at most {MAX_DICE} per expression")
    average = sides_tree.data == "average"
    if sides_tree.data == "numbered":
        sides = _number(sides_tree.children[0])
        if sides < 2:
            raise BadInput(f"a d{sides} is not a die: dice have 2 to {MAX_SIDES} faces")
        if sides > MAX_SIDES:
            raise BadInput(f"a d{sides} has too many faces: at most {MAX_SIDES}")
    else:
        sides = 100 if sides_tree.data == "percent" else 6
    die = Dice(count=count, sides=sides, average=average)
    term = _term_text(count_token, sides_tree, modifiers)
    stage, seen = 0, set()
    for i, modifier in enumerate(modifiers):
        name = str(modifier.children[0]).lower()
        name = SYNONYMS.get(name, name)
        selector = _selector(modifier.children[1], name, term)
        if name == "!" and i + 1 < len(modifiers) and str(modifiers[i + 1].children[0]) == "!":
            raise BadInput(f"compounding dice (!!) are not supported in {term}: explode with ! (1d6!)")
        if name == "!" and i + 1 < len(modifiers) and str(modifiers[i + 1].children[0]).lower().startswith("p"):
            raise BadInput(f"penetrating dice (!p) are not supported in {term}: explode with ! (1d6!)")
        if name not in STAGE:
            hint = UNSUPPORTED.get(name, "modifiers are rr, ro, mi, ma, kh, kl, dh, dl, !, x, e, xo and s")
            raise BadInput(f"unknown dice modifier {name!r} in {term}: {hint}")
        if name in seen or (STAGE[name] in (1, 3, 4, 5) and STAGE[name] in {STAGE[s] for s in seen}):
            raise BadInput(f"{term} has two {_stage_name(STAGE[name])} modifiers: give one")
        if STAGE[name] < stage:
            raise BadInput(f"in {term}, {name} comes too late: write rerolls (rr, ro), then mi/ma, then "
                           "keep or drop (kh, kl, dh, dl), then explosions (!, x, e, xo), then s "
                           "(e.g. 2d6kh1! keeps the higher die, then explodes it)")
        stage = STAGE[name]
        seen.add(name)
        die = _apply(die, name, selector, term)
    _check_die(die, term)
    return die


def _term_text(count_token, sides_tree, modifiers) -> str:
    sides = {"numbered": lambda: str(sides_tree.children[0]), "percent": lambda: "%", "average": lambda: "A"}
    mods = "".join(str(m.children[0]) + _selector_text(m.children[1]) for m in modifiers)
    return f"{count_token or ''}d{sides[sides_tree.data]()}{mods}"


def _selector_text(tree) -> str:
    if tree is None:
        return ""
    ops = {"equal": "", "at_least": ">=", "at_most": "<=", "greater": ">", "less": "<"}
    return ops[tree.data] + str(tree.children[0])


def _stage_name(stage: int) -> str:
    return {1: "reroll", 2: "mi/ma", 3: "keep or drop", 4: "explode", 5: "success"}[stage]


def _selector(tree, name: str, term: str) -> Optional[Selector]:
    if tree is None:
        return None
    value = _number(tree.children[0])
    if tree.data in ("greater", "less"):
        sign, strict = (">", value + 1) if tree.data == "greater" else ("<", value - 1)
        ge = ">=" if sign == ">" else "<="
        raise BadInput(f"{sign}{value} in {term} means beyond {value} in Foundry and Avrae but {value} too in "
                       f"Roll20: write {ge}{strict} or {ge}{value}")
    return Selector({"equal": "=", "at_least": ">=", "at_most": "<="}[tree.data], value)


def _apply(die: Dice, name: str, selector: Optional[Selector], term: str) -> Dice:
    n = 0
    if name in ("mi", "ma", "kh", "kl", "dh", "dl", "s"):
        if selector is None or selector.op != "=":
            raise BadInput(f"{name} takes a plain number in {term} (e.g. {_example(name)})")
        n = selector.value
    if name in ("rr", "ro"):
        if selector is None:
            raise BadInput(f"a reroll takes the faces to reroll in {term}: {die.count}d{die.sides}{name}1")
        return replace(die, reroll=selector, reroll_limit=REROLL_LIMIT if name == "rr" else 1)
    if name == "mi":
        return replace(die, low=n)
    if name == "ma":
        return replace(die, high=n)
    if name in ("kh", "kl"):
        if not 1 <= n <= die.count:
            raise BadInput(f"cannot keep {n} of {die.count} dice: keep between 1 and {die.count}")
        return replace(die, keep=name, n=n)
    if name in ("dh", "dl"):
        if not 1 <= n < die.count:
            raise BadInput(f"cannot drop {n} of {die.count} dice: drop between 1 and {die.count - 1}")
        return replace(die, keep="kl" if name == "dh" else "kh", n=die.count - n)
    if name == "s":
        return replace(die, successes=n)
    # an explosion
    if name == "e" and selector is None:
        raise BadInput(f"exploding dice take a face: {die.count}d{die.sides}e{die.sides} (or ! for the highest)")
    return replace(die, explode=selector or Selector("=", max(die.values)),
                   explode_limit=1 if name == "xo" else EXPLODE_LIMIT)


def _example(name: str) -> str:
    return {"mi": "4d6mi2", "ma": "4d6ma5", "kh": "3d6kh2", "kl": "2d6kl1", "dh": "4d6dh1", "dl": "4d6dl1",
            "s": "6d6s4"}[name]


def _check_die(die: Dice, term: str) -> None:
    low, high = die.face_range
    for name, bound in (("mi", die.low), ("ma", die.high)):
        if bound is not None and not low <= bound <= high:
            raise BadInput(f"{name}{bound} in {term} is not a face of the die ({low} to {high})")
    if die.low is not None and die.high is not None and die.low > die.high:
        raise BadInput(f"in {term}, mi{die.low} is above ma{die.high}")
    if die.reroll is not None:
        matching = [f for f in set(die.faces) if die.reroll.matches(f)]
        if not matching:
            raise BadInput(f"{term} rerolls {die.reroll}, which the die never shows ({low} to {high})")
        if len(matching) == len(set(die.faces)):
            raise BadInput(f"{term} rerolls every face the die shows: nothing could stand")
    if die.explode is not None:
        matching = [v for v in die.values if die.explode.matches(v)]
        if not matching:
            raise BadInput(f"{term} explodes on {die.explode}, which the die never counts "
                           f"({die.values[0]} to {die.values[-1]})")
        if len(matching) == len(die.values) and die.explode_limit > 1:
            raise BadInput(f"{term} explodes on every value the die counts: each die would always read "
                           f"{die.explode_limit} more")
    if die.successes is not None:
        values = die.values
        if not values[0] <= die.successes <= values[-1]:
            raise BadInput(f"success threshold {die.successes} is not a face of the die "
                           f"({values[0]} to {values[-1]})")


def _dice_in(node: Node) -> Iterator[Dice]:
    if isinstance(node, Dice):
        yield node
    elif isinstance(node, BinOp):
        yield from _dice_in(node.left)
        yield from _dice_in(node.right)
    elif isinstance(node, Neg):
        yield from _dice_in(node.inner)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def kept_die_range(die: Dice) -> tuple[int, int]:
    """The least and most one kept die adds to its term, explosions included:
    built up from a die with no explosion left to one with all of them."""
    scores = {v: die.scored(v) for v in die.values}
    low, high = min(scores.values()), max(scores.values())
    chains = [v for v in scores if die.explode is not None and die.explode.matches(v)]
    for _ in range(die.explode_limit if chains else 0):
        low, high = (min(s + (low if v in chains else 0) for v, s in scores.items()),
                     max(s + (high if v in chains else 0) for v, s in scores.items()))
    return low, high


def _bounds(node: Node) -> tuple[int, int]:
    if isinstance(node, Const):
        return node.value, node.value
    if isinstance(node, Dice):
        low, high = kept_die_range(node)
        return node.kept * low, node.kept * high
    if isinstance(node, Neg):
        low, high = _bounds(node.inner)
        return -high, -low
    a, b = _bounds(node.left), _bounds(node.right)
    if node.op == "+":
        return a[0] + b[0], a[1] + b[1]
    if node.op == "-":
        return a[0] - b[1], a[1] - b[0]
    if node.op == "/" and b[0] <= 0 <= b[1]:
        raise BadInput("the divisor in this dice expression can be zero")
    combine = (lambda x, y: x * y) if node.op == "*" else ceil_div
    corners = [combine(x, y) for x in a for y in b]
    return min(corners), max(corners)


def _roll_term(die: Dice, read_face: Callable[[Dice], int], faces: list[int], marks: list[str]) -> int:
    """One dice term, read as docs/dice.md specifies: each named die in turn
    (with its rerolls), then keep or drop, then each kept die's explosions in
    the order the dice were read, then the sum or the count of successes."""

    def read_die(mark: str) -> tuple[int, int]:
        face, rerolls = read_face(die), 0
        while die.reroll is not None and rerolls < die.reroll_limit and die.reroll.matches(face):
            faces.append(face)
            marks.append(REROLLED)
            face, rerolls = read_face(die), rerolls + 1
        faces.append(face)
        marks.append(mark)
        return len(faces) - 1, die.value(face)

    named = [read_die(KEPT) for _ in range(die.count)]
    if die.keep:
        # ties go to the die read first; the rest are dropped
        order = sorted(range(len(named)), key=lambda i: -named[i][1] if die.keep == "kh" else named[i][1])
        kept = sorted(order[:die.n])
        for i in order[die.n:]:
            marks[named[i][0]] = DROPPED
        named = [named[i] for i in kept]
    values = []
    for _, value in named:
        values.append(value)
        chain = 0
        while die.explode is not None and chain < die.explode_limit and die.explode.matches(value):
            _, value = read_die(EXTRA)
            values.append(value)
            chain += 1
    return sum(die.scored(v) for v in values)


def _evaluate(node: Node, read_face: Callable[[Dice], int], faces: list[int], marks: list[str]) -> int:
    if isinstance(node, Const):
        return node.value
    if isinstance(node, Dice):
        return _roll_term(node, read_face, faces, marks)
    if isinstance(node, Neg):
        return -_evaluate(node.inner, read_face, faces, marks)
    left = _evaluate(node.left, read_face, faces, marks)
    right = _evaluate(node.right, read_face, faces, marks)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    return ceil_div(left, right)
