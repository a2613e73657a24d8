"""Events of the signed checkpoints: keys, checkpoints and cosignatures
(ledger/notes.py, ledger/tlog.py). Each records the text a verifier needs,
as it appears in the signed note, so the note can be written out again."""

from typing import Literal

from ledger.events.registry import EventModel, register


@register
class LogKeyRecorded(EventModel):
    """The referee's checkpoint key (its private half is kept outside the ledger)."""

    type: Literal["checkpoint.key_recorded"] = "checkpoint.key_recorded"
    origin: str  # the log's name: the first line of its checkpoints, and the key's name
    key_id: str  # 8 hex digits
    vkey: str  # origin+key_id+base64(0x01 || Ed25519 public key)


@register
class WitnessAdded(EventModel):
    """A player's witness key, handed to the referee (c2sp.org/tlog-cosignature)."""

    type: Literal["checkpoint.witness_added"] = "checkpoint.witness_added"
    name: str
    key_id: str
    vkey: str  # name+key_id+base64(0x04 || Ed25519 public key)


@register
class CheckpointSigned(EventModel):
    """The tree of the first ``size`` events of the database, signed: the note
    is "origin\\nsize\\nroot\\n", a blank line, "— origin signature"."""

    type: Literal["checkpoint.signed"] = "checkpoint.signed"
    origin: str
    size: int
    root: str  # base64, as in the checkpoint
    key_id: str
    signature: str  # base64(key ID || Ed25519 signature), as on the note's line
    occasion: Literal["session close", "on demand"]


@register
class CheckpointCosigned(EventModel):
    """A witness's cosignature of a checkpoint (it saw the log at that size)."""

    type: Literal["checkpoint.cosigned"] = "checkpoint.cosigned"
    origin: str
    size: int
    root: str
    witness: str
    key_id: str
    timestamp: int  # POSIX seconds, as the cosignature carries it
    signature: str  # base64(key ID || timestamp || Ed25519 signature), as on the note's line
