"""Sealed secrets: the commitment a referee publishes for a text kept secret
until later (a random table, a room key), and how a sealed table turns the
total of a roll into one of its lines. docs/secrets.md is the specification,
with a worked example; anyone can recompute a commitment with any SHA-256
and any RFC 8785 tool:

    commitment = lowercase hex of SHA-256 over the UTF-8 bytes of the RFC 8785
                 canonical JSON of {"label": LABEL, "salt": SALT, "text": TEXT}

SALT is 32 random bytes written as 64 lowercase hex digits. The salt makes
the commitment say nothing of the text before the reveal: without it, a
player could hash every likely text ("1 ogre", "2 ogres"…) until one gave
the commitment.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Optional

from ledger import text as text_rules
from ledger.chain import canonical_json
from ledger.errors import BadInput

if TYPE_CHECKING:  # only named in a signature: a sheet, which folds the sealed model, never parses dice
    from ledger.dice.expression import Expression

KIND = "sealed-secret"  # its kind in ledger/secrets.py, named there by its commitment
TEXT_LIMIT = 65_536  # characters of a secret's text
FILE_LIMIT = 256 * 1024  # bytes read from a --file (UTF-8: at most four a character)
LABEL_LIMIT = text_rules.LABEL_LIMIT
MAX_TOTALS = 100_000  # totals a roll on a table may be able to show: each is checked for its line
SALT_HEX = re.compile(r"[0-9a-f]{64}")


def new_salt() -> str:
    """32 fresh random bytes, as 64 lowercase hex digits."""
    return os.urandom(32).hex()


def preimage(label: str, salt: str, text: str) -> str:
    """What is hashed: RFC 8785's canonical JSON of the three (ledger/chain.py)."""
    return canonical_json({"label": label, "salt": salt, "text": text})


def commitment(label: str, salt: str, text: str) -> str:
    return hashlib.sha256(preimage(label, salt, text).encode("utf-8")).hexdigest()


def check_label(value: str, what: str = "a secret's label") -> str:
    """A label: a name's rules (ledger/text.py), up to 200 characters."""
    return text_rules.check_name(value, what, LABEL_LIMIT)


def check_text(value: str, what: str = "the secret") -> str:
    """A secret's text as it is sealed: NFC, line ends made \\n, each line's
    trailing spaces and tabs and the blank lines at either end taken off.
    Printable characters, tabs and line breaks only (no terminal escapes or
    invisible characters: the text is shown in terminals and pages once revealed)."""
    if not isinstance(value, str):
        raise BadInput(f"{what} must be text")
    value = unicodedata.normalize("NFC", value).replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip(" \t") for line in value.split("\n")]
    value = "\n".join(lines).strip("\n")
    if not value.strip():
        raise BadInput(f"{what} is empty: there is nothing to seal")
    for number, line in enumerate(value.split("\n"), 1):
        found = text_rules.unprintable(line.replace("\t", " "))
        if found is not None:
            raise BadInput(f"line {number} of {what} contains {found[1]}: a secret holds printable text, "
                           "tabs and line breaks only")
    if len(value) > TEXT_LIMIT:
        raise BadInput(f"{what} is {len(value):,} characters long; the limit is {TEXT_LIMIT:,}")
    return value


def file_text(data: bytes, path: str) -> str:
    """A --file's bytes as text: UTF-8 (a byte-order mark at its start is dropped)."""
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"the file {path} is not UTF-8 text (byte {exc.start + 1} cannot be read): "
                       "save it as UTF-8 and seal it again") from None
    return decoded[1:] if decoded.startswith("\ufeff") else decoded


def kept(value: Optional[str]) -> Optional[tuple[str, str, str]]:
    """(label, salt, text) from a secret as the secrets store keeps it (its
    preimage), or None if it is not one."""
    try:
        found = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        return None
    if not isinstance(found, dict) or set(found) != {"label", "salt", "text"}:
        return None
    if not all(isinstance(v, str) for v in found.values()):
        return None
    return found["label"], found["salt"], found["text"]


def holds(label: str, salt: str, text: str, expected: str) -> bool:
    """Whether the three hash to the commitment (a salt of any other shape never does)."""
    if not SALT_HEX.fullmatch(salt or ""):
        return False
    try:
        return commitment(label, salt, text) == expected
    except BadInput:  # text the ledger could not have sealed
        return False


# -- a sealed table: which line a total picks ---------------------------------

