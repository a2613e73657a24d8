"""Free text a user types — a name, the actor, a reason — checked one way.

Accepted text is printable, on one line, NFC-normalised and stripped, and
no longer than its kind's limit. Printable means what Python's
``str.isprintable`` says: letters, marks, numbers, punctuation, symbols and
the plain space of every script, and nothing of the categories Cc (control
characters: terminal escapes, tabs, newlines), Cf (invisible format
characters: bidirectional overrides, zero-width joiners), Cs (lone
surrogates), Co (private use), Cn (unassigned), Zl, Zp (line and paragraph
separators) or Zs other than the space (no-break and other wide spaces).

The limits count characters after normalisation and are the same on every
backend: none exceeds the database column that holds the text.
"""

from __future__ import annotations

import unicodedata

from ledger.errors import BadInput
from ledger.names import key

# A name (player, character, faction, stronghold, god, project, ship…). A
# stream is named from a name's key (ledger/names.py), which case
# folding can make at most three times as long: 60 characters keep
# "stronghold:" + key within the 200 of events.stream.
NAME_LIMIT = 60
CAMPAIGN_LIMIT = 64  # events.campaign is String(80)
ACTOR_LIMIT = 80  # events.actor is String(80)
LABEL_LIMIT = 200  # a short label: an item, a tag, a sacrifice, a client seed
REASON_LIMIT = 500  # a --why, an action, a vow, a boast (kept in the payload's text)

_KINDS = {
    "Cc": "a control character", "Cf": "an invisible format character", "Cs": "a lone surrogate",
    "Co": "a private-use character", "Cn": "an unassigned code point", "Zl": "a line separator",
    "Zp": "a paragraph separator", "Zs": "a space other than the plain space",
}


def unprintable(value: str) -> tuple[int, str] | None:
    """The first character of ``value`` that is not printable, as (its place,
    counted from 1; what it is, in words), or None."""
    for index, char in enumerate(value, 1):
        if not char.isprintable():
            kind = _KINDS.get(unicodedata.category(char), "a character that cannot be printed")
            name = "a newline" if char in "\r\n" else "a tab" if char == "\t" else kind
            return index, f"{name} (U+{ord(char):04X}, character {index})"
    return None


def refusal(value: str, what: str) -> str | None:
    """Why ``value`` is not printable one-line text, or None if it is."""
    found = unprintable(value)
    return None if found is None else f"{what} contains {found[1]}: give printable text on one line"


def check_text(value: str, what: str, limit: int = REASON_LIMIT) -> str:
    """One line of printable text, NFC-normalised and stripped, or a refusal."""
    if not isinstance(value, str):
        raise BadInput(f"{what} must be text")
    try:
        value = unicodedata.normalize("NFC", value).strip()
    except UnicodeError:  # pragma: no cover - normalize refuses nothing today
        raise BadInput(f"{what} is not valid Unicode text") from None
    if not value:
        raise BadInput(f"{what} cannot be empty")
    problem = refusal(value, what)
    if problem:
        raise BadInput(problem)
    if len(value) > limit:
        raise BadInput(f"{what} is {len(value)} characters long; the limit is {limit}")
    return value


def check_name(value: str, what: str, limit: int = NAME_LIMIT) -> str:
    """A name: checked text with at least one letter or digit (its key is not empty)."""
    value = check_text(value, what, limit)
    if not key(value):
        raise BadInput(f"{what} needs a letter or digit (given {value!r})")
    return value
