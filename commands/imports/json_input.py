"""JSON from another tool's file, read within bounds, by every importer.

A file is at most MAX_BYTES (commands/imports/source_file.py reads it). Every
JSON document in it — the whole file, each line of a log, a roll kept as a
JSON string inside a message — is read here, and together they may hold at
most MAX_VALUES values (each object, list, string, number, true, false and
null counts one), none nested more than MAX_DEPTH deep. A number has at most
MAX_DIGITS digits and lies within ±10^MAX_EXPONENT, never NaN or Infinity;
an object names each key once. Which numbers a ledger can hold (a die's
face, a day count, a time) each importer then checks for itself
(commands/imports/rolls.py, commands/imports/calendar_bounds.py).

A document that breaks a bound of its own (too deep, a number too large, a
key twice) is a ValueError, as a malformed one is: a roll log names it by
line and may skip it. Past MAX_VALUES the whole file is refused (BadInput).
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Any, Iterator, Optional

from ledger.errors import BadInput

MAX_BYTES = 64 * 2**20
MAX_DEPTH = 64
MAX_VALUES = 2_000_000
MAX_DIGITS = 40
MAX_EXPONENT = 30


class Budget:
    """What one file may still hold."""

    def __init__(self, what: str = "the file") -> None:
        self.what, self.left = what, MAX_VALUES

    def spend(self, count: int) -> None:
        self.left -= count
        if self.left < 0:
            raise BadInput(f"{self.what} holds more than {MAX_VALUES:,} JSON values: tally reads at most that "
                           "many from one file; split it and import the parts")


_BUDGET: ContextVar[Optional[Budget]] = ContextVar("json_budget", default=None)


@contextmanager
def budget(what: str) -> Iterator[Budget]:
    """Every document read inside the block counts against one file's bound."""
    shared = Budget(what)
    token = _BUDGET.set(shared)
    try:
        yield shared
    finally:
        _BUDGET.reset(token)


def loads(text: str) -> Any:
    """A JSON document within the bounds above, every decimal kept exactly as
    written (Decimal); a ValueError says what is wrong with it."""
    try:
        data = json.loads(text, parse_float=_decimal, parse_int=_integer, parse_constant=_constant,
                          object_pairs_hook=_object)
    except RecursionError:  # the C scanner's own guard, far past MAX_DEPTH
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    (_BUDGET.get() or Budget()).spend(measure(data))
    return data


def problem(exc: BaseException) -> str:
    """What is wrong with a document or a part of one, in tally's words: a
    parser's or Python's own message ("Extra data: line 1 column 2",
    "'phases'") says nothing to a referee."""
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON (it stops being JSON at line {exc.lineno}, column {exc.colno})"
    if isinstance(exc, KeyError) and exc.args:
        return f"no {_cut(str(exc.args[0]))!r} in it"
    if isinstance(exc, (TypeError, AttributeError, IndexError)):
        return "a part of it is of another kind than its tool writes (a list, an object, text or a number)"
    if isinstance(exc, ArithmeticError):
        return "a number in it cannot be worked with"
    return str(exc)  # raised by tally's own readers, worded for the referee


def measure(data: Any) -> int:
    """How many values the document holds; a ValueError if it is nested too deep."""
    count, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise ValueError(f"nested more than {MAX_DEPTH} deep")
            stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return count


def _decimal(text: str) -> Decimal:
    number = Decimal(text) if len(text) <= 2 * MAX_DIGITS else None
    if number is None or len(number.as_tuple().digits) > MAX_DIGITS or number.adjusted() > MAX_EXPONENT \
            or number.as_tuple().exponent < -MAX_DIGITS:
        raise ValueError(f"the number {_cut(text)} is beyond what tally reads (at most {MAX_DIGITS} digits, "
                         f"below 10^{MAX_EXPONENT})")
    return number


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_EXPONENT:
        raise ValueError(f"the number {_cut(text)} is beyond what tally reads (below 10^{MAX_EXPONENT})")
    return int(text)


def _constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise ValueError(f"the key {_cut(twice)!r} appears twice in one object")
    return found


def _cut(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:20]}…"
