"""The id each message of a roll log is kept under, so importing a file again
adds nothing and no roll is taken for another.

A message keeps the id its tool gave it (Foundry's ``_id``, a Roll20
message's key or ``id``, D&D Beyond's ``rollId`` or ``id``): text of at most
MAX_ID printable characters, or a whole number. Two messages of one file
that give the same id are refused, each by its place (``--skip-bad`` keeps
the first), since one of them would otherwise be dropped as "already in the
ledger". A message with no id gets one derived from the whole file's SHA-256,
its place in the file and its own content: five identical messages are five
rolls, the same file imported again adds nothing, and another file (a second
evening's archive) never collides with the first. A later file that repeats
an earlier one's messages without ids (a longer copy of the same archive)
brings them in again: keep the ids the tool wrote.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any, Optional

from commands.imports.rolls import Parsed

MAX_ID = 100
DERIVED = "derived:"


class SourceIds:
    """The ids of one file's messages, given or derived."""

    def __init__(self, text: str, parsed: Parsed) -> None:
        self.file = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        self.parsed = parsed
        self.first: dict[str, int] = {}

    def of(self, place: int, given: Any, content: Any) -> Optional[str]:
        """The message's id, or None when another message of the file gave the
        same one (recorded as a problem at ``place``). A given id that is no
        id at all is a ValueError."""
        if given is None or given == "":
            return self.derived(place, content)
        ident = given_id(given)
        if ident in self.first:
            self.parsed.problems.append(
                (place, f"the same id {ident!r} as {self.parsed.unit} {self.first[ident]}: a log holds each "
                        "message once (import the rest with --skip-bad, which keeps the first)"))
            return None
        self.first[ident] = place
        return ident

    def derived(self, place: int, content: Any) -> str:
        body = json.dumps(content, sort_keys=True, ensure_ascii=True, default=_plain, separators=(",", ":"))
        digest = hashlib.sha256(f"{self.file}\n{place}\n{body}".encode("ascii")).hexdigest()
        return f"{DERIVED}{digest[:32]}"


def given_id(value: Any) -> str:
    """The id a tool gave a message, checked to be one."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and len(value) <= MAX_ID and value.isprintable() and value.strip():
        return value
    shown = repr(value)
    raise ValueError(f"its id {shown if len(shown) <= 30 else shown[:26] + '…'} is not an id "
                     f"(text of at most {MAX_ID} printable characters, or a whole number)")


def _plain(value: Any) -> str:
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON")
