"""Two text formats of the transparency-log world, written and read:

* a checkpoint (c2sp.org/tlog-checkpoint): the note text ``origin``,
  ``tree size`` and ``base64(root hash)``, one a line, signed as a C2SP
  signed note (ledger/notes.py) by the log's key, whose name is the origin;
* an inclusion proof (c2sp.org/tlog-proof): ``c2sp.org/tlog-proof@v1``,
  optionally ``extra <base64>``, ``index <n>`` (zero-based), the audit path
  one base64 hash a line (RFC 6962 order, the leaf's sibling first), a blank
  line, then the checkpoint verbatim.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Optional, Sequence

from ledger.errors import BadInput, CheckpointRefuted
from ledger.notes import COSIGNATURE_V1, ED25519, Note, Verifier, parse_note, timestamp_of

PROOF_HEADER = "c2sp.org/tlog-proof@v1"


def body(origin: str, size: int, root: bytes) -> str:
    return f"{origin}\n{size}\n{base64.b64encode(root).decode()}\n"


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    note: Note  # as given: its text and every signature line

    @property
    def root_b64(self) -> str:
        return base64.b64encode(self.root).decode()


def _hash(line: str) -> Optional[bytes]:
    try:
        value = base64.b64decode(line, validate=True)
    except (binascii.Error, ValueError):
        return None
    return value if len(value) == 32 else None


def parse_checkpoint(data: str, what: str = "the checkpoint") -> Checkpoint:
    note = parse_note(data, what)
    lines = note.text[:-1].split("\n")
    size_line = lines[1] if len(lines) >= 3 else ""
    root = _hash(lines[2]) if len(lines) >= 3 else None
    if len(lines) < 3 or not lines[0] or not size_line.isascii() or not size_line.isdigit() \
            or (size_line != "0" and size_line.startswith("0")) or root is None or "" in lines[3:]:
        raise BadInput(f"{what} is not a checkpoint (c2sp.org/tlog-checkpoint: origin, tree size and "
                       "base64 root hash, one a line, then the signatures)")
    return Checkpoint(lines[0], int(size_line), root, note)


@dataclass(frozen=True)
class InclusionProof:
    index: int
    path: tuple[bytes, ...]
    checkpoint: Checkpoint
    extra: Optional[bytes] = None


def format_proof(index: int, path: list[bytes], checkpoint_note: str, extra: Optional[bytes] = None) -> str:
    lines = [PROOF_HEADER]
    if extra is not None:
        lines.append(f"extra {base64.b64encode(extra).decode()}")
    lines.append(f"index {index}")
    lines += [base64.b64encode(h).decode() for h in path]
    return "\n".join(lines) + "\n\n" + checkpoint_note


def parse_proof(data: str, what: str = "the proof") -> InclusionProof:
    bad = (f"{what} is not an inclusion proof (c2sp.org/tlog-proof@v1: the header, 'index N', "
           "the hashes, a blank line, the checkpoint)")
    head, blank, rest = data.partition("\n\n")
    lines = head.split("\n")
    if not blank or lines[0] != PROOF_HEADER:
        raise BadInput(bad)
    extra = None
    at = 1
    if len(lines) > 1 and lines[1].startswith("extra "):
        try:
            extra = base64.b64decode(lines[1][6:], validate=True)
        except (binascii.Error, ValueError):
            raise BadInput(bad) from None
        at = 2
    index_line = lines[at][6:] if len(lines) > at and lines[at].startswith("index ") else ""
    if not index_line.isascii() or not index_line.isdigit() or (index_line != "0" and index_line.startswith("0")):
        raise BadInput(bad)
    path = [_hash(line) for line in lines[at + 1:]]
    if any(h is None for h in path):
        raise BadInput(bad)
    return InclusionProof(int(index_line), tuple(path), parse_checkpoint(rest, f"the checkpoint in {what}"), extra)


def signed_by(checkpoint: Checkpoint, keys: Sequence[Verifier], what: str, known_as: str) -> Verifier:
    """The log key among ``keys`` (named ``known_as`` in messages) whose
    signature the checkpoint carries, verified; CheckpointRefuted if a
    known key's signature fails, or none is there. Per the signed-note
    spec, signatures by keys not among them are ignored."""
    good = []
    for signature in checkpoint.note.signatures:
        for key in keys:
            if signature.by(key):
                if not key.verifies(checkpoint.note.text, signature.signature):
                    raise CheckpointRefuted(f"{what} carries a signature by {key.name} (key {key.key_id.hex()}) "
                                            "that does not verify: the checkpoint was altered, or forged")
                good.append(key)
    for key in good:
        if key.kind == ED25519 and key.name == checkpoint.origin:
            return key
    named = ", ".join(f"{s.name} ({s.key_id.hex()})" for s in checkpoint.note.signatures)
    raise CheckpointRefuted(f"{what} is signed by no log key {known_as} knows for {checkpoint.origin} "
                            f"(it is signed by {named}): it comes from another log or key")


def cosigned_by(checkpoint: Checkpoint, witnesses: Sequence[Verifier], what: str) -> list[tuple[Verifier, int]]:
    """The cosignatures by known witnesses, each verified, with its time; an
    invalid one refuses the checkpoint."""
    found = []
    for signature in checkpoint.note.signatures:
        for key in witnesses:
            if key.kind == COSIGNATURE_V1 and signature.by(key):
                if not key.verifies(checkpoint.note.text, signature.signature):
                    raise CheckpointRefuted(f"{what} carries a cosignature by witness {key.name} that does not "
                                            "verify: the checkpoint was altered, or the cosignature forged")
                found.append((key, timestamp_of(signature)))
    return found
