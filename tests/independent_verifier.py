"""A player's own verifier, written from DESIGN.md §4 alone. It imports
nothing from Tallystick: it reads `tally log --json` and the revealed seeds
and re-derives every face. Usage: python independent_verifier.py LOG.json
"""

import hashlib
import hmac
import json
import re
import sys

AVERAGE = [2, 3, 3, 4, 4, 5]
DICE = re.compile(r"(\d*)\s*[dD]\s*(\d+|%|[aA])")


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
    for count, sides in DICE.findall(expression):
        average = sides in "aA"
        size = 100 if sides == "%" else 6 if average else int(sides)
        for _ in range(int(count or 1)):
            u = next(stream)
            while u >= (2 ** 32 // size) * size:
                u = next(stream)
            face = u % size + 1
            out.append(AVERAGE[face - 1] if average else face)
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
