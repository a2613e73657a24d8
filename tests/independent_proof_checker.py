"""A player's own checker of a `tally proof` file, written from the README and
the C2SP / RFC 9162 texts alone: it imports nothing from Tallystick.
Usage: python independent_proof_checker.py PROOF.tlog-proof VERIFIER-KEY
It prints the event the proof shows, or exits 1 saying why it does not.
"""

import base64
import hashlib
import json
import sys

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def sha256(data):
    return hashlib.sha256(data).digest()


def check(proof_text, vkey):
    head, _, note = proof_text.partition("\n\n")
    lines = head.split("\n")
    assert lines[0] == "c2sp.org/tlog-proof@v1", "not a tlog-proof"
    event = json.loads(base64.b64decode(lines[1][len("extra "):]))
    index = int(lines[2][len("index "):])
    path = [base64.b64decode(line) for line in lines[3:]]

    # The checkpoint: origin, size, root; a blank line; "— name base64(key id || signature)".
    text, _, signatures = note.rpartition("\n\n")
    text += "\n"
    origin, size, root = text.split("\n")[:3]
    size, root = int(size), base64.b64decode(root)
    name, key_id, key = vkey.split("+", 2)
    key = base64.b64decode(key)
    assert key[0] == 1 and name == origin, "not an Ed25519 key of this log"
    for line in signatures.strip("\n").split("\n"):
        _, signer, signature = line.split(" ")
        signature = base64.b64decode(signature)
        if signer == name and signature[:4].hex() == key_id:
            Ed25519PublicKey.from_public_bytes(key[1:]).verify(signature[4:], text.encode())  # raises if forged
            break
    else:
        raise AssertionError("the checkpoint is not signed by that key")

    # The event's hash, then its leaf (RFC 6962: 0x00 || data; the data is the 32-byte event hash).
    fields = {k: v for k, v in event.items() if k != "hash"}
    body = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert sha256(body).hex() == event["hash"], "the event does not hash to its hash"
    assert event["position"] == index + 1, "the proof is for another event"
    node = sha256(b"\x00" + bytes.fromhex(event["hash"]))

    # RFC 9162 2.1.3.2: climb the audit path.
    fn, sn = index, size - 1
    assert fn < size, "index beyond the tree"
    for sibling in path:
        assert sn > 0, "proof too long"
        if fn & 1 or fn == sn:
            node = sha256(b"\x01" + sibling + node)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            node = sha256(b"\x01" + node + sibling)
        fn, sn = fn >> 1, sn >> 1
    assert sn == 0 and node == root, "the event is not in the checkpointed tree"
    return event


if __name__ == "__main__":
    try:
        shown = check(open(sys.argv[1], encoding="utf-8").read(), sys.argv[2])
    except Exception as exc:  # a checker's answer, not a traceback
        print(f"NOT PROVEN: {exc}")
        sys.exit(1)
    print(f"proven: event {shown['position']} ({shown['type']}) is in the signed log")
