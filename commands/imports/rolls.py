"""What every roll log reader gives back: the rolls it could read, each with
every die face (kept and dropped), the formula, who rolled, when, and the
source's own id; and every line it could not read, by number."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation
from typing import Any, Optional



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


def loads(text: str) -> Any:
    """JSON with every decimal kept exactly as written."""
    return json.loads(text, parse_float=Decimal)


def number(value: Any) -> Decimal:
    if isinstance(value, bool) or value is None:
        raise ValueError("not a number")
    try:
        found = Decimal(str(value).strip())
    except InvalidOperation:
        raise ValueError(f"{value!r} is not a number") from None
    if not found.is_finite():
        raise ValueError(f"{value!r} is not a number")
    return found


def face(value: Any) -> int:
    found = number(value)
    if found != found.to_integral_value():
        raise ValueError(f"die face {value!r} is not a whole number")
    return int(found)


def utc_from_millis(value: Any) -> Optional[str]:
    if value in (None, ""):
        return None
    millis = int(number(value))
    instant = datetime.fromtimestamp(millis / 1000, tz=timezone.utc)
    return instant.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def summed(parts: list[tuple[str, Decimal]]) -> Decimal:
    """The total of signed parts: ("+", 3), ("-", 1)."""
    total = Decimal(0)
    for sign, value in parts:
        total = total - value if sign == "-" else total + value
    return total
