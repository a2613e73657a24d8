"""A player's own verifier, written from DESIGN.md §4 and the reading order
in docs/dice.md alone. It imports nothing from Tallystick: it reads
`tally log --json` and the revealed seeds and re-derives every face,
rerolls, drops and explosions included. Usage: python independent_verifier.py LOG.json
"""

import hashlib
import hmac
import json
import re
import sys

AVERAGE = [2, 3, 3, 4, 4, 5]
MODIFIER = r"(rr|ro|min|max|mi|ma|kh|kl|dh|dl|xo|x|e|!|s)\s*(>=|<=)?\s*(\d*)"
TERM = re.compile(r"(\d*)\s*d\s*(\d+|%|a)((?:\s*" + MODIFIER + r")*)", re.I)
DEPTH = 20  # rr rerolls and !, x, e explosions stop after 20 (docs/dice.md)


def faces(seed_hex, client_seed, nonce, expression):
    key = bytes.fromhex(seed_hex)

    def words():
        j = 0
        while True:
            block = hmac.new(key, f"{client_seed}:{nonce}:{j}".encode("utf-8"), hashlib.sha256).digest()
            for i in range(0, 32, 4):
                yield int.from_bytes(block[i:i + 4], "big")
            j += 1

    stream, out = words(), []
    for term in TERM.finditer(expression):
        count, sides = term.group(1), term.group(2)
        mods = {m[0].lower().replace("min", "mi").replace("max", "ma"): (m[1] or "=", m[2])
                for m in re.findall(MODIFIER, term.group(3), re.I)}
        average = sides in "aA"
        size = 100 if sides == "%" else 6 if average else int(sides)

        def die():
            u = next(stream)
            while u >= (2 ** 32 // size) * size:
                u = next(stream)
            face = u % size + 1
            return AVERAGE[face - 1] if average else face

        def value(face):
            if "mi" in mods:
                face = max(face, int(mods["mi"][1]))
            return min(face, int(mods["ma"][1])) if "ma" in mods else face

        def matches(rule, v):
            op, n = rule
            return v >= int(n) if op == ">=" else v <= int(n) if op == "<=" else v == int(n)

        reroll = mods.get("rr") or mods.get("ro")

        def read():  # one die, rerolled while it matches: 20 times at most (rr), or once (ro)
            face, times = die(), 0
            while reroll and times < (DEPTH if "rr" in mods else 1) and matches(reroll, face):
                out.append(face)
                face, times = die(), times + 1
            out.append(face)
            return value(face)

        dice = [read() for _ in range(int(count or 1))]
        for name in ("kh", "kl", "dh", "dl"):
            if name in mods:
                n = int(mods[name][1])
                keep = n if name in ("kh", "kl") else len(dice) - n
                order = sorted(range(len(dice)), key=lambda i: -dice[i] if name in ("kh", "dl") else dice[i])
                dice = [dice[i] for i in sorted(order[:keep])]
        explode = next((name for name in ("!", "x", "e", "xo") if name in mods), None)
        if explode:
            top = max(value(f) for f in (AVERAGE if average else range(1, size + 1)))
            rule = mods[explode] if mods[explode][1] else ("=", top)
            for v in dice:
                extra = 0
                while extra < (1 if explode == "xo" else DEPTH) and matches(rule, v):
                    v, extra = read(), extra + 1
    return out


def verify(events):
    """Return (rolls checked, list of problems)."""
    epochs = {}
    for e in events:
        p = e["payload"]
        if e["type"] == "dice.committed":
            epochs[p["epoch"]] = {"commitment": p["commitment"], "seed": None, "client_seed": ""}
        elif e["type"] == "dice.client_seed_set":
            epochs[p["epoch"]]["client_seed"] = p["client_seed"]
        elif e["type"] == "dice.revealed":
            epochs[p["epoch"]]["seed"] = p["seed"]
    checked, problems = 0, []
    for number, epoch in epochs.items():
        if epoch["seed"] and hashlib.sha256(bytes.fromhex(epoch["seed"])).hexdigest() != epoch["commitment"]:
            problems.append(f"epoch {number}: seed does not match its commitment")
    for e in events:
        p = e["payload"]
        if e["type"] != "dice.rolled" or not p["verifiable"]:
            continue
        epoch = epochs[p["epoch"]]
        if epoch["seed"] is None:
            continue
        checked += 1
        if faces(epoch["seed"], epoch["client_seed"], p["nonce"], p["expression"]) != p["dice"]:
            problems.append(f"position {e['position']}: faces do not match")
    return checked, problems


if __name__ == "__main__":
    with open(sys.argv[1]) as handle:
        count, found = verify(json.load(handle))
    print(f"{count} rolls checked, {len(found)} problems")
    for problem in found:
        print(problem)
    sys.exit(1 if found else 0)
