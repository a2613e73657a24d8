"""D&D Beyond's game log roll events as Avrae reads them (``eventType``
``dice/roll/fulfilled``), one JSON event a line or a JSON list: each of
``data.rolls`` has its notation, ``rollKind`` (advantage keeps the higher
d20, disadvantage the lower) and ``result`` with every value and the total.
A roll without ``diceNotationStr`` (D&D Beyond's own tray often leaves it
out) has its notation written again from ``diceNotation``: each set's
count, die and operation (0 sums the set, 1 keeps its lowest die, 2 its
highest), then the constant.
An event without an id is kept under one derived from the file, its place
and its content (source_ids.py)."""

from __future__ import annotations

import re
from decimal import Decimal

from commands.imports.rolls import ForeignRoll, Parsed, face, loads, number, utc_from_millis
from commands.imports.rolls import MALFORMED, entries, faces_counted, record, text as text_of
from commands.imports.json_input import problem
from commands.imports.source_ids import SourceIds

NAME = "ddb"
EXPECTED = "D&D Beyond game log events (one JSON event a line, or a JSON list, with an eventType)"
_KEEP = {0: "", 1: "kl1", 2: "kh1"}  # a dice set's operation
_DIE = re.compile(r"d(\d{1,7})")
_ONE_DIE = re.compile(r"^\s*1?d(\d{1,7})(?![\dkKdD!rR])")  # a notation's first term, one die kept whole


def parse(text: str) -> Parsed:
    if text.lstrip().startswith("["):
        parsed = Parsed(unit="event")
        try:
            found = loads(text)
            events = list(enumerate(found if isinstance(found, list) else [found], 1))
        except ValueError as exc:
            parsed.problems.append((1, f"not a JSON list of roll events: {problem(exc)}"))
            return parsed
    else:
        parsed, events = Parsed(), []
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    events.append((i, loads(line)))
                except ValueError:
                    parsed.problems.append((i, "not a JSON roll event"))
    ids = SourceIds(text, parsed)
    for i, event in events:
        if not isinstance(event, dict) or "eventType" not in event:
            parsed.problems.append((i, "not a D&D Beyond game log event (no eventType)"))
            continue
        parsed.recognised += 1
        if event.get("eventType") != "dice/roll/fulfilled":
            continue  # other game log traffic
        try:
            data = record(event.get("data"), "its data")
            ident = ids.of(i, data.get("rollId") if data.get("rollId") not in (None, "") else event.get("id"), event)
            if ident is not None:
                _event(parsed, i, ident, event, data)
        except MALFORMED as exc:
            named = event.get("id")
            parsed.problems.append((i, f"roll event {named}: {problem(exc)}" if isinstance(named, str)
                                    and len(named) <= 40 else problem(exc)))
    return parsed


def _event(parsed: Parsed, line: int, ident: str, event: dict, data: dict) -> None:
    who = text_of(record(data.get("context"), "its context").get("name"), "its speaker").strip() or \
        f"entity {text_of(event.get('entityId'), 'its entity')}"
    for n, roll in enumerate(entries(data["rolls"], "its rolls")):
        result = roll["result"]
        dice = [face(v) for v in entries(result["values"], "its values")]
        faces_counted(dice)
        dropped = []
        kind = (roll.get("rollKind") or "").lower()
        sets = _sets(roll)
        if kind in ("advantage", "disadvantage") and len(dice) == 2:
            keep = max(dice) if kind == "advantage" else min(dice)
            dropped = [1 if dice[0] == keep else 0]
        elif len(sets) == 1 and sets[0][2] and len(dice) == sets[0][0] > 1:  # one set keeping one die, all given
            keep_at = dice.index(max(dice) if sets[0][2] == 2 else min(dice))
            dropped = [i for i in range(len(dice)) if i != keep_at]
        total = number(result["total"])
        constant = number(result.get("constant") or 0)
        kept = sum((Decimal(f) for i, f in enumerate(dice) if i not in dropped), Decimal(0))
        if kept + constant != total:
            raise ValueError(f"total {total} does not follow from its dice and {constant} ({kept + constant})")
        why = " ".join(text_of(part, "its action") for part in (data.get("action"), roll.get("rollType"))
                       if part) or None
        notation = _notation(roll, sets)
        if kind in ("advantage", "disadvantage") and len(dice) == 2:
            # D&D Beyond writes the roll it is made for ("1d20+5"), not the two dice rolled for it:
            # the odds of one d20 would be read of it.
            kept = "kh1" if kind == "advantage" else "kl1"
            notation = _ONE_DIE.sub(lambda m: f"2d{m.group(1)}{kept}", notation, count=1)
        parsed.rolls.append(ForeignRoll(line, f"{ident}:{n}", who, notation, dice, dropped, total,
                                        utc_from_millis(event.get("dateTime")), why))


def _sets(roll: dict) -> list[tuple[int, int, int]]:
    """(count, sides, operation) of each dice set of the roll's notation; a
    negative count subtracts the set."""
    notation = record(roll.get("diceNotation"), "its dice notation")
    found = []
    for entry in entries(notation.get("set"), "its dice sets"):
        entry = record(entry, "a dice set")
        die = _DIE.fullmatch(text_of(entry.get("dieType"), "a dice set's die").strip().lower())
        operation = entry.get("operation") or 0
        if die is None or operation not in _KEEP:
            raise ValueError(f"a dice set of {_shown(entry.get('dieType'))} with operation {_shown(operation)}: "
                             "D&D Beyond writes a die as d4 … d100 and an operation as 0, 1 or 2")
        found.append((face(entry.get("count") if entry.get("count") is not None else 1), int(die.group(1)),
                      operation))
    return found


def _notation(roll: dict, sets: list[tuple[int, int, int]]) -> str:
    """The roll's notation as D&D Beyond wrote it, or written again from its dice sets and constant."""
    written = text_of(roll.get("diceNotationStr"), "its formula").strip()
    if written:
        return written
    terms = [("-" if count < 0 else "+", f"{abs(count)}d{sides}{_KEEP[operation]}")
             for count, sides, operation in sets if count]
    constant = number(record(roll.get("diceNotation"), "its dice notation").get("constant") or 0)
    if constant:
        terms.append(("-" if constant < 0 else "+", str(constant.copy_abs())))
    return "".join(f"{sign}{term}" for sign, term in terms).removeprefix("+")


def _shown(value) -> str:
    shown = repr(value)
    return shown if len(shown) <= 24 else f"{shown[:20]}…"
