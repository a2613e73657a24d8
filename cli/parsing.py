"""Turning command-line words into values: NAME=N pairs and face lists."""

from __future__ import annotations

from typing import Iterable, Optional

from ledger.errors import BadInput


def _once(out: dict, name: str, what: str) -> None:
    """Refuse a name given again, in any case (names are matched so: ``bo=`` is Bo, and the
    last of the two would have been recorded as if the first were never typed)."""
    folded = name.casefold()
    for given in out:
        if given.casefold() == folded:
            spelt = "" if given == name else f" ({given} and {name})"
            raise BadInput(f"{what} names {given} twice{spelt}: give each once")


def pairs(items: Iterable[str], what: str) -> dict[str, int]:
    """``Astrid=4 Bo=6`` or ``Athletics=1,Stealth=2`` as a dict of whole numbers."""
    out: dict[str, int] = {}
    for item in items:
        for part in (p for p in item.split(",") if p.strip()):
            name, sep, number = part.rpartition("=")
            if not sep or not name.strip():
                raise BadInput(f"{what} takes NAME=N, not {part!r}")
            try:
                value = int(number)
            except ValueError:
                raise BadInput(f"{what}: {number!r} is not a whole number (in {part!r})") from None
            _once(out, name.strip(), what)
            out[name.strip()] = value
    return out


def names(text: Optional[str]) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def faces(text: Optional[str]) -> Optional[list[int]]:
    # Imported here: the write side is loaded by the commands that write, not by every
    # command whose module parses faces (`tally char show` shares one with `char new`).
    from commands.dice import parse_hand_faces

    return parse_hand_faces(text) if text is not None else None


def faces_by_name(items: Iterable[str]) -> dict[str, list[int]]:
    """``Astrid=3,4 Bo=6,6,2``: hand-rolled faces for each character."""
    from commands.dice import parse_hand_faces

    out = {}
    for item in items:
        name, sep, rest = item.partition("=")
        if not sep or not name.strip():
            raise BadInput(f"--dice takes NAME=FACES such as Astrid=3,4, not {item!r}")
        _once(out, name.strip(), "--dice")
        out[name.strip()] = parse_hand_faces(rest)
    return out
