"""Signed checkpoints: the referee's key, a checkpoint signed on demand or at
a session's close, the players' witness keys and their cosignatures.

A checkpoint signs the Merkle tree of every event recorded before it (the
whole database, like the hash chain) and is itself recorded as the next
event. Keys are kept in files (ledger/keys.py), never in the database.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Optional

from ledger import keys, tlog, tree
from ledger.clock import utc_now
from commands.base import record
from projections.reading import Context, load
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, CheckpointRefuted, RuleRefused, TallyError
from ledger.events.checkpoints import CheckpointCosigned, CheckpointSigned, LogKeyRecorded, WitnessAdded
from ledger.notes import COSIGNATURE_V1, ED25519, Note, Signature, Signer, generate, parse_vkey
from ledger.store import Store
from projections import checkpoints as recorded_model
from projections.checkpoints import COSIGNED, KEYS, WITNESSES

STREAM = "checkpoints"


def default_origin(ctx: Context) -> str:
    """``tallystick/<campaign>/<first 8 hex of event 1's hash>``: readable, and
    unique to this database's log (the chain's first hash names it)."""
    slug = re.sub(r"[^\w.-]+", "-", ctx.name.casefold()).strip("-") or "campaign"
    return f"tallystick/{slug}/{ctx.tx.get(1).hash[:8]}"


def new_key(store: Store, campaign: Optional[str], *, actor: str, key_file: Optional[str] = None,
            origin: Optional[str] = None) -> tuple[Envelope, Path, bool]:
    """Make the referee's checkpoint key and record its public half in the
    campaign; (the event, the key file, whether the file is new). A key file
    already there whose key the campaign lacks is recorded as it is (a key
    made for another campaign of the ledger, or one whose recording a crash
    cut short)."""
    kept: dict = {}

    def decide(ctx: Context) -> list[NewEvent]:
        path = kept["path"] = keys.referee_key_path(ctx.tx.conn.engine, key_file)
        ours = recorded_model.read(ctx.tx, ctx.name, [KEYS])
        kept_origin = ours.origin(ctx.name)
        kept["new"] = not keys.key_file_exists(path)
        if not kept["new"]:
            signer = keys.read_key(path)
            if signer.kind != ED25519:
                raise RuleRefused(f"{path} holds a witness key, not a log key: give another --key-file")
            if signer.verifier in ours.log_verifiers(ctx.name):
                raise RuleRefused(f"the key at {path} is already campaign {ctx.name}'s checkpoint key "
                                  f"({signer.verifier.vkey}): `tally checkpoint` signs with it")
            wanted = origin or kept_origin
            if wanted and wanted != signer.name:
                raise RuleRefused(f"the key at {path} signs for the log {signer.name}, not {wanted}: "
                                  "move the file away to make a new key")
        else:
            if origin and kept_origin and origin != kept_origin:
                raise RuleRefused(f"campaign {ctx.name}'s checkpoints name the log {kept_origin}: "
                                  "a new key keeps that name (leave out --origin)")
            signer = generate(origin or kept_origin or default_origin(ctx), ED25519)
            # Before the event: a crash between the two leaves an unrecorded key, which the next
            # `tally keys new` records; never a recorded key whose private half is gone.
            keys.write_key(path, signer)
        verifier = signer.verifier
        return [NewEvent(STREAM, LogKeyRecorded(origin=signer.name, key_id=verifier.key_id.hex(),
                                                vkey=verifier.vkey), game_time=ctx.today)]

    return record(store, campaign, actor, decide)[0], kept["path"], kept["new"]


def _signing(ctx: Context, key_file: Optional[str]) -> Signer:
    """The referee's key, from its file, if it is the campaign's."""
    ours = recorded_model.read(ctx.tx, ctx.name, [KEYS])
    if not ours.log_keys:
        raise RuleRefused(f"campaign {ctx.name} has no checkpoint key: `tally keys new` makes one")
    path = keys.referee_key_path(ctx.tx.conn.engine, key_file)
    signer = keys.read_key(path)
    if signer.verifier not in ours.log_verifiers(ctx.name):
        raise RuleRefused(f"the key at {path} ({signer.verifier.vkey}) is not one of campaign {ctx.name}'s: "
                          "`tally keys new` records it, or point --key-file at the campaign's key")
    return signer


def _checkpoint(ctx: Context, signer: Signer, occasion: str, game_time: int) -> NewEvent:
    size = ctx.tx.head()[0]
    root = tree.root(ctx.tx.conn, size)
    line = signer.sign(tlog.body(signer.name, size, root))
    return NewEvent(STREAM, CheckpointSigned(
        origin=signer.name, size=size, root=base64.b64encode(root).decode(), key_id=signer.verifier.key_id.hex(),
        signature=line, occasion=occasion), game_time=game_time)


def sign(store: Store, campaign: Optional[str], *, actor: str, key_file: Optional[str] = None) -> Envelope:
    """Sign the tree of every event so far, now; the checkpoint's event."""
    return record(store, campaign, actor, lambda ctx: [_checkpoint(ctx, _signing(ctx, key_file), "on demand",
                                                                   ctx.today)])[0]


def signed_at_close(ctx: Context, closed: list[Envelope]) -> list[NewEvent]:
    """The checkpoint a session's close ends with, over its own events too. A
    campaign without a checkpoint key signs none; one whose key file cannot
    be used closes all the same, and the command says no checkpoint was signed."""
    if ctx.tx.latest_of(ctx.name, "checkpoint.key_recorded") is None:
        return []
    try:
        signer = _signing(ctx, None)
    except TallyError as exc:
        ctx.tx.note(f"no checkpoint was signed at this session's close: {exc}")
        return []
    return [_checkpoint(ctx, signer, "session close", closed[-1].game_time)]


