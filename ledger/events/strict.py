"""Each registered event model's payload as a strict msgspec Struct, derived
from the model itself: the decoder an import tries first (commands/import_lines.py).

A Pydantic validation, with the dict it needs built around it, cost an
import more than the rest of a line's checks (issue 29). The Struct is
read from the model's own fields, so it stays in step with it without a
second list to keep: a field of a type this module does not know how to
mirror exactly (a constraint, an alias, a custom type, a model whose config
does more than forbid extra fields) leaves its event type without a Struct,
and such a payload is validated by the model as before.

Each Struct is stricter than its model, never looser: every field required
(a payload that leaves a default out goes the model's way), no unknown
field even where the model would ignore one, whole numbers as JSON
integers within ±(2^53 − 1) (never a bool, a float or a numeric string,
which the model's lax mode would coerce), booleans as JSON booleans. So
what a Struct accepts the model accepts too; tests/test_import_fast.py
holds them to that.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import lru_cache
from typing import Annotated, Any, Literal, Optional, Union

import msgspec
from pydantic import BaseModel

from ledger.chain import SAFE_INTEGER

_INT = Annotated[int, msgspec.Meta(ge=-SAFE_INTEGER, le=SAFE_INTEGER)]
_CONFIG = {"frozen", "extra", "defer_build"}  # what a model's config may set and still be mirrored


class _Unmirrored(Exception):
    """A type or model this module does not mirror exactly."""


def decoder(type_name: str, schema: int) -> Optional[msgspec.json.Decoder]:
    """The strict decoder of a payload of ``type_name`` at ``schema``, or None where
    there is none: an unknown type, an older schema (the upcasters lift it, the
    model validates it) or a model not mirrored."""
    from ledger.events import registry

    registry._load_all()
    model = registry._MODELS.get(type_name)
    if model is None or schema != model.schema_version:
        return None
    return _decoder(model)


def current(type_name: str) -> tuple[Optional[int], Optional[msgspec.json.Decoder]]:
    """The schema version a ``type_name`` payload is recorded at today, and its strict
    decoder (or None: see ``decoder``); (None, None) for a type this tally does not know."""
    from ledger.events import registry

    registry._load_all()
    model = registry._MODELS.get(type_name)
    return (None, None) if model is None else (model.schema_version, _decoder(model))


@lru_cache(maxsize=None)
def _decoder(model: type[BaseModel]) -> Optional[msgspec.json.Decoder]:
    try:
        return msgspec.json.Decoder(_struct(model, exclude="type"))
    except (_Unmirrored, TypeError):  # TypeError: a union msgspec cannot tell apart
        return None


@lru_cache(maxsize=None)
def _struct(model: type[BaseModel], exclude: Optional[str] = None) -> type[msgspec.Struct]:
    decorators = model.__pydantic_decorators__
    if any(getattr(decorators, f.name) for f in dataclasses.fields(decorators)):
        raise _Unmirrored(model)  # a validator or serializer does what no Struct would
    if set(model.model_config) - _CONFIG or model.model_config.get("extra") not in (None, "forbid", "ignore"):
        raise _Unmirrored(model)
    fields = []
    for name, info in model.model_fields.items():
        if name == exclude:
            continue
        if info.metadata or info.alias or info.validation_alias or info.discriminator:
            raise _Unmirrored(model)
        fields.append((name, _mirror(info.annotation)))
    return msgspec.defstruct(f"Strict{model.__name__}", fields, forbid_unknown_fields=True, frozen=True)


def _mirror(annotation: Any) -> Any:
    if annotation is int:
        return _INT
    if annotation in (str, bool, type(None)):
        return annotation
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal and all(type(arg) is str for arg in args):
        return annotation
    if origin in (Union, types.UnionType):
        return Union[tuple(_mirror(arg) for arg in args)]
    if origin is list and len(args) == 1:
        return list[_mirror(args[0])]
    if origin is dict and len(args) == 2 and args[0] is str:
        return dict[str, _mirror(args[1])]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _struct(annotation)
    raise _Unmirrored(annotation)