@dataclass(frozen=True)
class Entry:
    low: int
    high: int
    line: int  # its line in the text, from 1
    text: str  # the line as written, ends stripped

    def covers(self, total: int) -> bool:
        return self.low <= total <= self.high


# A line that starts with a number or a range: "3 goblins", "1-2 ogre", "4. troll",
# "5: bats", "6) rats", "96–00 dragon" (00 is 100, as on percentile tables).
_NUMBERED = re.compile(r"[ \t]*([0-9]{1,9})(?:[ \t]*[-\u2013\u2014][ \t]*([0-9]{1,9}))?(?:[.:)]|(?=[ \t])|$)")


def _number(digits: str) -> int:
    return 100 if digits == "00" else int(digits)


def entries(text: str) -> list[Entry]:
    """The lines a roll can pick. If any line starts with a number or a range,
    those lines are the entries, each covering its numbers (the other lines are
    headings and notes, never picked); otherwise every line that is not blank
    is one, the first covering 1, the next 2, and so on."""
    lines = text.split("\n")
    numbered = []
    for index, line in enumerate(lines, 1):
        found = _NUMBERED.match(line)
        if found:
            low = _number(found.group(1))
            high = _number(found.group(2)) if found.group(2) else low
            numbered.append(Entry(low, high, index, line.strip()))
    if numbered:
        return numbered
    plain = [(index, line.strip()) for index, line in enumerate(lines, 1) if line.strip()]
    return [Entry(n, n, index, line) for n, (index, line) in enumerate(plain, 1)]


def picked(text: str, total: int) -> Optional[Entry]:
    """The one line the total picks, or None (no line covers it, or more than one)."""
    found = [e for e in entries(text) if e.covers(total)]
    return found[0] if len(found) == 1 else None


def possible_totals(expression: Expression) -> list[int]:
    """Every total the expression can roll, lowest first: from its exact odds
    where they can be counted (2d6*10 rolls 20, 30 … 120), else every whole
    number between its bounds."""
    from ledger.dice.odds import distribution

    try:
        return sorted(distribution(expression))
    except BadInput:
        low, high = expression.bounds
        if high - low + 1 > MAX_TOTALS:
            raise BadInput(f"{expression.text} can roll {high - low + 1:,} different totals; a roll on a sealed "
                           f"table may have at most {MAX_TOTALS:,} (each needs its line)") from None
        return list(range(low, high + 1))


def runs(numbers: Iterable[int], most: int = 6) -> str:
    """1, 2, 3, 5, 7, 8 as "1-3, 5, 7-8" (the first ``most`` runs)."""
    spans: list[list[int]] = []
    for n in sorted(set(numbers)):
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    shown = [f"{a}" if a == b else f"{a}-{b}" for a, b in spans[:most]]
    return ", ".join(shown) + (", …" if len(spans) > most else "")


def coverage_problem(text: str, totals: list[int], label: str, expression: str) -> Optional[str]:
    """Why a roll of ``expression`` (which can show ``totals``) cannot be made
    on the sealed table: a total no line covers, or one two lines cover; or None."""
    found = entries(text)
    # a sweep over where each entry's range starts and ends, against the totals in order
    edges = sorted([(e.low, 1, e) for e in found] + [(e.high + 1, -1, e) for e in found if e.low <= e.high],
                   key=lambda edge: (edge[0], edge[1]))
    open_: dict[int, Entry] = {}
    at, missing, doubled = 0, [], None
    for total in totals:
        while at < len(edges) and edges[at][0] <= total:
            _, step, entry = edges[at]
            if step > 0 and entry.low <= entry.high:
                open_[id(entry)] = entry
            elif step < 0:
                open_.pop(id(entry), None)
            at += 1
        if not open_:
            missing.append(total)
        elif len(open_) > 1 and doubled is None:
            doubled = (total, sorted(e.line for e in open_.values()))
    if missing:
        covered = runs(n for e in found for n in (range(e.low, e.high + 1) if e.high - e.low < MAX_TOTALS else ()))
        return (f"the sealed table {label!r} has no line for {runs(missing)}: {expression} can roll "
                f"{runs(totals)}, and its lines cover {covered or 'nothing'}; roll what the table covers "
                "(it was sealed as it is: seal a corrected table under another label)")
    if doubled is not None:
        total, lines = doubled
        return (f"the sealed table {label!r} has {len(lines)} lines for {total} (lines "
                f"{', '.join(map(str, lines))}): a roll picks one line, so it cannot be rolled on with "
                f"{expression} (seal a corrected table under another label)")
    return None
