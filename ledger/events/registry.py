"""The registry of event types: one Pydantic model per dotted type name,
joined in one discriminated union; payloads recorded under an older schema
version are lifted to the current one by the upcasters (ledger/events/upcasters.py).

A stored payload never carries its type (the envelope does); decoding puts
the type back as the discriminator and validates in one call.
"""

from __future__ import annotations

import types
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ledger.errors import BadInput
from ledger.events import upcasters

# One module per area; each registers its event types when imported. They are
# imported when first needed — by a command that records one of their events,
# or by the registry when it decodes — so a roll at the table does not build
# the models of every rules module first.
MODULES = ("calendar", "campaign", "checkpoints", "coeac", "dice", "downtime", "gods", "sealed", "sheet", "skirmish",
           "stable",
           "wolves", "xp")

_MODELS: dict[str, type["EventModel"]] = {}
_TYPE_TAG = {"type": True}  # exclude= as a mapping: the serializer takes it fastest (read, never changed)


class EventModel(BaseModel):
    """A small, flat, past-tense fact. Subclasses set ``type`` to a Literal
    default and may raise ``schema_version`` when their payload changes."""

    # Each model's validator is built when the model is first used: a roll builds its own,
    # not those of every event type its module declares.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    schema_version: ClassVar[int] = 1

    def payload(self) -> dict[str, Any]:
        """The payload as stored: every field but the type tag, as ``model_dump(mode="json",
        exclude={"type"})`` gives it. Of a flat model (``_flat``: text, whole numbers, flags
        and None, nothing that serializes otherwise) that is its fields' values as they are:
        taken from the instance, without the serializer (1.3 µs of an append's ~22, every
        event; tests/test_event_payloads.py holds the two equal for every stored type).
        Otherwise the model's serializer is asked, without model_dump's wrapper."""
        kind = type(self)
        flat = _FLAT.get(kind)
        if flat is None:
            flat = _FLAT[kind] = _flat(kind)
        if flat:
            fields = self.__dict__.copy()
            del fields["type"]
            return fields
        return self.__pydantic_serializer__.to_python(self, mode="json", exclude=_TYPE_TAG)

    @classmethod
    def type_name(cls) -> str:
        return cls.model_fields["type"].default


_FLAT: dict[type, bool] = {}
_SCALARS = (str, int, bool, type(None))


def _plain(annotation: Any) -> bool:
    """A field type whose values JSON mode serializes as themselves: str, int, bool, None, a
    Literal of those, a union of them, any of them constrained (Annotated)."""
    if annotation in _SCALARS:
        return True
    origin = get_origin(annotation)
    if origin is Literal:
        return all(type(value) in _SCALARS for value in get_args(annotation))  # (an Enum member is not)
    if origin is Union or origin is types.UnionType:
        return all(_plain(arg) for arg in get_args(annotation))
    if origin is Annotated:
        return _plain(get_args(annotation)[0])
    return False


def _flat(kind: type[EventModel]) -> bool:
    """Whether the model's payload is its fields' values as they are: every field plain and
    serialized as itself — no serializer, computed field, excluded field or extra field."""
    decorators = kind.__pydantic_decorators__
    if decorators.field_serializers or decorators.model_serializers or kind.model_computed_fields:
        return False
    return kind.model_config.get("extra") == "forbid" and all(
        _plain(field.annotation) and not field.exclude for field in kind.model_fields.values())


def register(model: type[EventModel]) -> type[EventModel]:
    """Class decorator: add an event model to the registry."""
    name = model.type_name()
    if name in _MODELS:
        raise RuntimeError(f"event type {name} registered twice")
    _MODELS[name] = model
    _adapter.cache_clear()
    return model


def known_types() -> list[str]:
    _load_all()
    return sorted(_MODELS)


def model_for(type_name: str) -> type[EventModel]:
    _load_all()
    try:
        return _MODELS[type_name]
    except KeyError:
        raise BadInput(
            f"unknown event type {type_name!r}: this version of tally knows "
            f"{len(_MODELS)} types (see `tally log --type`); upgrade tally if the "
            "ledger was written by a newer one"
        ) from None


def upcast(type_name: str, schema: int, payload: dict[str, Any]) -> dict[str, Any]:
    """Lift a payload from its recorded schema version to the current one."""
    return upcasters.upcast(type_name, schema, payload, to=model_for(type_name).schema_version)


def decode(type_name: str, schema: int, payload: dict[str, Any]) -> EventModel:
    """A stored payload as its event model, upcast and validated."""
    _load_all()
    model = _MODELS.get(type_name)
    # Nearly every payload is at its type's current schema: no upcasting to look up.
    body = payload if model is not None and schema == model.schema_version else upcast(type_name, schema, payload)
    try:
        return _adapter().validate_python({**body, "type": type_name})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "payload"
        raise BadInput(f"invalid {type_name} payload: {where}: {first['msg']}") from None


@lru_cache(maxsize=1)
def _adapter() -> TypeAdapter:
    models = tuple(_MODELS.values())
    union = Annotated[Union[models], Field(discriminator="type")]  # type: ignore[valid-type]
    return TypeAdapter(union)


_loaded = False


def _load_all() -> None:
    # Importing a module registers its event types, exactly once.
    global _loaded
    if _loaded:
        return
    from importlib import import_module

    for name in MODULES:
        import_module(f"ledger.events.{name}")
    _loaded = True
