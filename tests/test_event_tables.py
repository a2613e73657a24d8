"""The read models' tables of handlers (projections/handlers.py) against the
registry of event types: every type is folded by some read model or listed
as described only, has exactly one line, keeps its premise where the
timeline check folds it, and every older schema of it upcasts to a payload
its current model validates. Each check is shown to fail on a table with
one entry taken out or one planted."""

from __future__ import annotations

import pytest

from ledger.events import upcasters
from ledger.events.registry import decode, known_types, model_for
from projections import dice, world
from projections.describe import NOT_FOLDED, TABLES
from projections.handlers import Table


def registered() -> list[str]:
    """The registry's types, without those a test module registers for itself (tests/test_registry.py)."""
    return [t for t in known_types() if not model_for(t).__module__.startswith("tests.")]


def gaps(tables: tuple[Table, ...], described_only: dict, types: list[str]) -> list[str]:
    """What the tables leave out or say twice, one line each; [] when they are whole."""
    problems = []
    known = set(types)
    folding = {t: [table.model for table in tables if t in table.handlers] for t in known}
    world_tables = {table.model for table in world.TABLES}
    for t in sorted(known):
        if not folding[t] and t not in described_only:
            problems.append(f"{t}: folded by no read model and not listed as described only")
        if folding[t] and t in described_only:
            problems.append(f"{t}: folded by {', '.join(folding[t])} yet listed as described only")
        lines = [table.model for table in tables if t in table.handlers and table.handlers[t].line is not None]
        lines += ["described only"] if t in described_only else []
        if len(lines) != 1:
            problems.append(f"{t}: {len(lines)} descriptions ({', '.join(lines) or 'none'})")
    for table in tables:
        for t, handler in table.handlers.items():
            if t not in known:
                problems.append(f"{t}: the {table.model} table folds a type the registry does not know")
            elif handler.premise is not None and table.model not in world_tables:
                problems.append(f"{t}: its premise is in the {table.model} table, which the timeline check never folds")
    premised = [t for table in tables for t, h in table.handlers.items() if h.premise is not None]
    problems += [f"{t}: {premised.count(t)} premises" for t in sorted(set(premised)) if premised.count(t) > 1]
    problems += [f"{t}: described only, but the registry does not know it" for t in described_only if t not in known]
    return problems


def test_every_event_type_is_folded_or_described_only_and_described_once():
    assert len(registered()) > 100
    assert gaps(TABLES, NOT_FOLDED, registered()) == []


def test_what_the_world_and_the_log_use_is_derived_from_the_tables():
    from projections import describe

    for t in registered():
        folders = tuple(i for i, table in enumerate(world.TABLES) if t in table.handlers)
        # the world hands an event to the models whose table names it, and to the two that see every event
        everyone = tuple(i for i, table in enumerate(world.TABLES) if table.otherwise is not None)
        assert world._reacting(t) == tuple(sorted(set(folders) | set(everyone))), t
        assert world.needs_payload(t) == bool(folders), t
        assert (t in world.PREMISES) == any(t in tb.handlers and tb.handlers[t].premise for tb in world.TABLES), t
        assert t in describe._LINES, t
    # a type with no description shows its payload, as before
    assert describe.line(_envelope("test.unknown", {"a": 1, "b": None})) == "a=1"


def _envelope(event_type: str, payload: dict):
    from ledger.envelope import Envelope

    return Envelope(1, "C", "s", 1, event_type, 1, 1, "", None, "", None, payload, "", "")


def _without(table: Table, event_type: str, *, line_only: bool = False) -> Table:
    """A copy of the table with one type's entry (or only its line) taken out."""
    copy = Table(table.model)
    copy.otherwise = table.otherwise
    for t, h in table.handlers.items():
        if t != event_type:
            copy.add(t, h.fold, line=h.line, premise=h.premise)
        elif line_only:
            copy.add(t, h.fold, premise=h.premise)
    return copy


