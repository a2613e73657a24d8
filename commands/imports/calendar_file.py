"""A calendar from another tool, converted: the TOML a campaign can be
created with, what it could not carry, the source's own dated notes, and
the source's "today" (with Fantasy-Calendar's day count, the epoch, for a
check of the arithmetic).

Each source module turns its file into the plain data a TOML calendar file
holds (``ledger.calendar.months_spec`` reads it), with dates still in the
source's terms: (year, the month or festival's name, the day counted within
it, festival days inside a month included, as the source counts)."""

from __future__ import annotations

import json
import re
from typing import Any

from commands.imports import calendar_bounds, calendaria, fantasy_calendar, json_input, simple_calendar
from commands.imports.converted import Converted
from commands.imports.source_file import read_text
from ledger.errors import BadInput


def read(path: str) -> Converted:
    """Read a calendar file of any of the three tools (told apart by their shape),
    within the bounds of json_input.py and calendar_bounds.py."""
    text = read_text(path, "calendar file")
    try:
        with json_input.budget(f"calendar file {path}"):
            data = json_input.loads(text)  # a moon's 29.530588853 stays exactly that (a Decimal)
    except json.JSONDecodeError as exc:
        raise BadInput(f"calendar file {path} is not JSON (line {exc.lineno}): export it from its tool as JSON") from None
    except ValueError as exc:
        raise BadInput(f"calendar file {path} cannot be read: {exc}") from None
    calendar_bounds.check_sizes(data, path)
    for module in (fantasy_calendar, simple_calendar, calendaria):
        try:
            if not (isinstance(data, dict) and module.recognises(data)):
                continue
            converted = module.convert(data)
            calendar_bounds.check_converted(converted.data)
            converted.spec  # checked here: a calendar that is none is refused before anything is written
            if converted.today is not None:
                converted.today_day()  # and a current date that is none of its days
            return converted
        except BadInput as exc:  # said of the calendar (by its tool's name, where months_spec said it): of this file
            said = re.sub(r"^calendar file [^:]*: ", "", str(exc))
            raise BadInput(f"calendar file {path} ({module.NAME}): {said}") from None
        except _MALFORMED as exc:
            raise BadInput(f"calendar file {path} looks like a {module.NAME} calendar but is not one as "
                           f"{module.NAME} writes it ({json_input.problem(exc)}): export it again from "
                           f"{module.NAME}") from None
    raise BadInput(f"calendar file {path} is not a Fantasy-Calendar, Simple Calendar or Calendaria calendar: "
                   "export one of those as JSON")


# What a file that is not quite what its tool writes makes the conversion raise.
_MALFORMED = (KeyError, TypeError, IndexError, AttributeError, ValueError, ArithmeticError)


def to_toml(data: dict[str, Any]) -> str:
    """The TOML text of a calendar's data: plain keys first, then arrays of tables."""
    lines, tables = [], []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            tables.append((key, value))
        elif value is not None and value != []:
            lines.append(f"{key} = {_value(value)}")
    for key, entries in tables:
        for entry in entries:
            lines += ["", f"[[{key}]]"] + [f"{k} = {_value(v)}" for k, v in entry.items() if v is not None]
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string
