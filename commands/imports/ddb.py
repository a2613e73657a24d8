"""D&D Beyond's game log roll events as Avrae reads them (``eventType``
``dice/roll/fulfilled``), one JSON event a line or a JSON list: each of
``data.rolls`` has its notation, ``rollKind`` (advantage keeps the higher
d20, disadvantage the lower) and ``result`` with every value and the total.
An event without an id is kept under one derived from the file, its place
and its content (source_ids.py)."""

from __future__ import annotations

from decimal import Decimal

from commands.imports.rolls import ForeignRoll, Parsed, face, loads, number, utc_from_millis
from commands.imports.rolls import MALFORMED, entries, faces_counted, record, text as text_of
from commands.imports.source_ids import SourceIds

NAME = "ddb"
EXPECTED = "D&D Beyond game log events (one JSON event a line, or a JSON list, with an eventType)"


def parse(text: str) -> Parsed:
    if text.lstrip().startswith("["):
        parsed = Parsed(unit="event")
        try:
            found = loads(text)
            events = list(enumerate(found if isinstance(found, list) else [found], 1))
        except ValueError as exc:
            parsed.problems.append((1, f"not a JSON list of roll events ({exc})"))
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
            parsed.problems.append((i, f"roll event {named}: {exc}" if isinstance(named, str) and len(named) <= 40
                                    else str(exc)))
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
        if kind in ("advantage", "disadvantage") and len(dice) == 2:
            keep = max(dice) if kind == "advantage" else min(dice)
            dropped = [1 if dice[0] == keep else 0]
        total = number(result["total"])
        constant = number(result.get("constant") or 0)
        kept = sum((Decimal(f) for i, f in enumerate(dice) if i not in dropped), Decimal(0))
        if kept + constant != total:
            raise ValueError(f"total {total} does not follow from its dice and {constant} ({kept + constant})")
        why = " ".join(text_of(part, "its action") for part in (data.get("action"), roll.get("rollType"))
                       if part) or None
        parsed.rolls.append(ForeignRoll(line, f"{ident}:{n}", who, text_of(roll.get("diceNotationStr"), "its formula").strip(),
                                        dice, dropped, total, utc_from_millis(event.get("dateTime")), why))