def _replaced(table: Table) -> tuple[Table, ...]:
    return tuple(table if t.model == table.model else t for t in TABLES)


@pytest.mark.parametrize("model, event_type, line_only, expected", [
    # a fold and its line taken out: the type is folded by nobody and described by nobody
    ("wolves", "silver.changed", False, "silver.changed: folded by no read model"),
    ("gods", "god.adopted", False, "god.adopted: 0 descriptions (none)"),
    # only the line taken out: still folded, no longer described
    ("stable", "cash.changed", True, "cash.changed: 0 descriptions (none)"),
    ("dice", "dice.rolled", True, "dice.rolled: 0 descriptions (none)"),
    # a type folded by several models: the fold that describes it gone, the others still fold it
    ("stable", "treasure.divided", False, "treasure.divided: 0 descriptions (none)"),
])
def test_a_table_with_an_entry_taken_out_is_caught(model, event_type, line_only, expected):
    (table,) = [t for t in TABLES if t.model == model]
    problems = gaps(_replaced(_without(table, event_type, line_only=line_only)), NOT_FOLDED, registered())
    assert any(p.startswith(expected) for p in problems), problems


def test_a_described_only_type_taken_out_is_caught():
    described = {t: line for t, line in NOT_FOLDED.items() if t != "ledger.ruling"}
    assert gaps(TABLES, described, registered()) == [
        "ledger.ruling: folded by no read model and not listed as described only",
        "ledger.ruling: 0 descriptions (none)"]


def test_planted_types_lines_and_premises_are_caught():
    # a new event type in the registry that no table names
    assert gaps(TABLES, NOT_FOLDED, registered() + ["ship.sunk"]) == [
        "ship.sunk: folded by no read model and not listed as described only", "ship.sunk: 0 descriptions (none)"]
    (wolves,) = [t for t in TABLES if t.model == "wolves"]
    planted = _without(wolves, "")
    # a fold for a type the registry does not know (a misspelt one would never be handed an event)
    planted.add("ship.sunkk", lambda s, p, e: s)
    # a second line for a type another table describes
    planted.add("treasure.found", lambda s, p, e: s, line=lambda p: "found")
    assert gaps(_replaced(planted), NOT_FOLDED, registered()) == [
        "treasure.found: 2 descriptions (sessions, wolves)",
        "ship.sunkk: the wolves table folds a type the registry does not know"]
    # a premise where the timeline check never folds, and one type with two premises
    rolls = _without(dice.TABLE, "dice.rolled")
    rolls.add("dice.rolled", dice.TABLE.handlers["dice.rolled"].fold, line=dice.TABLE.handlers["dice.rolled"].line,
              premise=lambda world, p, day: None)
    (gods,) = [t for t in TABLES if t.model == "gods"]
    twice = _without(wolves, "")
    twice.add("god.prayed", lambda s, p, e: s, premise=gods.handlers["god.prayed"].premise)
    tables = tuple(rolls if t.model == "dice" else twice if t.model == "wolves" else t for t in TABLES)
    assert gaps(tables, NOT_FOLDED, registered()) == [
        "dice.rolled: its premise is in the dice table, which the timeline check never folds",
        "god.prayed: 2 premises"]


def test_a_table_refuses_two_folds_or_two_lines_for_one_type():
    from projections.handlers import lines

    table = Table("demo")
    table.add("silver.changed", lambda s, p, e: s, line=lambda p: "x")
    with pytest.raises(RuntimeError, match="folds silver.changed twice"):
        table.add("silver.changed", lambda s, p, e: s)
    with pytest.raises(RuntimeError, match="silver.changed is described twice: by wolves and demo"):
        lines(TABLES + (table,))


# -- every older schema upcasts to one its current model validates ----------------------

