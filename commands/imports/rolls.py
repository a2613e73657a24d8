"""What every roll log reader gives back: the rolls it could read, each with
every die face (kept and dropped), the formula, who rolled, when, and the
source's own id; and every line it could not read, by number.

The numbers a roll brings must be ones the ledger holds: a die's face within
±MAX_FACE (a Fate die's -1 included), at most MAX_DICE faces a roll, a total
within ±MAX_TOTAL, a time between 1970 and the end of 9999 (milliseconds
since 1970, as each of these tools keeps it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation
from typing import Any, Optional

from ledger.dice.expression import MAX_DICE, MAX_NUMBER
from commands.imports import json_input

MAX_FACE = MAX_NUMBER
MAX_TOTAL = 10**12
LAST_MILLISECOND = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z
# What a message from one of these tools can get wrong: each becomes a line of the report.
MALFORMED = (ValueError, TypeError, KeyError, AttributeError, IndexError, ArithmeticError)


@dataclass
class ForeignRoll:
    line: int  # where it stands in the file (a line, or a message's place in a JSON list)
    source_id: str  # the source's own id: importing a file twice adds nothing
    speaker: str
    formula: str
    dice: list[int]
    dropped: list[int]  # indexes into dice of the faces that did not count
    total: Decimal  # exactly as the source wrote it (Foundry allows 14.08)
    rolled_at: Optional[str]  # real UTC time, ISO 8601, when the source says
    why: Optional[str] = None


@dataclass
class Parsed:
    rolls: list[ForeignRoll] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line, what is wrong)
    unit: str = "line"  # what the numbers count: lines, or messages of a JSON list
    recognised: int = 0  # messages (rolls or not) that are this tool's: none, and the file is not its log


def loads(text: str) -> Any:
    """JSON with every decimal kept exactly as written, within the bounds of
    commands/imports/json_input.py."""
    return json_input.loads(text)


def number(value: Any, limit: int = MAX_TOTAL) -> Decimal:
    """A number (or a number written as text) within ±``limit``."""
    if isinstance(value, bool) or value is None or not isinstance(value, (int, Decimal, str)):
        raise ValueError(f"{_shown(value)} is not a number")
    text = str(value).strip()
    try:  # a number as text escaped the reader's bounds: never convert a thousand digits
        found = Decimal(text) if len(text) <= json_input.MAX_DIGITS + 8 else None
    except InvalidOperation:
        found = None
    if found is None or not found.is_finite():
        raise ValueError(f"{_shown(value)} is not a number")
    if found.copy_abs() > limit:  # abs() would round, and overflow on 1e999999999
        raise ValueError(f"{_shown(value)} is beyond what a ledger holds (±{limit:,})")
    return found


def face(value: Any) -> int:
    found = number(value, MAX_FACE)
    if found != found.to_integral_value():
        raise ValueError(f"die face {_shown(value)} is not a whole number")
    return int(found)


def faces_counted(dice: list) -> None:
    if len(dice) > MAX_DICE:
        raise ValueError(f"a roll of {len(dice):,} dice: a ledger holds at most {MAX_DICE:,} in one roll")


def utc_from_millis(value: Any) -> Optional[str]:
    """A time the source kept as milliseconds since 1970, as ISO 8601 UTC."""
    if value is None or value == "":
        return None
    try:
        millis = number(value, LAST_MILLISECOND)
    except ValueError:
        millis = None
    if millis is None or millis < 0:
        raise ValueError(f"its time {_shown(value)} is no time from 1970 to 9999 (in milliseconds since 1970, "
                         "as these tools keep it)")
    instant = datetime.fromtimestamp(int(millis) / 1000, tz=timezone.utc)
    return instant.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def text(value: Any, what: str) -> str:
    """A name or a formula the source keeps as text (a number is written out); absent, ""."""
    if value is None:
        return ""
    if isinstance(value, (str, int, Decimal)) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"{what} is {_kind(value)}, not text")


def entries(value: Any, what: str) -> list:
    """A list the source keeps (absent: none)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"{what} is {_kind(value)}, not a list")
    return value


def record(value: Any, what: str) -> dict:
    """An object the source keeps (absent: an empty one)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{what} is {_kind(value)}, not an object")
    return value


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", bool: "true or false", str: "text"}.get(type(value), "a number")


def _shown(value: Any) -> str:
    shown = repr(value) if not isinstance(value, Decimal) else str(value)
    return shown if len(shown) <= 24 else f"{shown[:20]}…"


def summed(parts: list[tuple[str, Decimal]]) -> Decimal:
    """The total of signed parts: ("+", 3), ("-", 1)."""
    total = Decimal(0)
    for sign, value in parts:
        total = total - value if sign == "-" else total + value
    return total
