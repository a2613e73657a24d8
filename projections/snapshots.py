"""Snapshots: the folded world at a position, as plain data, and read back.

A snapshot's state is MessagePack (through msgspec), compressed: a header —
the read models' shape stamp and the digests of the packed session
archives it holds — and the world without those archives, which are stored
once, apart, and shared by every snapshot that holds them. It is decoded
into the read models' own Structs by a typed decoder that checks every
field's type; nothing in it is ever executed or names code. ledger/snapshot_rows.py
checks a stored row (its digest, the event it is bound to, its blobs)
before its state reaches ``load``; projections/replay.py decides when one may
serve a query.
"""

from __future__ import annotations

import dataclasses
import hashlib
import typing
import zlib
from functools import lru_cache
from types import ModuleType
from typing import Mapping, Optional

import msgspec
from msgspec.structs import replace

from ledger.errors import SnapshotUnusable
from projections import world as world_model

FORMAT = "msgpack-1"  # how the state is laid out; part of the shape stamp
MAX_STATE = 256 * 2**20  # a state never unpacks past this (a forged one could be a zip bomb)

_ENCODER = msgspec.msgpack.Encoder()
_HEADER = msgspec.msgpack.Decoder(tuple[str, tuple[str, ...], msgspec.Raw])
_WORLD = msgspec.msgpack.Decoder(world_model.World)


def _read_model(cls: type) -> bool:
    """A class whose fields the stamp takes in: the read models are msgspec Structs (they were
    dataclasses once, and the stamp reads both alike, so the same fields give the same stamp
    and snapshots written before the change stay usable)."""
    return issubclass(cls, msgspec.Struct) or dataclasses.is_dataclass(cls)


@lru_cache(maxsize=1)
def shape() -> str:
    """A fingerprint of the state's layout and of the read models' fields and
    their resolved types: a snapshot written by code whose read models had
    another shape is never used."""
    modules = [world_model] + [m for m in vars(world_model).values()
                               if isinstance(m, ModuleType) and m.__name__.startswith("projections.")]
    parts = sorted(f"{cls.__module__}.{cls.__qualname__}.{name}:{hint!r}"
                   for module in modules for cls in vars(module).values()
                   if isinstance(cls, type) and _read_model(cls) and cls.__module__ == module.__name__
                   for name, hint in typing.get_type_hints(cls).items())
    return hashlib.sha256("\n".join([FORMAT, *parts]).encode()).hexdigest()[:16]


def blob_name(data: bytes) -> str:
    """A blob is named by its SHA-256: the name is a check of its content."""
    return hashlib.sha256(data).hexdigest()


def dump(world: world_model.World) -> tuple[bytes, dict[str, bytes]]:
    """The world as a snapshot's state (MessagePack, compressed at zlib's
    fastest level) and the packed session archives it holds, by name. The
    archives are the same from one snapshot to the next: each is stored once
    and every snapshot that holds it names it, so snapshots of a long
    campaign do not each carry its whole history."""
    archives = world.sessions.archived
    names = tuple(blob_name(blob) for blob in archives)
    bare = replace(world, sessions=replace(world.sessions, archived=()))
    state = zlib.compress(_ENCODER.encode((shape(), names, bare)), 1)
    return state, dict(zip(names, archives))


def stamp(head: bytes) -> Optional[str]:
    """The shape stamp a state's first bytes carry (256 are plenty: zlib gives back less than it
    is given), or None where they do not begin as ``dump`` writes a state: a MessagePack array
    whose first item is the stamp."""
    try:
        packed = zlib.decompressobj().decompress(head, 64)
    except zlib.error:
        return None
    if len(packed) < 2 or packed[0] != 0x93 or not 0xa0 <= packed[1] <= 0xbf:  # an array of 3; a short string
        return None
    size = packed[1] - 0xa0
    text = packed[2:2 + size]
    return text.decode("ascii", "replace") if len(text) == size else None


def load(state: bytes, blobs: Mapping[str, bytes]) -> world_model.World:
    """The world a snapshot's state holds, with its archives put back from
    ``blobs`` (already checked against their names by the store); or
    SnapshotUnusable, saying why: written for read models of another shape
    (``stale``), or not a state this code wrote."""
    try:
        unpacker = zlib.decompressobj()
        packed = unpacker.decompress(state, MAX_STATE)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise SnapshotUnusable("its state is truncated or too large")
        stamp, names, raw = _HEADER.decode(packed)
    except (zlib.error, msgspec.DecodeError, RecursionError):
        raise SnapshotUnusable("its state is not a snapshot this tally wrote") from None
    if stamp != shape():
        raise SnapshotUnusable("it was written for read models of another shape", stale=True)
    missing = [name for name in names if name not in blobs]
    if missing:
        raise SnapshotUnusable(f"its state names blob {missing[0][:12]}… that the row does not")
    try:
        world = _WORLD.decode(raw)
    except (msgspec.DecodeError, RecursionError) as exc:
        detail = (str(exc).splitlines() or [""])[0][:120]
        raise SnapshotUnusable(f"its state does not decode into the read models ({detail})") from None
    if world.sessions.archived:
        raise SnapshotUnusable("its state holds session archives inline")
    return replace(world, sessions=replace(world.sessions, archived=tuple(blobs[name] for name in names)))
