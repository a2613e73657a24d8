"""Foundry VTT's stored chat messages: a world's ``data/messages.db`` (NeDB:
one JSON message a line, a later line for the same ``_id`` replacing the
earlier, ``$$deleted`` removing it) or a JSON list of messages. A message's
``rolls`` (v10 on; ``roll`` before) hold each roll's formula, total and
terms; a die term keeps every result, ``active: false`` for one that did not
count (dropped, rerolled away)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Optional

from commands.imports.converted import plain
from commands.imports.rolls import ForeignRoll, Parsed, face, loads, number, summed, utc_from_millis

NAME = "foundry"
_DIE_CLASSES = {"Die", "Coin", "FateDie"}
# Modifiers after which a die term's total is still the sum of its active results
# (keep, drop, explode, reroll); counting successes is another sum.
_SUMMING = re.compile(r"(k[hl]?|d[hl]?|xo?|rr?)\d*([<>=]{1,2}\d+)?")


def parse(text: str) -> Parsed:
    stripped = text.lstrip()
    if stripped.startswith("["):
        parsed = Parsed(unit="message")
        try:
            messages = loads(text)
        except ValueError as exc:
            parsed.problems.append((1, f"not a JSON list of messages ({exc})"))
            return parsed
        for i, message in enumerate(messages, 1):
            _message(parsed, i, message)
        return parsed
    parsed, latest = Parsed(), {}
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            message = loads(line)
        except ValueError as exc:
            parsed.problems.append((i, f"not a JSON chat message ({str(exc).split(':')[0]})"))
            continue
        if not isinstance(message, dict) or "_id" not in message:
            parsed.problems.append((i, "not a Foundry chat message (no _id)"))
            continue
        latest.pop(message["_id"], None)  # NeDB: the last line for an id is the message
        if not message.get("$$deleted"):
            latest[message["_id"]] = (i, message)
    for i, message in sorted(latest.values(), key=lambda found: found[0]):
        _message(parsed, i, message)
    return parsed


def _message(parsed: Parsed, line: int, message: Any) -> None:
    if not isinstance(message, dict):
        parsed.problems.append((line, "not a Foundry chat message"))
        return
    rolls = message.get("rolls") or ([message["roll"]] if message.get("roll") else [])
    speaker = message.get("speaker") or {}
    who = (speaker.get("alias") or "").strip() or f"user {message.get('user') or 'unknown'}"
    for n, roll in enumerate(rolls):
        try:
            data = loads(roll) if isinstance(roll, str) else roll
            parsed.rolls.append(_roll(line, f"{message.get('_id')}:{n}", who, data, message))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            parsed.problems.append((line, f"roll {n + 1} of message {message.get('_id')}: {exc}"))


def _roll(line: int, ident: str, who: str, data: dict, message: dict) -> ForeignRoll:
    if not isinstance(data, dict) or "formula" not in data or data.get("total") is None:
        raise ValueError("a roll without its formula or total")
    dice, dropped = [], []
    for term in list(data.get("dice") or []) + list(_die_terms(data.get("terms") or [])):
        for result in term.get("results") or []:
            if result.get("active") is False or result.get("discarded") or result.get("rerolled"):
                dropped.append(len(dice))
            dice.append(face(result["result"]))
    total = number(data["total"])
    expected = _flat_total(data)
    if expected is not None and expected != total:
        raise ValueError(f"total {total} does not follow from its dice and numbers ({expected})")
    flavor = plain(message.get("flavor"))
    return ForeignRoll(line, ident, who, str(data["formula"]).strip(), dice, dropped, total,
                       utc_from_millis(message.get("timestamp")), flavor or None)


def _die_terms(terms: list) -> list[dict]:
    """Every die term, inside parentheses and pools too."""
    found = []
    for term in terms:
        if not isinstance(term, dict):
            continue
        if term.get("class") in _DIE_CLASSES or ("faces" in term and "results" in term):
            found.append(term)
        for key in ("roll", "rolls", "terms"):
            inner = term.get(key)
            for part in inner if isinstance(inner, list) else [inner] if inner else []:
                part = loads(part) if isinstance(part, str) else part
                if isinstance(part, dict):
                    found += list(part.get("dice") or []) + _die_terms(part.get("terms") or [])
    return found


def _flat_total(data: dict) -> Optional[Decimal]:
    """The total a roll of dice, numbers, + and - must have; None for anything
    more (functions, division, parentheses), whose total stands as recorded."""
    if data.get("dice"):
        return None
    parts, sign = [], "+"
    for term in data.get("terms") or []:
        kind = term.get("class")
        if kind == "OperatorTerm":
            if term.get("operator") not in ("+", "-"):
                return None
            sign = "-" if (sign == "-") != (term["operator"] == "-") else "+"
            continue
        if kind in _DIE_CLASSES and all(_SUMMING.fullmatch(str(m)) for m in term.get("modifiers") or []):
            value = sum((number(r["result"]) for r in term.get("results") or [] if r.get("active", True)),
                        Decimal(0))
        elif kind == "NumericTerm":
            value = number(term["number"])
        else:
            return None
        parts.append((sign, value))
        sign = "+"
    return summed(parts) if parts else None
