"""Regenerate fixtures/dice-vectors.json, the published dice test vectors.

Run from the repository root: .venv/bin/python scripts/make-dice-vectors.py
The vectors are meant to be fixed: regenerate only if DESIGN.md §4 or the
reading order in docs/dice.md changes (every vector already published must
come out the same). One vector is searched for so that a die's 4 bytes are
discarded by the rejection rule, which outside verifiers most often get
wrong; the vectors of rerolls, drops and explosions are searched for so
that the modifier actually acts (a die is rerolled, an explosion chains).
"""

import hashlib
import hmac
import json
from pathlib import Path

from ledger.dice.derivation import FaceStream, commitment, derive
from ledger.dice.expression import DROPPED, EXTRA, REROLLED, parse

SEED = bytes(range(32)).hex()
CASES = [("", 0, "2d6"), ("", 1, "3d6kh2"), ("", 2, "2d6kl1"), ("", 3, "6d6s4"), ("", 4, "d%"),
         ("", 5, "dA"), ("", 6, "3d6*10"), ("", 7, "1d6/2"), ("", 8, "1d12+3"), ("", 9, "d20"),
         ("table 7", 0, "2d6"), ("table 7", 1, "12d6s4"), ("Åsa's dice", 0, "4d8+2d10")]


def words(seed_hex, client_seed, nonce):
    block = 0
    while True:
        digest = hmac.new(bytes.fromhex(seed_hex), f"{client_seed}:{nonce}:{block}".encode(), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i:i + 4], "big")
        block += 1


def first_rejection(sides):
    """The first nonce whose first die of size `sides` is discarded at least once."""
    limit = (2 ** 32 // sides) * sides
    nonce = 0
    while True:
        if next(words(SEED, "", nonce)) >= limit:
            return nonce
        nonce += 1


# (expression, what must happen, the note): each searched from nonce 100 on, client seed "modifiers".
MODIFIED = [
    ("1d6!", lambda m: m.count(EXTRA) >= 2, "the 6 explodes, and the extra die explodes again"),
    ("3d6!", lambda m: m.count(EXTRA) >= 2, "explosions are read after all three named dice, in their order"),
    ("2d6kh1!", lambda m: DROPPED in m and EXTRA in m, "keep the higher die, then explode it (000 l.62, l.83)"),
    ("1d10xo10", lambda m: EXTRA in m, "explodes once only (001 l.256)"),
    ("4d6rr1", lambda m: m.count(REROLLED) >= 2, "each 1 is rerolled before the next named die is read"),
    ("3d6ro<=2", lambda m: REROLLED in m, "rerolled once; the new face stands whatever it shows"),
    ("4d6dl1", lambda m: DROPPED in m, "the lowest is dropped; ties drop the die read last"),
    ("4d6rr1dl1!", lambda m: REROLLED in m and DROPPED in m and EXTRA in m,
     "reroll, then drop, then explode, in that order"),
    ("6d6!s4", lambda m: EXTRA in m, "an explosion's extra die is counted as a die of the pool"),
]


def searched(text, happens, note):
    expression = parse(text)
    nonce = 100
    while not happens(expression.read(FaceStream(SEED, "modifiers", nonce).read).marks):
        nonce += 1
    return vector("modifiers", nonce, text, note=note)


def vector(client_seed, nonce, text, note=None):
    faces, total = derive(parse(text), SEED, client_seed, nonce)
    out = {"client_seed": client_seed, "nonce": nonce, "expression": text, "dice": faces, "total": total}
    if note:
        out["note"] = note
    return out


def main():
    # The largest possible discard zone among dice up to d1000 is 2^32 mod s.
    sides = max(range(2, 1001), key=lambda s: 2 ** 32 % s)
    nonce = first_rejection(sides)
    vectors = [vector(*case) for case in CASES]
    vectors.append(vector("", nonce, f"1d{sides}",
                          note=f"the first 4 bytes are >= floor(2^32/{sides})*{sides} and are discarded"))
    vectors += [searched(*case) for case in MODIFIED]
    data = {"seed": SEED, "commitment": commitment(SEED),
            "about": "DESIGN.md section 4: roll n reads HMAC-SHA256(key=S, msg='K:n:j') for j = 0, 1, ...",
            "vectors": vectors}
    Path("fixtures/dice-vectors.json").write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