# One payload for each schema a type has left behind, as a tally of that schema recorded
# it (the upcasters' own tests show each shape: test_late_facts, test_gods, test_wolves,
# test_skirmish, test_dice_checks, test_calendar, test_coeac_inventory, test_xp).
OLDER: dict[tuple[str, int], dict] = {
    ("character.died", 1): {"name": "Bo", "cause": "a fall"},
    ("ledger.ruling", 1): {"ruling": "on credit", "breaks": "event 12 (cash.changed, 1024-03-05): A's Cash would be "
                           "-1, below zero", "ruled_by": "referee"},
    ("character.retired", 1): {"name": "Cass", "player": "Ann", "boons": 2, "wealth": 3, "skill_points": 1,
                               "wealth_ranks": 1, "rep_faction": "Guild"},
    ("luck.changed", 1): {"character": "A", "delta": -1, "reason": "spent", "cap": 3, "after": 0, "mode": "reroll",
                          "roll": None},
    ("luck.changed", 2): {"character": "A", "delta": -1, "reason": "spent", "cap": 3, "mode": "reroll", "roll": 7},
    ("project.ticked", 1): {"name": "Tower", "by": "A", "filled": 2, "ticks": 4, "done": False},
    ("project.ticked", 2): {"name": "Tower", "by": "A", "ticks": 4},
    ("god.black_mark", 1): {"character": "A", "why": "x", "black_after": 2},
    ("god.black_mark", 2): {"character": "A", "why": "x"},
    ("save.lost", 1): {"character": "A", "save": "Vigor", "before": 1, "after": 0},
    ("save.lost", 2): {"character": "A", "save": "Vigor", "before": 1},
    ("skill.reduced", 1): {"character": "A", "skill": "Stealth", "before": 0, "after": 0},
    ("skill.reduced", 2): {"character": "A", "skill": "Ruin", "before": 1},
    ("wealth.attempted", 1): {"character": "A", "rank_from": 2, "rank_to": 3, "ob": 6, "wager": 8, "successes": 8,
                              "succeeded": True, "period": "session 1"},
    ("wealth.attempted", 2): {"character": "A", "rank_from": 2, "ob": 6, "wager": 8, "successes": 8,
                              "succeeded": True, "period": "downtime epoch 2"},
    ("stronghold.attempted", 1): {"name": "Keep", "by": "A", "rank_from": 0, "rank_to": 1, "ob": 2, "wager": 3,
                                  "successes": 2, "succeeded": True, "tags": ["Economy"], "period": "session 1"},
    ("stronghold.attempted", 2): {"name": "Keep", "by": "A", "rank_from": 0, "ob": 2, "wager": 12, "successes": 2,
                                  "succeeded": False, "tags": [], "period": "session 1"},
    ("reputation.changed", 1): {"faction": "Guild", "requested": 5, "before": 4, "after": 6, "clamped": True,
                                "why": "x"},
    ("god.adopted", 1): {"character": "A", "god": "Tyr", "power": 5, "alignment": "2L", "flatterable": True,
                         "sacrifice": "x"},
    ("god.prayed", 1): {"character": "A", "god": "Tyr", "power": 5, "black": 0, "grey": 0, "table_chance": 23,
                        "modifiers": {"crawling_bonus": 4}, "chance": 27, "excessive": True, "backfire_chance": 23,
                        "outcome": "answered", "table_grade": 8, "grade": 8, "percent": 90, "inconvenient": None},
    ("god.crawled", 1): {"character": "A", "power": 5, "prayers_last_week": 0, "table_chance": 100, "thanks": False,
                         "chance": 100, "accepted": True, "effect": "banked_bonus", "bonus": 4},
    ("god.repented", 1): {"character": "A", "black": 4, "power": 5, "effective_power": 8, "needs": 6, "die": 2,
                          "accepted": False},
    ("god.punishment_checked", 1): {"character": "A", "black": 10, "threshold": 10, "roll": 7, "punished": True},
    ("god.battle", 1): {"character": "A", "opponent": "H", "god": "Tyr", "opponent_god": "Odin", "needs": 50,
                        "opponent_needs": 50, "rounds": [[60, 20]], "winner": "A",
                        "penalty": "H: A.T. and D.T. -10, regained as fatigue points; may convert to the victor"},
    ("xp.awarded", 1): {"character": "A", "amount": 10, "source": "treasure", "why": "x", "treasure": 10,
                        "vow_open": False, "rounding": "down"},
    ("wolves.outfitted", 1): {"character": "A", "strength": 9, "agility": 9, "constitution": 9, "hit_dice": 1,
                              "hp": 3, "attack_bonus": 2, "languages": 2, "hacksilver": 100, "spent": {"spear": 30},
                              "lost": 70},
    ("companion.left", 1): {"character": "A", "name": "T", "why": "x"},
    ("hireling.hired", 1): {"character": "A", "name": "E", "kind": "Marine", "wage": 12},
    ("boast.made", 1): {"character": "A", "boast": "b", "reward": "hit_dice", "bonus": 2, "raised_by": "R",
                        "complications": 1},
    ("boast.resolved", 1): {"character": "A", "boast": "b", "outcome": "kept", "reward": "hit_dice", "bonus": 1,
                            "kept": True},
    ("ship.acquired", 1): {"name": "S", "kind": "Karvi", "value": 1000, "rowers": 12, "food_days": 4,
                           "how": "taken"},
    ("skirmish.level_set", 1): {"character": "A", "level": 2, "why": "x"},
    ("wound.healing", 1): {"character": "A", "wound": 1, "natural": 6, "bonus": 1, "total": 7, "result": "healed"},
    ("clothing.worn", 1): {"character": "A", "clothing": "Rags", "renown_modifier": -1},
    ("calendar.advanced", 1): {"from_day": 1, "to_day": 8, "days": 7, "why": "a week", "run": None},
    ("dice.rolled", 1): {"expression": "2d6", "dice": [3, 4], "total": 7, "epoch": 1, "nonce": None,
                         "verifiable": False, "character": None, "why": None},
    ("dice.rolled", 2): {"expression": "1d6", "dice": [4], "total": 4, "epoch": 1, "nonce": 0, "verifiable": True,
                         "character": None, "why": None, "source": None, "source_id": None, "speaker": None,
                         "rolled_at": None, "dropped": [], "exact_total": None, "check": None},
    ("gear.broken", 1): {"character": "Bo", "items": 3, "note": "three random items break"},
}


