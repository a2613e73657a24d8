"""Snapshots: the folded world at a position, written and read back.

Derived data, never trusted blindly: ledger/replay.py decides when one may
serve a query; here a snapshot written by code whose read models had
another shape is refused, and only the read models' own classes come back
from the pickle.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import pickle
import zlib
from functools import lru_cache
from types import ModuleType
from typing import Optional

from projections import world as world_model

_ALLOWED_BUILTINS = {"frozenset", "set", "tuple", "dict", "list"}


class _Unpickler(pickle.Unpickler):
    """Only the read models' own classes come back from a snapshot."""

    def find_class(self, module, name):
        if module.startswith("projections.") or (module == "builtins" and name in _ALLOWED_BUILTINS) \
                or (module == "copyreg" and name in ("_reconstructor", "__newobj__")):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")

    def persistent_load(self, pid):
        if not isinstance(pid, str):
            raise pickle.UnpicklingError("a snapshot names its blobs by digest")
        return self.blobs[pid]  # KeyError: a blob that is not stored


@lru_cache(maxsize=1)
def shape() -> str:
    """A fingerprint of the read models' fields: a snapshot written by code
    whose read models had another shape is never used."""
    modules = [world_model] + [m for m in vars(world_model).values()
                               if isinstance(m, ModuleType) and m.__name__.startswith("projections.")]
    parts = sorted(f"{cls.__module__}.{cls.__qualname__}.{f.name}:{f.type}"
                   for module in modules for cls in vars(module).values()
                   if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
                   for f in dataclasses.fields(cls))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


BLOB_FROM = 1024  # byte strings at least this long are stored once, apart, and shared


def dump(world: world_model.World) -> tuple[bytes, dict[str, bytes]]:
    """The world pickled and compressed (zlib's fastest level), and the large
    byte strings it holds, by digest. Those are the packed session archives,
    the same from one snapshot to the next: each is stored once and every
    snapshot that holds it names it, so snapshots of a long campaign do not
    each carry its whole history."""
    blobs: dict[str, bytes] = {}

    class Pickler(pickle.Pickler):
        def persistent_id(self, obj):
            if type(obj) is bytes and len(obj) >= BLOB_FROM:
                digest = hashlib.sha256(obj).hexdigest()
                blobs[digest] = obj
                return digest
            return None

    out = io.BytesIO()
    Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump((shape(), world))
    return zlib.compress(out.getvalue(), 1), blobs


def load(data: Optional[bytes], blobs: Optional[dict[str, bytes]] = None) -> Optional[world_model.World]:
    """The snapshot's world, or None if there is none, a blob it names is
    missing, or it was written for read models of another shape."""
    if data is None:
        return None
    try:
        unpickler = _Unpickler(io.BytesIO(zlib.decompress(data)))
        unpickler.blobs = blobs or {}
        stamp, world = unpickler.load()
    except (pickle.UnpicklingError, zlib.error, ValueError, TypeError, AttributeError, EOFError, KeyError):
        return None
    return world if stamp == shape() else None
