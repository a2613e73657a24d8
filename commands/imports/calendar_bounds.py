"""What a calendar from another tool may hold, so that converting it ends
quickly and what it becomes is a calendar a ledger can keep: every whole
number in it (a month's days, a year, an offset, an index) within the
ledger's day range, ±MAX_DAY (README, ledger/calendar.py); every decimal (a
moon's cycle, shift or phase lengths) within that range too and of at most
json_input.MAX_DIGITS digits; at most MAX_ENTRIES months, festivals, week
days, seasons, moons, phases or eras, in any one list or object of the file
but its dated events and notes (which json_input's bound on the whole file
limits)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from ledger.calendar import MAX_DAY
from ledger.errors import BadInput
from commands.imports.json_input import MAX_DIGITS

MAX_ENTRIES = 1000
_NOTES = {"events", "notes"}  # lists of dated notes, long in a long campaign


def check_sizes(data: Any, source: str) -> None:
    """Refuse a list or object of more than MAX_ENTRIES, outside the notes."""
    stack = [(data, "", False)]
    while stack:
        value, key, notes = stack.pop()
        if not isinstance(value, (dict, list)):
            continue
        notes = notes or key in _NOTES
        if len(value) > MAX_ENTRIES and not notes:
            raise BadInput(f"calendar file {source}: {key or 'its top level'} holds {len(value):,} entries; a "
                           f"calendar tally keeps has at most {MAX_ENTRIES:,} months, week days, moons, seasons "
                           "or eras")
        items = value.items() if isinstance(value, dict) else ((key, item) for item in value)
        stack.extend((item, str(name), notes) for name, item in items)


def whole(value: Any) -> int:
    """A whole number of the calendar (as int() reads one) within the ledger's day range."""
    if isinstance(value, bool):  # int(True) is 1: a month of `true` days is a file gone wrong
        raise TypeError(f"{str(value).lower()} where a whole number belongs")
    if isinstance(value, str) and len(value.strip()) > 12:  # never convert a thousand digits
        raise BadInput(_beyond(value))
    number = int(value)  # a JSON number is below 10^30 (json_input): this is quick
    if abs(number) > MAX_DAY:
        raise BadInput(_beyond(value))
    return number


def decimal(value: Any) -> Decimal:
    """A decimal number of the calendar (days, as a moon's cycle) within the ledger's day range."""
    text = str(value).strip()
    try:
        number = Decimal(text) if len(text) <= 2 * MAX_DIGITS else None
    except InvalidOperation:
        raise ValueError(f"{_shown(value)} is not a number") from None
    if number is None or not number.is_finite() or number.copy_abs() > MAX_DAY \
            or len(number.as_tuple().digits) > MAX_DIGITS or number.as_tuple().exponent < -MAX_DIGITS:
        raise BadInput(_beyond(value))
    return number


def check_converted(data: dict[str, Any]) -> None:
    """The numbers of a converted calendar (ledger/calendar.py months_spec reads
    them next), each within the ledger's range: a moon's figures are decimals
    worked with exactly, where a number like 1e-999999 would never end."""
    for moon in data.get("moons") or []:
        for number in [moon.get("cycle"), moon.get("shift")] + list(moon.get("lengths") or []):
            if number is not None:
                decimal(number)


def _beyond(value: Any) -> str:
    return (f"the calendar counts {_shown(value)} (a day, a year, an offset or a moon's days): a ledger's "
            f"calendar counts within ±{MAX_DAY:,} days, in numbers of at most {MAX_DIGITS} digits")


def _shown(value: Any) -> str:
    shown = str(value)
    return shown if len(shown) <= 24 else f"{shown[:20]}…"
