"""The signed checkpoints as the ledger records them — the log's keys, the
witnesses' keys, the checkpoints, the cosignatures — and the inclusion
proof of an event against one of them (c2sp.org/tlog-proof)."""

from __future__ import annotations

import base64
from contextlib import closing
from dataclasses import dataclass
from typing import Iterable, Optional

from ledger import tlog, tree
from ledger.chain import COLUMNS
from ledger.envelope import Envelope
from ledger.errors import BadInput, CheckpointRefuted, NotFound
from ledger.notes import DASH, Verifier, parse_vkey

KEYS, WITNESSES, SIGNED, COSIGNED = TYPES = (
    "checkpoint.key_recorded", "checkpoint.witness_added", "checkpoint.signed", "checkpoint.cosigned")


@dataclass(frozen=True)
class Recorded:
    """The checkpoint events of one campaign, or of the whole database, in position order."""

    log_keys: tuple[Envelope, ...] = ()
    witnesses: tuple[Envelope, ...] = ()
    checkpoints: tuple[Envelope, ...] = ()
    cosignatures: tuple[Envelope, ...] = ()

    def log_verifiers(self, campaign: Optional[str] = None, before: Optional[int] = None) -> list[Verifier]:
        return _verifiers(self.log_keys, campaign, before)

    def witness_verifiers(self, campaign: Optional[str] = None, before: Optional[int] = None) -> list[Verifier]:
        return _verifiers(self.witnesses, campaign, before)

    def origin(self, campaign: str) -> Optional[str]:
        """The name the campaign's checkpoints give the log (its latest key's)."""
        keys = [e for e in self.log_keys if e.campaign == campaign]
        return keys[-1].payload["origin"] if keys else None

    def latest(self, campaign: str, covering: int = 0) -> Optional[Envelope]:
        """The campaign's latest checkpoint of more than ``covering`` events."""
        found = [e for e in self.checkpoints if e.campaign == campaign and e.payload["size"] > covering]
        return found[-1] if found else None

    def seen(self) -> list[dict]:
        """Which witnesses have seen which size: each witness's largest cosigned checkpoint."""
        best: dict[tuple[str, str, str], Envelope] = {}
        for e in self.cosignatures:
            mark = (e.campaign, e.payload["witness"], e.payload["key_id"])
            if mark not in best or e.payload["size"] > best[mark].payload["size"]:
                best[mark] = e
        return [{"campaign": e.campaign, "witness": e.payload["witness"], "size": e.payload["size"],
                 "cosigned_at": e.payload["timestamp"], "recorded_at_event": e.position}
                for e in sorted(best.values(), key=lambda e: (e.campaign, e.payload["witness"]))]


def _verifiers(events: Iterable[Envelope], campaign: Optional[str], before: Optional[int]) -> list[Verifier]:
    return [parse_vkey(e.payload["vkey"], f"the key recorded at event {e.position}") for e in events
            if (campaign is None or e.campaign == campaign) and (before is None or e.position < before)]


def fold(events: Iterable[Envelope]) -> Recorded:
    by_type: dict[str, list[Envelope]] = {t: [] for t in TYPES}
    for e in events:
        if e.type in by_type:
            by_type[e.type].append(e)
    return Recorded(*(tuple(by_type[t]) for t in TYPES))


def read(tx, campaign: Optional[str] = None, types: Iterable[str] = TYPES) -> Recorded:
    """The recorded checkpoint events of some types (an index seek each, not
    the log): a campaign signs a checkpoint every session, so a command that
    needs only the keys reads only the keys."""
    return fold(sorted((e for t in types for e in tx.read(campaign, types=[t])), key=lambda e: e.position))


def note_of(checkpoint: Envelope) -> str:
    """A recorded checkpoint as the signed note the referee printed."""
    p = checkpoint.payload
    return f"{p['origin']}\n{p['size']}\n{p['root']}\n\n{DASH} {p['origin']} {p['signature']}\n"


def with_cosignatures(note: str, cosignatures: Iterable[Envelope]) -> str:
    return note + "".join(f"{DASH} {c.payload['witness']} {c.payload['signature']}\n" for c in cosignatures)


@dataclass(frozen=True)
class Proof:
    """An event's inclusion proof, and everything a player needs to check it."""

    position: int
    event: dict  # the event as exported (stored fields, payload as recorded): its hash is recomputable
    leaf_hash: bytes
    root: bytes
    path: list[bytes]
    checkpoint: str  # the signed note
    text: str  # the c2sp.org/tlog-proof file


def inclusion(tx, campaign: str, position: int, kept: Optional[tlog.Checkpoint] = None) -> Proof:
    """The inclusion proof of event ``position`` against the kept checkpoint,
    or the campaign's latest recorded checkpoint that covers it (with the
    cosignatures recorded for it). The proof's ``extra`` is the event's
    export line: the leaf is SHA-256(0x00 || SHA-256 of its hashed fields)."""
    from ledger import merkle
    from ledger.chain import stored_line

    head = tx.head()[0]
    if not 1 <= position <= head:
        raise NotFound(f"no event {position}: the ledger holds events 1 to {head}")
    if kept is None:
        signed = tx.latest_of(campaign, SIGNED)  # the latest covers the most: sizes grow with positions
        if signed is None or signed.payload["size"] < position:
            raise NotFound(f"no signed checkpoint of campaign {campaign} covers event {position} yet: the referee "
                           "signs one at every session close, or now with `tally checkpoint`")
        size, signed_root = signed.payload["size"], base64.b64decode(signed.payload["root"])
        note = with_cosignatures(note_of(signed), [
            c for c in tx.read(campaign, types=[COSIGNED], after=signed.position)
            if c.payload["size"] == size and c.payload["root"] == signed.payload["root"]])
    else:
        size, signed_root, note = kept.size, kept.root, kept.note.render()
        if position > size:
            raise BadInput(f"the checkpoint covers events 1 to {size}, not event {position}: "
                           "prove it against a later checkpoint")
        if size > head:
            raise CheckpointRefuted(f"the checkpoint is of {size} events but this ledger holds {head}: "
                                    "its history was cut back, or the checkpoint is from another ledger")
    root, path = tree.inclusion(tx.conn, position - 1, size)
    if root != signed_root:
        raise CheckpointRefuted(f"the ledger's first {size} events are not those the checkpoint signed (their "
                                f"tree's root differs): run `tally verify` and `tally verify --against` with it")
    with closing(tx.raw_rows(position - 1, position)) as rows:
        row = next(rows)
    leaf = merkle.leaf_hash(bytes.fromhex(row[13]))
    text = tlog.format_proof(position - 1, path, note, extra=stored_line(row).encode())
    return Proof(position, dict(zip(COLUMNS, row)), leaf, root, path, note, text)
