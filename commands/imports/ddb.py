"""D&D Beyond's game log roll events as Avrae reads them (``eventType``
``dice/roll/fulfilled``), one JSON event a line or a JSON list: each of
``data.rolls`` has its notation, ``rollKind`` (advantage keeps the higher
d20, disadvantage the lower) and ``result`` with every value and the total."""

from __future__ import annotations

from decimal import Decimal

from commands.imports.rolls import ForeignRoll, Parsed, face, loads, number, utc_from_millis

NAME = "ddb"


def parse(text: str) -> Parsed:
    if text.lstrip().startswith("["):
        parsed = Parsed(unit="event")
        try:
            events = list(enumerate(loads(text), 1))
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
    for i, event in events:
        if not isinstance(event, dict) or event.get("eventType") != "dice/roll/fulfilled":
            continue  # other game log traffic
        try:
            _event(parsed, i, event)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            parsed.problems.append((i, f"roll event {event.get('id')}: {exc}"))
    return parsed


def _event(parsed: Parsed, line: int, event: dict) -> None:
    data = event["data"]
    who = ((data.get("context") or {}).get("name") or "").strip() or f"entity {event.get('entityId')}"
    ident = data.get("rollId") or event["id"]
    for n, roll in enumerate(data["rolls"]):
        result = roll["result"]
        dice = [face(v) for v in result["values"]]
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
        why = " ".join(part for part in (data.get("action"), roll.get("rollType")) if part) or None
        parsed.rolls.append(ForeignRoll(line, f"{ident}:{n}", who, str(roll.get("diceNotationStr") or "").strip(),
                                        dice, dropped, total, utc_from_millis(event.get("dateTime")), why))
