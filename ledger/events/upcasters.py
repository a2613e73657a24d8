"""Upcasters: pure ``dict -> dict`` steps, keyed by (type, from-version),
that lift a payload recorded under an older schema to the next one.

They live apart from the Pydantic models so the read path can bring every
stored payload to its type's current schema without building a single
model: a query folds plain dicts. A type's current schema is one past its
last step (1 when it has none); its model declares the same number
(``EventModel.schema_version``), which tests/test_decoder.py checks.
Every step is defined in this module, never beside its model: a step the
read path has not imported is a payload folded in its old shape.
"""

from __future__ import annotations

from typing import Any, Callable

from ledger.errors import BadInput
from ledger.rules.coeac import SAVES, SKILLS

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

_STEPS: dict[tuple[str, int], Upcaster] = {}
CURRENT: dict[str, int] = {}  # type -> current schema, for the types past 1 (filled by upcaster())


def upcaster(type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Decorator: the step from ``from_version`` to ``from_version + 1``."""

    def wrap(fn: Upcaster) -> Upcaster:
        _STEPS[(type_name, from_version)] = fn
        CURRENT[type_name] = max(CURRENT.get(type_name, 1), from_version + 1)
        return fn

    return wrap


def current_schema(type_name: str) -> int:
    return CURRENT.get(type_name, 1)


def upcast(type_name: str, schema: int, payload: dict[str, Any], to: int | None = None) -> dict[str, Any]:
    """The payload lifted from ``schema`` to ``to`` (the type's current schema),
    step by step; a new dict, the stored one untouched."""
    current = current_schema(type_name) if to is None else to
    if schema > current:
        raise BadInput(f"event type {type_name} has schema {schema}, newer than this tally "
                       f"knows ({current}): upgrade tally")
    while schema < current:
        step = _STEPS.get((type_name, schema))
        if step is None:
            raise BadInput(f"no upcaster for {type_name} from schema {schema}")
        payload = step(dict(payload))
        schema += 1
    return payload


# -- the ledger's own steps -------------------------------------------------

@upcaster("character.died", 1)
def _death_names_its_character(payload: dict[str, Any]) -> dict[str, Any]:
    # Schema 2 names the character under `character`, as every other event about one does.
    payload["character"] = payload.pop("name")
    return payload


@upcaster("luck.changed", 1)
def _luck_v1(payload: dict) -> dict:
    payload.pop("after", None)
    return payload


@upcaster("project.ticked", 1)
def _ticked_v1(payload: dict) -> dict:
    payload.pop("filled", None)
    payload.pop("done", None)
    return payload


@upcaster("god.black_mark", 1)
def _black_mark_v1(payload: dict) -> dict:
    payload.pop("black_after", None)
    return payload


@upcaster("save.lost", 1)
def _save_v1(payload: dict) -> dict:
    payload.pop("after", None)
    return payload


@upcaster("skill.reduced", 1)
def _skill_v1(payload: dict) -> dict:
    payload.pop("after", None)
    return payload


@upcaster("wealth.attempted", 1)
def _wealth_v1(payload: dict) -> dict:
    payload.pop("rank_to", None)
    return payload


@upcaster("stronghold.attempted", 1)
def _stronghold_v1(payload: dict) -> dict:
    payload.pop("rank_to", None)
    return payload


@upcaster("reputation.changed", 1)
def _reputation_v1(payload: dict) -> dict:
    # v1 stored the result; a clamped one shows the limit it met, the rule's ±6 otherwise.
    after, clamped = payload.pop("after"), payload.pop("clamped")
    payload["limit"] = abs(after) if clamped else 6
    return payload


# Issue 14: the once-per-session limit, the stronghold pool and the Trauma pick
# became settings; an older payload was decided under the readings of its day.
@upcaster("wealth.attempted", 2)
def _wealth_v2(payload: dict) -> dict:
    return {**payload, "limit": "epoch"}


@upcaster("stronghold.attempted", 2)
def _stronghold_v2(payload: dict) -> dict:
    return {**payload, "limit": "epoch", "wealth_dice": 0, "pool": payload["wager"], "pool_rule": "cash"}


@upcaster("save.lost", 2)
def _save_v2(payload: dict) -> dict:
    return {**payload, "pick": "any", "among": list(SAVES)}


@upcaster("skill.reduced", 2)
def _skill_v2(payload: dict) -> dict:
    # The second Skill of an Impairment was picked from the sixteen left; which
    # sixteen the payload cannot say, so it names the seventeen.
    return {**payload, "pick": "any", "among": list(SKILLS)}


@upcaster("project.ticked", 2)
def _ticked_v2(payload: dict) -> dict:
    # Before project_ticks every downtime action given a project filled a tick.
    return {**payload, "period": "", "rule": "action"}


@upcaster("gear.broken", 1)
def _gear_v1(payload: dict) -> dict:
    # Schema 1 counted the broken items without naming them: none is known to be gone.
    return {"character": payload["character"], "count": payload["items"], "broken": [], "saved": [],
            "note": payload["note"]}
