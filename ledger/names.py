"""How names become keys: case, normalisation and punctuation do not make a
new character, but every letter of every script counts (Björn is not Bjørn).

A key is the name NFC-normalised and case-folded (``ÅSA`` and ``åsa``,
``Straße`` and ``STRASSE`` are one name), with each run of anything that is
not a letter, mark or number turned into one hyphen, none at the ends
(``River Guild`` is ``river-guild``). Accents are never stripped.
"""

import unicodedata
from functools import lru_cache
from typing import Iterable, Optional


def _kept(char: str) -> bool:
    return unicodedata.category(char)[0] in "LMN"  # letters, combining marks, numbers


@lru_cache(maxsize=8192)  # a campaign has few names, and a fold asks for them on nearly every event
def key(name: str) -> str:
    if name.isascii():  # the common case, as fast as before: a-z, 0-9, hyphens
        folded = name.lower()
    else:
        folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    out: list[str] = []
    gap = False
    for char in folded:
        if _kept(char):
            if gap and out:
                out.append("-")
            out.append(char)
            gap = False
        else:
            gap = True
    return "".join(out)


def nearest(name: str, names: Iterable[str]) -> Optional[str]:
    """The one of ``names`` a mistyped ``name`` most likely meant (a letter
    dropped, two swapped), compared by key; None when none is close."""
    import difflib

    by_key = {key(n): n for n in names}
    found = difflib.get_close_matches(key(name), list(by_key), n=1, cutoff=0.75)
    return by_key[found[0]] if found else None