def upcast_gaps(types: list[str], older: dict[tuple[str, int], dict]) -> list[str]:
    """Each type's model at the schema its upcasters reach, and every older schema's
    payload lifted to one the model validates; what does not, one line each."""
    problems = []
    for t in types:
        current = upcasters.current_schema(t)
        if model_for(t).schema_version != current:
            problems.append(f"{t}: the model is at schema {model_for(t).schema_version}, its upcasters reach {current}")
        for schema in range(1, current):
            if (t, schema) not in older:
                problems.append(f"{t}: no schema {schema} payload to upcast")
                continue
            try:
                decode(t, schema, older[(t, schema)])
            except Exception as exc:  # what a stored payload of that schema would meet on every read
                problems.append(f"{t}: schema {schema} does not upcast: {exc}")
    return problems


def test_every_older_schema_upcasts_to_one_the_current_model_validates():
    assert upcast_gaps(registered(), OLDER) == []
    assert len(OLDER) == len(upcasters._STEPS) - sum(1 for t, _ in upcasters._STEPS if t.startswith("test."))


def test_a_missing_step_or_an_older_schema_without_its_payload_is_caught(monkeypatch):
    older = {k: v for k, v in OLDER.items() if k != ("god.black_mark", 2)}
    assert upcast_gaps(registered(), older) == ["god.black_mark: no schema 2 payload to upcast"]
    monkeypatch.delitem(upcasters._STEPS, ("ship.acquired", 1))
    problems = upcast_gaps(["ship.acquired"], OLDER)
    assert len(problems) == 1 and problems[0].startswith("ship.acquired: schema 1 does not upcast: no upcaster")
