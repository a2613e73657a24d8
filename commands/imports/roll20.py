"""A Roll20 chat archive: the saved archive page (its ``msgdata`` holds the
messages, base64-encoded JSON) or that JSON itself, an object of messages by
id. A ``rollresult`` message's ``content`` is the roll (every die's results,
``d: true`` on a dropped one), ``origRoll`` its formula; a message's
``inlinerolls`` are rolls too. Roll20 keeps no time per message in the
archive but ``.priority``, which it sets to the time sent (milliseconds).
A message without an id (a JSON list written by hand or by a script) is kept
under one derived from the file, its place and its content (source_ids.py)."""

from __future__ import annotations

import base64
import binascii
import re
from decimal import Decimal

from commands.imports.rolls import ForeignRoll, Parsed, face, loads, number, summed, utc_from_millis
from commands.imports.rolls import MALFORMED, entries, faces_counted, record, text as text_of
from commands.imports.json_input import problem
from commands.imports.source_ids import SourceIds

NAME = "roll20"
EXPECTED = "Roll20 chat messages (a saved chat archive page, or its messages as JSON)"
# What only a chat message has: an object with none of these is not one.
_MESSAGE_KEYS = {"type", "who", "content", "playerid", "inlinerolls", "origRoll", ".priority"}
_MSGDATA = re.compile(r"msgdata\s*=\s*[\"']([A-Za-z0-9+/=]+)[\"']")


def parse(text: str) -> Parsed:
    parsed = Parsed(unit="message")
    found = _MSGDATA.search(text)
    try:
        raw = base64.b64decode(found.group(1)).decode("utf-8") if found else text
        messages = loads(raw)
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        said = problem(exc) if not isinstance(exc, (binascii.Error, UnicodeDecodeError)) else \
            "its msgdata is not base64 of UTF-8 text"
        parsed.problems.append((1, f"neither a Roll20 chat archive page nor its messages as JSON ({said})"))
        return parsed
    items = list(messages.items()) if isinstance(messages, dict) else \
        [(None, m) for m in messages] if isinstance(messages, list) else []
    ids = SourceIds(text, parsed)
    for i, (key, message) in enumerate(items, 1):
        if not isinstance(message, dict) or not _MESSAGE_KEYS & message.keys():
            parsed.problems.append((i, "not a Roll20 message"))
            continue
        parsed.recognised += 1
        try:
            ident = ids.of(i, key if key is not None else message.get("id"), message)
            if ident is not None:
                _message(parsed, i, ident, message)
        except MALFORMED as exc:
            named = key if key is not None else message.get("id")
            parsed.problems.append((i, f"message {named}: {problem(exc)}" if isinstance(named, str)
                                    and len(named) <= 40 else problem(exc)))
    return parsed


def _message(parsed: Parsed, line: int, ident: str, message: dict) -> None:
    who = text_of(message.get("who"), "its speaker").strip() or \
        f"player {text_of(message.get('playerid'), 'its player') or 'unknown'}"
    when = utc_from_millis(message.get(".priority") if isinstance(message.get(".priority"), (int, Decimal)) else None)
    rolls = []
    if message.get("type") == "rollresult":
        rolls.append((text_of(message.get("origRoll"), "its formula"), loads(text_of(message["content"], "its roll"))))
    for inline in entries(message.get("inlinerolls"), "its inline rolls"):
        rolls.append((text_of(record(inline, "an inline roll").get("expression"), "its formula"), inline["results"]))
    for n, (formula, result) in enumerate(rolls):
        dice, dropped, parts = [], [], []
        result = record(result, "a roll")
        for part in entries(result.get("rolls"), "its dice"):
            if part.get("type") == "R":
                kept = Decimal(0)
                for r in entries(part.get("results"), "a die's results"):
                    if r.get("d"):
                        dropped.append(len(dice))
                    else:
                        kept += number(r["v"])
                    dice.append(face(r["v"]))
                    faces_counted(dice)
                parts.append(("+", kept))
            elif part.get("type") == "M" and re.fullmatch(r"\s*[+-]\s*\d+(\.\d+)?\s*", str(part.get("expr"))):
                expr = str(part["expr"]).replace(" ", "")
                parts.append((expr[0], number(expr[1:])))
            else:
                parts = None
                break
        total = number(result["total"])
        if parts is not None and result.get("resultType", "sum") == "sum" and summed(parts) != total:
            raise ValueError(f"total {total} does not follow from its dice ({summed(parts)})")
        parsed.rolls.append(ForeignRoll(line, f"{ident}:{n}", who, formula.strip(), dice, dropped, total, when))
