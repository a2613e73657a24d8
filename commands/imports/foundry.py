"""Foundry VTT's stored chat messages: a world's ``data/messages.db`` (NeDB:
one JSON message a line, a later line for the same ``_id`` replacing the
earlier, ``$$deleted`` removing it) or a JSON list of messages. A message's
``rolls`` (v10 on; ``roll`` before) hold each roll's formula, total and
terms; a die term keeps every result, ``active: false`` for one that did not
count (dropped, rerolled away). A message without an ``_id`` is kept under
one derived from the file, its place and its content (source_ids.py)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Optional

from commands.imports.converted import plain
from commands.imports.rolls import ForeignRoll, Parsed, face, loads, number, summed, utc_from_millis
from commands.imports.rolls import MALFORMED, entries, faces_counted, record, text as text_of
from commands.imports.source_ids import SourceIds, given_id

NAME = "foundry"
EXPECTED = "Foundry VTT chat messages (a world's data/messages.db, or a JSON list of chat messages)"
# What only a chat message has: an object with none of these is not one.
_MESSAGE_KEYS = {"_id", "rolls", "roll", "speaker", "content", "timestamp", "user", "author", "$$deleted"}
_DIE_CLASSES = {"Die", "Coin", "FateDie"}
# Modifiers after which a die term's total is still the sum of its active results
# (keep, drop, explode, reroll); counting successes is another sum.
_SUMMING = re.compile(r"(k[hl]?|d[hl]?|xo?|rr?)\d*([<>=]{1,2}\d+)?")


def parse(text: str) -> Parsed:
    stripped = text.lstrip()
    parsed = Parsed(unit="message" if stripped.startswith("[") else "line")
    ids = SourceIds(text, parsed)
    if stripped.startswith("["):
        try:
            messages = loads(text)
        except ValueError as exc:
            parsed.problems.append((1, f"not a JSON list of messages ({exc})"))
            return parsed
        for i, message in enumerate(messages if isinstance(messages, list) else [], 1):
            if _recognised(parsed, i, message):
                try:
                    ident = ids.of(i, message.get("_id"), message)
                except MALFORMED as exc:
                    parsed.problems.append((i, str(exc)))
                    continue
                if ident is not None:
                    _message(parsed, i, ident, message)
        return parsed
    latest: dict[str, tuple[int, str, Any]] = {}
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            message = loads(line)
        except ValueError as exc:
            parsed.problems.append((i, f"not a JSON chat message ({str(exc).split(':')[0]})"))
            continue
        if isinstance(message, dict) and "$$indexCreated" in message:
            continue  # NeDB's note of an index: no message
        if not _recognised(parsed, i, message):
            continue
        try:
            # NeDB: the last line for an id is the message; a line without one is a message of its own.
            ident = ids.derived(i, message) if message.get("_id") in (None, "") else given_id(message["_id"])
        except MALFORMED as exc:
            parsed.problems.append((i, str(exc)))
            continue
        latest.pop(ident, None)
        if not message.get("$$deleted"):
            latest[ident] = (i, ident, message)
    for i, ident, message in sorted(latest.values(), key=lambda found: found[0]):
        _message(parsed, i, ident, message)
    return parsed


def _recognised(parsed: Parsed, place: int, message: Any) -> bool:
    if isinstance(message, dict) and _MESSAGE_KEYS & message.keys():
        parsed.recognised += 1
        return True
    parsed.problems.append((place, "not a Foundry chat message"))
    return False


def _message(parsed: Parsed, line: int, ident: str, message: dict) -> None:
    try:
        rolls = entries(message.get("rolls"), "its rolls") or ([message["roll"]] if message.get("roll") else [])
        speaker = record(message.get("speaker"), "its speaker")
        who = text_of(speaker.get("alias"), "its speaker's alias").strip() or \
            f"user {text_of(message.get('user'), 'its user') or 'unknown'}"
    except MALFORMED as exc:
        parsed.problems.append((line, f"message {ident}: {exc}"))
        return
    for n, roll in enumerate(rolls):
        try:
            data = loads(roll) if isinstance(roll, str) else roll
            parsed.rolls.append(_roll(line, f"{ident}:{n}", who, data, message))
        except MALFORMED as exc:
            parsed.problems.append((line, f"roll {n + 1} of message {ident}: {exc}"))


def _roll(line: int, ident: str, who: str, data: dict, message: dict) -> ForeignRoll:
    if not isinstance(data, dict) or "formula" not in data or data.get("total") is None:
        raise ValueError("a roll without its formula or total")
    dice, dropped = [], []
    for term in entries(data.get("dice"), "its dice") + _die_terms(entries(data.get("terms"), "its terms")):
        for result in entries(term.get("results"), "a die's results"):
            if result.get("active") is False or result.get("discarded") or result.get("rerolled"):
                dropped.append(len(dice))
            dice.append(face(result["result"]))
            faces_counted(dice)
    total = number(data["total"])
    expected = _flat_total(data)
    if expected is not None and expected != total:
        raise ValueError(f"total {total} does not follow from its dice and numbers ({expected})")
    flavor = plain(message.get("flavor"))
    return ForeignRoll(line, ident, who, text_of(data["formula"], "its formula").strip(), dice, dropped, total,
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
