"""An event's payload as stored: a flat model's fields taken as they are
(ledger/events/registry.py ``EventModel.payload``) must be exactly what the
model's JSON-mode serializer gives, or the hash and the stored text would
depend on which way a payload was taken. Held side by side for every event of
a generated campaign and of the fixtures' scripts, and for the kinds of field
that must not be taken as they are."""

from __future__ import annotations

import enum
import io
from pathlib import Path
from typing import Annotated, Literal, Optional

import pytest
from pydantic import BaseModel, Field, computed_field, field_serializer

from bench.generator import generate
from ledger.events import registry
from ledger.events.registry import EventModel, _flat
from tests.conftest import Tally

FIXTURES = Path(__file__).parent.parent / "fixtures"


def serialized(model: EventModel) -> dict:
    return model.__pydantic_serializer__.to_python(model, mode="json", exclude={"type": True})


def same(a, b) -> bool:
    """Equal, and of the same types all the way down (True is not 1, a str subclass not a str)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))
    return a == b


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> list[tuple[str, int, dict]]:
    """(type, schema, payload) of every event of a generated campaign and of each fixture script."""
    import json

    out = io.StringIO()
    generate(out, events=3000, seed=11)
    found = [(e["type"], e["schema"], e["payload"]) for e in map(json.loads, out.getvalue().splitlines())]
    folder = tmp_path_factory.mktemp("payloads")
    for script in sorted(FIXTURES.glob("*.tally")):
        t = Tally(f"sqlite:///{folder / (script.stem + '.db')}")
        t.ok("script", str(script), "--quiet")
        found += [(e["type"], e["schema"], e["payload"]) for e in t.ok("log", "--json").json]
    return found


def test_a_flat_model_s_payload_is_what_its_serializer_gives_for_every_stored_event(stored):
    seen_flat = set()
    for type_name, schema, payload in stored:
        model = registry.decode(type_name, schema, payload)
        assert same(model.payload(), serialized(model)), type_name
        if _flat(type(model)):
            seen_flat.add(type_name)
    assert len(seen_flat) >= 40, sorted(seen_flat)  # most of the flat types, not a handful


def test_what_is_flat_and_what_is_not():
    class Colour(enum.Enum):
        RED = "red"

    class Inner(BaseModel):
        n: int

    class Flat(EventModel):
        type: Literal["test.flat"] = "test.flat"
        name: str
        count: Annotated[int, Field(ge=0)]
        maybe: Optional[int] = None
        either: int | str = 0
        flag: bool = False
        mode: Literal["a", "b"] = "a"

    assert _flat(Flat)
    flat = Flat(name="x", count=3, maybe=None, either="y", flag=True)
    assert same(flat.payload(), serialized(flat)) and flat.payload() == {
        "name": "x", "count": 3, "maybe": None, "either": "y", "flag": True, "mode": "a"}

    class WithList(EventModel):
        type: Literal["test.list"] = "test.list"
        tags: list[str]

    class WithEnum(EventModel):
        type: Literal["test.enum"] = "test.enum"
        colour: Colour

    class WithEnumLiteral(EventModel):
        type: Literal["test.enum-literal"] = "test.enum-literal"
        colour: Literal[Colour.RED]

    class WithModel(EventModel):
        type: Literal["test.model"] = "test.model"
        inner: Inner

    class WithFloat(EventModel):
        type: Literal["test.float"] = "test.float"
        share: float

    class WithSerializer(EventModel):
        type: Literal["test.serializer"] = "test.serializer"
        name: str

        @field_serializer("name")
        def _upper(self, value: str) -> str:
            return value.upper()

    class WithComputed(EventModel):
        type: Literal["test.computed"] = "test.computed"
        name: str

        @computed_field
        @property
        def shout(self) -> str:
            return self.name.upper()

    class WithExcluded(EventModel):
        type: Literal["test.excluded"] = "test.excluded"
        name: str
        hidden: str = Field(default="", exclude=True)

    for kind in (WithList, WithEnum, WithEnumLiteral, WithModel, WithFloat, WithSerializer, WithComputed,
                 WithExcluded):
        assert not _flat(kind), kind.__name__
    # ... and their payloads still come from the serializer, which serializes them otherwise:
    assert WithEnum(colour=Colour.RED).payload() == {"colour": "red"}
    assert WithModel(inner=Inner(n=1)).payload() == {"inner": {"n": 1}}
    assert WithSerializer(name="x").payload() == {"name": "X"}
    assert WithComputed(name="x").payload() == {"name": "x", "shout": "X"}
    assert WithExcluded(name="x", hidden="y").payload() == {"name": "x"}
