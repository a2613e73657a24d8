"""Foundry VTT's stored chat messages: a world's ``data/messages.db`` (NeDB:
one JSON message a line, a later line for the same ``_id`` replacing the
earlier, ``$$deleted`` removing it) or a JSON list of messages. A message's
``rolls`` (v10 on; ``roll`` before) hold each roll's formula, total and
terms; a die term keeps every result, ``active: false`` for one that did not
count (dropped, rerolled away). A pool (``PoolTerm``: ``{4d6, 3d8}kh``)
keeps each of its inner rolls whole in ``rolls`` and one result per inner
roll, ``active: false`` for one kept out (kh, kl, dh, dl) and ``count`` for
one counted as a success or failure (cs, cf); its ``terms`` are the inner
formulas as text. A message without an ``_id`` is kept under one derived
from the file, its place and its content (source_ids.py)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Optional

from commands.imports.converted import plain
from commands.imports.json_input import problem
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
            parsed.problems.append((1, f"not a JSON list of messages: {problem(exc)}"))
            return parsed
        for i, message in enumerate(messages if isinstance(messages, list) else [], 1):
            if _recognised(parsed, i, message):
                try:
                    ident = ids.of(i, message.get("_id"), message)
                except MALFORMED as exc:
                    parsed.problems.append((i, problem(exc)))
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
            parsed.problems.append((i, f"not a JSON chat message: {problem(exc)}"))
            continue
        if isinstance(message, dict) and "$$indexCreated" in message:
            continue  # NeDB's note of an index: no message
        if not _recognised(parsed, i, message):
            continue
        try:
            # NeDB: the last line for an id is the message; a line without one is a message of its own.
            ident = ids.derived(i, message) if message.get("_id") in (None, "") else given_id(message["_id"])
        except MALFORMED as exc:
            parsed.problems.append((i, problem(exc)))
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
        parsed.problems.append((line, f"message {ident}: {problem(exc)}"))
        return
    for n, roll in enumerate(rolls):
        try:
            data = _json_roll(roll, "it")
            parsed.rolls.append(_roll(line, f"{ident}:{n}", who, data, message))
        except MALFORMED as exc:
            parsed.problems.append((line, f"roll {n + 1} of message {ident}: {problem(exc)}"))


def _json_roll(roll: Any, what: str) -> Any:
    """A roll as Foundry keeps it: an object, or its JSON as text."""
    if not isinstance(roll, str):
        return roll
    try:
        return loads(roll)
    except ValueError as exc:
        raise ValueError(f"{what} is no roll Foundry wrote ({problem(exc)})") from None


def _roll(line: int, ident: str, who: str, data: dict, message: dict) -> ForeignRoll:
    if not isinstance(data, dict) or "formula" not in data or data.get("total") is None:
        raise ValueError("a roll without its formula or total")
    dice: list[int] = []
    dropped: list[int] = []
    _collect(data, False, dice, dropped)
    total = number(data["total"])
    expected = _flat_total(data)
    if expected is not None and expected != total:
        raise ValueError(f"total {total} does not follow from its dice and numbers ({expected})")
    flavor = plain(message.get("flavor"))
    return ForeignRoll(line, ident, who, text_of(data["formula"], "its formula").strip(), dice, dropped, total,
                       utc_from_millis(message.get("timestamp")), flavor or None)


def _collect(roll: dict, kept_out: bool, dice: list[int], dropped: list[int]) -> None:
    """Every face of a roll, in order, inside parentheses and pools too; each
    face of an inner roll a pool kept out is dropped, whatever its own die says."""
    for term in entries(roll.get("dice"), "its dice"):
        _faces(record(term, "a die"), kept_out, dice, dropped)
    for term in entries(roll.get("terms"), "its terms"):
        if not isinstance(term, dict):
            continue  # "+" and numbers, as Foundry 0.7 wrote them
        if term.get("class") in _DIE_CLASSES or ("faces" in term and "results" in term):
            _faces(term, kept_out, dice, dropped)
        elif isinstance(term.get("rolls"), list):  # a pool, or a function of rolls: its terms are formulas as text
            _pool(term, kept_out, dice, dropped)
        elif term.get("roll"):  # parentheses around a roll of their own
            _collect(record(_json_roll(term["roll"], "a roll in parentheses"), "a roll in parentheses"),
                     kept_out, dice, dropped)


def _pool(term: dict, kept_out: bool, dice: list[int], dropped: list[int]) -> None:
    rolls = term["rolls"]
    results = entries(term.get("results"), "a pool's results")
    if results and len(results) != len(rolls):
        raise ValueError(f"a pool of {len(rolls)} roll(s) with {len(results)} result(s): Foundry keeps one "
                         "result for each of its rolls")
    for n, inner in enumerate(rolls):
        outcome = record(results[n], "a pool's result") if results else {}
        out = kept_out or outcome.get("active") is False or bool(outcome.get("discarded"))
        _collect(record(_json_roll(inner, f"roll {n + 1} of a pool"), f"roll {n + 1} of a pool"), out, dice, dropped)


def _faces(term: dict, kept_out: bool, dice: list[int], dropped: list[int]) -> None:
    for result in entries(term.get("results"), "a die's results"):
        result = record(result, "a die's result")
        if kept_out or result.get("active") is False or result.get("discarded") or result.get("rerolled"):
            dropped.append(len(dice))
        dice.append(face(result["result"]))
        faces_counted(dice)


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
        elif kind == "PoolTerm":  # its kept rolls' totals, or what each counts (cs, cf)
            value = sum((number(r["count"] if r.get("count") is not None else r["result"])
                         for r in entries(term.get("results"), "a pool's results") if r.get("active", True)),
                        Decimal(0))
        else:
            return None
        parts.append((sign, value))
        sign = "+"
    return summed(parts) if parts else None
