"""Snapshots written while the read models were frozen dataclasses stay usable
now that they are msgspec Structs: the same fields give the same shape stamp,
and a snapshot main wrote then loads into the Structs and is written back the
same (fixtures/snapshots/README.md says how it was made)."""

from __future__ import annotations

import dataclasses
import hashlib
import typing
import zlib
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from ledger.errors import SnapshotUnusable
from projections import snapshots
from projections import world as world_model

FIXTURE = Path(__file__).parent.parent / "fixtures" / "snapshots" / "world-before-structs.msgpack"


def _modules() -> list[ModuleType]:
    return [world_model] + [m for m in vars(world_model).values()
                            if isinstance(m, ModuleType) and m.__name__.startswith("projections.")]


def _read_models() -> list[type]:
    return [cls for module in _modules() for cls in vars(module).values()
            if isinstance(cls, type) and cls.__module__ == module.__name__ and issubclass(cls, msgspec.Struct)]


def _field_lines() -> list[str]:
    return sorted(f"{cls.__module__}.{cls.__qualname__}.{name}:{hint!r}"
                  for cls in _read_models() for name, hint in typing.get_type_hints(cls).items())


def _as_dataclasses(module: ModuleType) -> ModuleType:
    """A stand-in for a read model module whose Structs are frozen dataclasses
    of the same names and fields, as they were before."""
    twin = ModuleType(module.__name__)
    for name, cls in vars(module).items():
        if isinstance(cls, type) and cls.__module__ == module.__name__ and issubclass(cls, msgspec.Struct):
            was = dataclasses.make_dataclass(cls.__name__, list(typing.get_type_hints(cls).items()), frozen=True)
            was.__module__, was.__qualname__ = module.__name__, cls.__qualname__
            setattr(twin, name, was)
    return twin


def _shape_as_main_computed_it(modules: list[ModuleType]) -> str:
    """snapshots.shape as main had it (dbda517), while the read models were dataclasses."""
    parts = sorted(f"{cls.__module__}.{cls.__qualname__}.{name}:{hint!r}"
                   for module in modules for cls in vars(module).values()
                   if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
                   for name, hint in typing.get_type_hints(cls).items())
    return hashlib.sha256("\n".join([snapshots.FORMAT, *parts]).encode()).hexdigest()[:16]


def test_the_shape_stamp_of_the_structs_is_the_stamp_of_the_same_fields_as_dataclasses():
    twins = [_as_dataclasses(m) for m in _modules()]
    assert sum(dataclasses.is_dataclass(c) for t in twins for c in vars(t).values()) == len(_read_models()) >= 20
    assert snapshots.shape.__wrapped__() == _shape_as_main_computed_it(twins)
    # and the stamp still sees a field go (the twins are not blind)
    less = ModuleType(twins[0].__name__)
    less.World = dataclasses.make_dataclass("World", list(typing.get_type_hints(world_model.World).items())[:-1])
    less.World.__module__ = world_model.__name__
    assert _shape_as_main_computed_it([less, *twins[1:]]) != _shape_as_main_computed_it(twins)


def _same(a, b, where="world") -> None:
    """Two unpacked states alike: maps with the same keys in the same order, lists
    in the same order (a frozenset's in any: its order is the hash's)."""
    assert type(a) is type(b), where
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            _same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list) and a != b and all(isinstance(x, (str, int)) for x in a):
        assert sorted(a) == sorted(b), where
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def test_a_snapshot_written_by_the_dataclasses_loads_into_the_structs_and_is_written_back_alike():
    made = msgspec.msgpack.decode(FIXTURE.read_bytes())
    if made["fields"] != _field_lines():
        # The read models' fields changed since the fixture was written (it held the change from
        # dataclasses to Structs): its snapshot must now be refused as stale, never decoded.
        with pytest.raises(SnapshotUnusable) as refused:
            snapshots.load(made["state"], made["blobs"])
        assert refused.value.stale
        return
    assert snapshots.shape() == made["shape"]
    world = snapshots.load(made["state"], made["blobs"])  # SnapshotUnusable if stale or undecodable
    seen: set[type] = set()

    def walk(value) -> None:
        if isinstance(value, msgspec.Struct):
            seen.add(type(value))
            for name in value.__struct_fields__:
                walk(getattr(value, name))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, (tuple, list)):
            for v in value:
                walk(v)

    walk(world)
    assert seen == set(_read_models())  # every read model class was decoded from it
    assert world.sessions.archived and world.sessions.open_session and world.sealed.find("Room 1").revealed
    state, blobs = snapshots.dump(world)
    assert blobs == made["blobs"]
    before, after = (msgspec.msgpack.decode(zlib.decompress(s)) for s in (made["state"], state))
    _same(after, before)
    assert snapshots.load(state, blobs) == world