def new_witness_key(name: str, path: str) -> Signer:
    """A player's own witness key (cosignature/v1), written to ``path`` (0600); nothing is recorded."""
    signer = generate(name, COSIGNATURE_V1)
    keys.write_key(Path(path), signer)
    return signer


def add_witness(store: Store, campaign: Optional[str], *, actor: str, vkey: str) -> Envelope:
    """Record a player's witness key, so their cosignatures can be recorded and checked."""
    verifier = parse_vkey(vkey, "the witness key")
    if verifier.kind != COSIGNATURE_V1:
        raise BadInput("that is a log key, not a witness key: a player makes theirs with "
                       "`tally keys witness NAME --out FILE`")

    def decide(ctx: Context) -> list[NewEvent]:
        if verifier in recorded_model.read(ctx.tx, ctx.name, [WITNESSES]).witness_verifiers(ctx.name):
            raise RuleRefused(f"witness {verifier.name} (key {verifier.key_id.hex()}) is already recorded")
        return [NewEvent(STREAM, WitnessAdded(name=verifier.name, key_id=verifier.key_id.hex(), vkey=verifier.vkey),
                         game_time=ctx.today)]

    return record(store, campaign, actor, decide)[0]


def _of_this_log(ctx_tx, checkpoint: tlog.Checkpoint, what: str) -> None:
    """The checkpoint's root is this ledger's tree's at its size."""
    head = ctx_tx.head()[0]
    if checkpoint.size > head:
        raise CheckpointRefuted(f"{what} is of {checkpoint.size} events but this ledger holds {head}")
    if checkpoint.size == 0 or tree.root(ctx_tx.conn, checkpoint.size) != checkpoint.root:
        raise CheckpointRefuted(f"{what} is not this ledger's tree of {checkpoint.size} events: "
                                "its root differs (run `tally verify --against` with it)")


def record_cosignatures(store: Store, campaign: Optional[str], *, actor: str, text: str,
                        what: str = "the checkpoint") -> list[Envelope]:
    """Record the cosignatures a checkpoint carries from the campaign's witnesses."""
    checkpoint = tlog.parse_checkpoint(text, what)

    def decide(ctx: Context) -> list[NewEvent]:
        ours = recorded_model.read(ctx.tx, ctx.name, [KEYS, WITNESSES, COSIGNED])
        tlog.signed_by(checkpoint, ours.log_verifiers(ctx.name), what, f"campaign {ctx.name}")
        _of_this_log(ctx.tx, checkpoint, what)
        found = tlog.cosigned_by(checkpoint, ours.witness_verifiers(ctx.name), what)
        if not found:
            raise RuleRefused(f"{what} carries no cosignature by a witness of campaign {ctx.name}: record the "
                              "player's witness key first (`tally keys add-witness VKEY`)")
        held = {(c.payload["witness"], c.payload["key_id"], c.payload["size"], c.payload["timestamp"])
                for c in ours.cosignatures if c.campaign == ctx.name}
        lines = {(s.name, s.key_id): s.line for s in checkpoint.note.signatures}
        new = []
        for key, timestamp in found:
            if (key.name, key.key_id.hex(), checkpoint.size, timestamp) in held:
                continue
            new.append(NewEvent(STREAM, CheckpointCosigned(
                origin=checkpoint.origin, size=checkpoint.size, root=checkpoint.root_b64, witness=key.name,
                key_id=key.key_id.hex(), timestamp=timestamp, signature=lines[(key.name, key.key_id)]),
                game_time=ctx.today))
        return new

    return record(store, campaign, actor, decide)


def cosign(store: Store, campaign: Optional[str], *, text: str, key_file: str, log_key: Optional[str] = None,
           what: str = "the checkpoint") -> str:
    """A player's witness cosigns a checkpoint, after checking it: signed by
    the log's key (the one they were given, or those the ledger records),
    this ledger's tree at that size, and no smaller than what this witness
    cosigned before. The cosigned checkpoint; nothing is written to the ledger."""
    checkpoint = tlog.parse_checkpoint(text, what)
    witness = keys.read_key(Path(key_file), "the witness key file")
    if witness.kind != COSIGNATURE_V1:
        raise BadInput(f"{key_file} holds a log key, not a witness key: `tally keys witness NAME --out FILE` "
                       "makes one")
    me = witness.verifier
    with store.reading() as tx:
        ctx = load(tx, campaign)
        ours = recorded_model.read(tx, ctx.name, [KEYS, COSIGNED])
        trusted = [parse_vkey(log_key, "--log-key")] if log_key else ours.log_verifiers(ctx.name)
        tlog.signed_by(checkpoint, trusted, what, "--log-key" if log_key else f"campaign {ctx.name}")
        _of_this_log(tx, checkpoint, what)
        mine = [c.payload["size"] for c in ours.cosignatures
                if (c.payload["witness"], c.payload["key_id"]) == (me.name, me.key_id.hex())]
    if mine and max(mine) > checkpoint.size:
        raise RuleRefused(f"witness {me.name} has cosigned the tree of {max(mine)} events already: a witness "
                          "cosigns only the largest tree it has seen; cosign a newer checkpoint")
    line = witness.sign(checkpoint.note.text, int(utc_now().timestamp()))
    others = tuple(s for s in checkpoint.note.signatures if not s.by(me))
    return Note(checkpoint.note.text, others + (Signature(me.name, me.key_id, b"", line),)).render()
