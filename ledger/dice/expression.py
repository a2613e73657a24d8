"""Dice expressions: a grammar, a tree, bounds and evaluation.

    expression := sum
    sum        := product (("+" | "-") product)*
    product    := unary (("*" | "/") unary)*
    unary      := "-" unary | atom
    atom       := NUMBER | dice | "(" sum ")"
    dice       := [NUMBER] "d" (NUMBER | "%" | "A") [("kh" | "kl" | "s") NUMBER]

``NdX`` sums N dice of X faces; ``kh``/``kl`` keep the highest/lowest n
(``3d6kh2``, ``2d6kl1``); ``s`` counts successes, the dice showing at least
the threshold (``6d6s4``); ``d%`` is a d100; ``dA`` the average die (a d6
whose faces read 2,3,3,4,4,5). Division rounds up (004 l.46 "always round
up"; 000 l.51 languages ``1d6/2`` = 1-3).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator, Union

from ledger.errors import BadInput

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_NUMBER = 1_000_000
MAX_LENGTH = 200
AVERAGE_FACES = (2, 3, 3, 4, 4, 5)

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
dice: [NUMBER] DEE sides [modifier]
sides: NUMBER           -> numbered
    | "%"               -> percent
    | AVG               -> average
modifier: KEEP NUMBER
DEE: "d"i
AVG: "A"i
KEEP: "kh"i | "kl"i | "s"i
NUMBER: /[0-9]+/
%ignore /[ \t]+/
"""


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int  # faces of the physical die (6 for dA, 100 for d%)
    average: bool = False
    keep: str = ""  # "", "kh", "kl" or "s"
    n: int = 0  # how many kept, or the success threshold

    @property
    def face_range(self) -> tuple[int, int]:
        return (2, 5) if self.average else (1, self.sides)


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


@dataclass(frozen=True)
class Expression:
    text: str
    tree: Node

    @property
    def dice(self) -> list[Dice]:
        return list(_dice_in(self.tree))

    @property
    def dice_count(self) -> int:
        return sum(d.count for d in self.dice)

    @property
    def bounds(self) -> tuple[int, int]:
        return _bounds(self.tree)

    def evaluate(self, read_face: Callable[[Dice], int]) -> tuple[list[int], int]:
        """Roll left to right, taking each face from ``read_face``; return the
        faces in derivation order and the total."""
        faces: list[int] = []
        total = _evaluate(self.tree, read_face, faces)
        return faces, total

    def total_from_faces(self, faces: list[int]) -> int:
        """The total these faces give, after checking they fit the expression."""
        if len(faces) != self.dice_count:
            raise BadInput(
                f"{self.text} needs exactly {self.dice_count} dice, {len(faces)} given in --dice"
            )
        supply = iter(faces)

        def take(die: Dice) -> int:
            face = next(supply)
            low, high = die.face_range
            allowed = set(AVERAGE_FACES) if die.average else range(low, high + 1)
            if face not in allowed:
                name = "an average die" if die.average else f"a d{die.sides}"
                raise BadInput(f"{face} is not a face of {name} (it shows {low} to {high})")
            return face

        return self.evaluate(take)[1]


def parse(text: str) -> Expression:
    """Parse and check an expression, or refuse it in one line."""
    text = text.strip()
    if not text:
        raise BadInput("empty dice expression: write something like 2d6 or 6d6s4")
    if len(text) > MAX_LENGTH:
        raise BadInput(f"dice expression longer than {MAX_LENGTH} characters")
    from lark.exceptions import LarkError, UnexpectedInput

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise BadInput(
            f"cannot read dice expression {text!r} at column {exc.column}: "
            "write dice like 2d6, 3d6kh2, 6d6s4, d%, dA, 3d6*10, 1d6/2"
        ) from None
    except LarkError:
        raise BadInput(f"cannot read dice expression {text!r}") from None
    expression = Expression(text=text, tree=_build(tree))
    if expression.dice_count > MAX_DICE:
        raise BadInput(f"{text} rolls {expression.dice_count} dice; at most {MAX_DICE} per expression")
    expression.bounds  # refuses a divisor that can be zero
    return expression


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


def _build(tree) -> Node:
    from lark import Tree

    if not isinstance(tree, Tree):
        raise BadInput("cannot read dice expression")
    kind = tree.data
    if kind == "const":
        return Const(_number(tree.children[0]))
    if kind == "neg":
        return Neg(_build(tree.children[0]))
    if kind in ("add", "sub", "mul", "div"):
        ops = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
        return BinOp(ops[kind], _build(tree.children[0]), _build(tree.children[1]))
    if kind == "dice":
        return _build_dice(tree.children)
    raise BadInput(f"cannot read dice expression ({kind})")


def _build_dice(children) -> Dice:
    count_token, _dee, sides_tree, modifier = children
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
    keep, n = "", 0
    if modifier is not None:
        keep, n = str(modifier.children[0]).lower(), _number(modifier.children[1])
        low, high = (2, 5) if average else (1, sides)
        if keep in ("kh", "kl") and not 1 <= n <= count:
            raise BadInput(f"cannot keep {n} of {count} dice: keep between 1 and {count}")
        if keep == "s" and not low <= n <= high:
            raise BadInput(f"success threshold {n} is not a face of the die ({low} to {high})")
    return Dice(count=count, sides=sides, average=average, keep=keep, n=n)


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


def _bounds(node: Node) -> tuple[int, int]:
    if isinstance(node, Const):
        return node.value, node.value
    if isinstance(node, Dice):
        low, high = node.face_range
        if node.keep == "s":
            return 0, node.count
        kept = node.n if node.keep in ("kh", "kl") else node.count
        return kept * low, kept * high
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


def apply_keep(die: Dice, faces: list[int]) -> int:
    if die.keep == "s":
        return sum(1 for face in faces if face >= die.n)
    if die.keep == "kh":
        return sum(sorted(faces, reverse=True)[: die.n])
    if die.keep == "kl":
        return sum(sorted(faces)[: die.n])
    return sum(faces)


def _evaluate(node: Node, read_face: Callable[[Dice], int], faces: list[int]) -> int:
    if isinstance(node, Const):
        return node.value
    if isinstance(node, Dice):
        rolled = [read_face(node) for _ in range(node.count)]
        faces.extend(rolled)
        return apply_keep(node, rolled)
    if isinstance(node, Neg):
        return -_evaluate(node.inner, read_face, faces)
    left = _evaluate(node.left, read_face, faces)
    right = _evaluate(node.right, read_face, faces)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    return ceil_div(left, right)
