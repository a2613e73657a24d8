"""Snapshots: the folded world at a position, so a query folds only the
events after it. Derived data — never trusted blindly:

a snapshot at position P (whose events reach game day G) is usable for a
query up to position N only if no event recorded in (P, N] belongs to a day
before G (it would have to be folded before events already in the snapshot),
no void recorded in (P, N] withdraws an event at or before P, and a game-date
pin, if any, is not before G. Otherwise the query folds from nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import pickle
from functools import lru_cache
from types import ModuleType
from typing import Iterable, Optional

from ledger.envelope import Envelope
from projections import world as world_model
from projections.timeline import VOID, Point, recorded

_ALLOWED_BUILTINS = {"frozenset", "set", "tuple", "dict", "list"}


class _Unpickler(pickle.Unpickler):
    """Only the read models' own classes come back from a snapshot."""

    def find_class(self, module, name):
        if module.startswith("projections.") or (module == "builtins" and name in _ALLOWED_BUILTINS) \
                or (module == "copyreg" and name in ("_reconstructor", "__newobj__")):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")


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


def dump(world: world_model.World) -> bytes:
    return pickle.dumps((shape(), world), protocol=pickle.HIGHEST_PROTOCOL)


def load(data: bytes) -> Optional[world_model.World]:
    """The snapshot's world, or None if it was written for read models of another shape."""
    try:
        stamp, world = _Unpickler(io.BytesIO(data)).load()
    except (pickle.UnpicklingError, ValueError, TypeError, AttributeError, EOFError):
        return None
    return world if stamp == shape() else None


def usable(snapshot_position: int, snapshot_day: int, later: Iterable[Envelope], point: Point) -> bool:
    if point.as_of is not None and point.as_of < snapshot_day:
        return False
    for e in later:
        if e.game_time < snapshot_day:
            return False
        if e.type == VOID and e.payload["target"] <= snapshot_position:
            return False
    return True


def fold_from(base: world_model.World, snapshot_position: int, envelopes: list[Envelope], point: Point,
              ) -> Optional[world_model.World]:
    """The world at ``point`` from a snapshot, or None if the snapshot cannot serve it."""
    held = recorded(envelopes, point)
    later = [e for e in held if e.position > snapshot_position]
    if len(held) - len(later) < 1 or held and max(e.position for e in held) < snapshot_position:
        return None
    withdrawn = {e.payload["target"] for e in later if e.type == VOID}
    facts = sorted((e for e in later if e.type != VOID and e.position not in withdrawn
                    and (point.as_of is None or e.game_time <= point.as_of)),
                   key=lambda e: (e.game_time, e.position))
    world = base
    for e in facts:
        world = world_model.apply(world, e)
    return world
