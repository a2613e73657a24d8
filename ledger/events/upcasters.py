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

import re
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


# -- issue 15: gods and xp record the settings and figures they now use ------

@upcaster("god.adopted", 1)
def _adopted_v1(payload: dict) -> dict:
    # Recorded before alignments were matched and god_adoption existed: neither was checked.
    payload.update(character_alignment=None, adoption=None)
    return payload


@upcaster("god.black_mark", 2)
def _black_mark_v2(payload: dict) -> dict:
    payload["bonus_lost"] = 0  # a mark never ended a banked bonus before crawl_bonus
    return payload


@upcaster("god.prayed", 1)
def _prayed_v1(payload: dict) -> dict:
    # Halving rounded down, a banked bonus was spent by the next plea, and X was never lifted.
    payload.update(rounding="down" if payload["excessive"] else None,
                   crawl_bonus="next_plea" if payload["modifiers"].get("crawling_bonus") else None,
                   lifts_x=None)
    return payload


@upcaster("god.repented", 1)
def _repented_v1(payload: dict) -> dict:
    payload.update(grey=None, marks=payload["black"], marks_rule="black", beyond="never", relapse="plus3")
    return payload


@upcaster("god.punishment_checked", 1)
def _punishment_v1(payload: dict) -> dict:
    payload.update(reason="threshold", chance=50)
    return payload


@upcaster("god.battle", 1)
def _battle_v1(payload: dict) -> dict:
    # v1 only named the penalty in words ("A.T. and D.T. -10 …"); it was always the loser's 10.
    payload.pop("penalty", None)
    loser = payload["opponent"] if payload["winner"] == payload["character"] else payload["character"]
    payload.update(loser=loser, penalty=10, plea=None, opponent_plea=None)
    return payload


@upcaster("xp.awarded", 1)
def _xp_v1(payload: dict) -> dict:
    payload["treasure_rule"] = "seized" if payload["source"] == "treasure" else None
    return payload


# -- wolves (seed 000) --------------------------------------------------------------

@upcaster("wolves.outfitted", 1)
def _outfitted_v1(payload: dict) -> dict:
    # Schema 1 took every price as given and rolled 1d6/2 rounding up, keeping only the result.
    payload.update(stated=list(payload["spent"]), languages_die=None, languages_rounding="up", half_known=0)
    return payload


@upcaster("companion.left", 1)
def _companion_left_v1(payload: dict) -> dict:
    payload.update(supported=None, upkeep=None)  # schema 1: only ever a departure the referee logged
    return payload


@upcaster("hireling.hired", 1)
def _hired_v1(payload: dict) -> dict:
    payload.update(silver=None, owed=None, cover_days=None)  # schema 1 did not check the wages could be paid
    return payload


@upcaster("boast.made", 1)
def _boast_made_v1(payload: dict) -> dict:
    payload.update(hp=0, passed_from=None)  # schema 1 rolled no HP for a boast's Hit Dice
    return payload


@upcaster("boast.resolved", 1)
def _boast_resolved_v1(payload: dict) -> dict:
    payload["hp"] = 0
    return payload


@upcaster("ship.acquired", 1)
def _ship_v1(payload: dict) -> dict:
    payload.update(price=0, by=None)  # schema 1 ships were all taken, never bought
    return payload


# -- skirmish (seed 003) ----------------------------------------------------------------

@upcaster("luck.changed", 2)
def _luck_v2(payload: dict) -> dict:
    payload["rerolls"] = None  # schema 2 spent the point and re-rolled nothing itself
    return payload


@upcaster("skirmish.level_set", 1)
def _level_set_v1(payload: dict) -> dict:
    payload.update(stat_cap=None, skill_allowance=None)  # schema 1 capped nothing
    return payload


@upcaster("wound.healing", 1)
def _healing_v1(payload: dict) -> dict:
    payload.update(healer=None, skill=None, ladder=None)  # schema 1: a bonus as the referee gave it
    return payload


@upcaster("clothing.worn", 1)
def _clothing_v1(payload: dict) -> dict:
    # Schema 1 refused armour: every clothing it recorded leaves movement and deadliness alone.
    payload.update(movement_modifier=0, deadliness_modifier=0)
    return payload


# -- calendars and rolls brought in (issue 19), checked rolls (issue 16) ----------------

@upcaster("calendar.advanced", 1)
def _advanced_v1(payload: dict) -> dict:
    # Schema 1 counted days only; it named no span and clamped no date.
    payload.setdefault("span", None)
    payload.setdefault("note", None)
    return payload


@upcaster("dice.rolled", 1)
def _rolled_v1(payload: dict) -> dict:
    # Schema 1 rolls were all rolled in tally (no source, every face counted)
    # and none was checked against a target.
    for key in ("source", "source_id", "speaker", "rolled_at", "exact_total", "check"):
        payload.setdefault(key, None)
    payload.setdefault("dropped", [])
    return payload


@upcaster("dice.rolled", 2)
def _rolled_v2(payload: dict) -> dict:
    return {**payload, "on": None}  # schema 2 rolls were on no sealed table (issue 27)


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


@upcaster("god.crawled", 1)
def _crawled_v1(payload: dict) -> dict:
    # Before crawl_stacking a banked bonus added to any banked before.
    return {**payload, "stacking": "add"}


# -- issue 28: a retirement records the faction roll it decided on ------------

@upcaster("character.retired", 1)
def _retired_v1(payload: dict) -> dict:
    # The roll was logged beside it but not the Reputation it beat: nothing to hold a late fact to.
    payload.update(faction_roll=None, rep_before=None)
    return payload


@upcaster("ledger.ruling", 1)
def _ruling_v1(payload: dict) -> dict:
    # Schema 1 named only the first event broken, in words: "event 12 (cash.changed, 1024-03-05): …".
    found = re.match(r"event (\d+) \(", payload["breaks"])
    payload["broken"] = [int(found.group(1))] if found else []
    return payload
