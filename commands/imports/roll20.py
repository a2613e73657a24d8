"""A Roll20 chat archive: the saved archive page (its ``msgdata`` holds the
messages, base64-encoded JSON) or that JSON itself, an object of messages by
id. A ``rollresult`` message's ``content`` is the roll (every die's results,
``d: true`` on a dropped one), ``origRoll`` its formula; a message's
``inlinerolls`` are rolls too. Roll20 keeps no time per message in the
archive but ``.priority``, which it sets to the time sent (milliseconds)."""

from __future__ import annotations

import base64
import binascii
import re
from decimal import Decimal

from commands.imports.rolls import ForeignRoll, Parsed, face, loads, number, summed, utc_from_millis

NAME = "roll20"
_MSGDATA = re.compile(r"msgdata\s*=\s*[\"']([A-Za-z0-9+/=]+)[\"']")


def parse(text: str) -> Parsed:
    parsed = Parsed(unit="message")
    found = _MSGDATA.search(text)
    try:
        raw = base64.b64decode(found.group(1)).decode("utf-8") if found else text
        messages = loads(raw)
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        parsed.problems.append((1, f"neither a Roll20 chat archive page nor its messages as JSON ({exc})"))
        return parsed
    items = list(messages.items()) if isinstance(messages, dict) else [(None, m) for m in messages]
    for i, (ident, message) in enumerate(items, 1):
        if not isinstance(message, dict):
            parsed.problems.append((i, "not a Roll20 message"))
            continue
        ident = ident or message.get("id") or f"message-{i}"
        try:
            _message(parsed, i, ident, message)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            parsed.problems.append((i, f"message {ident}: {exc}"))
    return parsed


def _message(parsed: Parsed, line: int, ident: str, message: dict) -> None:
    who = (message.get("who") or "").strip() or f"player {message.get('playerid') or 'unknown'}"
    when = utc_from_millis(message.get(".priority") if isinstance(message.get(".priority"), (int, Decimal)) else None)
    rolls = []
    if message.get("type") == "rollresult":
        rolls.append((str(message.get("origRoll") or ""), loads(message["content"])))
    for inline in message.get("inlinerolls") or []:
        rolls.append((str(inline.get("expression") or ""), inline["results"]))
    for n, (formula, result) in enumerate(rolls):
        dice, dropped, parts = [], [], []
        for part in result.get("rolls") or []:
            if part.get("type") == "R":
                kept = Decimal(0)
                for r in part.get("results") or []:
                    if r.get("d"):
                        dropped.append(len(dice))
                    else:
                        kept += number(r["v"])
                    dice.append(face(r["v"]))
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
