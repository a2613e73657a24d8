"""Why a figure is what it is: the events that changed it, in fold order,
each with the roll behind it. Works for any field of any sheet because it
folds the world event by event and watches the figure change."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

from ledger.envelope import Envelope
from projections import world as world_model
from projections.describe import line
from projections.names import key
from projections.sheet import sheet

Figure = Callable[[world_model.World], Any]


def subject_figure(subject: str, field: Optional[str]) -> tuple[str, Figure]:
    """``rep:FACTION``, ``stronghold:NAME [field]``, or a character and a sheet field."""
    kind, _, name = subject.partition(":")
    if kind == "rep" and name:
        return f"Reputation with {name}", lambda w: w.company.reputation.get(key(name), (name, None))[1]
    if kind == "stronghold" and name:
        field = field or "rating"
        return f"{name} {field}", lambda w: (w.company.stronghold(name).view().get(field)
                                             if w.company.stronghold(name) else None)
    if not field:
        raise ValueError("name the field: `tally why CHARACTER FIELD` (e.g. wealth, cash, black_marks)")
    return f"{subject}'s {field}", lambda w: (sheet(w, subject) or {}).get(field)


def changes(facts: Iterable[Envelope], figure: Figure, everything: dict[int, Envelope]) -> list[dict]:
    """Every fact after which the figure differs, with its before and after."""
    world, out = world_model.EMPTY, []
    before = None
    for e in facts:
        world = world_model.apply(world, e)
        after = _safe(figure, world)
        if after != before:
            cause = everything.get(e.cause) if e.cause else None
            out.append({"position": e.position, "game_time": e.game_time, "type": e.type, "what": line(e),
                        "before": before, "after": after, "recorded_at": e.recorded_at,
                        "roll": line(cause) if cause is not None and cause.type == "dice.rolled" else None,
                        "roll_position": cause.position if cause is not None else None})
        before = after
    return out


def _safe(figure: Figure, world) -> Any:
    try:
        return figure(world) if world.campaign is not None else None
    except (KeyError, AttributeError):
        return None


def sheet_diff(before: Optional[dict], after: Optional[dict]) -> list[tuple[str, Any, Any]]:
    before, after = before or {}, after or {}
    return [(k, before.get(k), after.get(k)) for k in dict.fromkeys([*before, *after])
            if before.get(k) != after.get(k)]


def world_diff(a: world_model.World, b: world_model.World, character: Optional[str] = None) -> list[dict]:
    """What changed between two states: every character's sheet (or one), and the Company."""
    names = [character] if character else list(dict.fromkeys(
        [c.name for c in a.stable.characters.values()] + [c.name for c in b.stable.characters.values()]))
    rows = []
    for name in names:
        was = sheet(a, name) if a.campaign else None
        if was is None:
            rows.append({"subject": name, "field": "joins", "from": None, "to": sheet(b, name)["player"]})
            continue
        for field, old, new in sheet_diff(was, sheet(b, name)):
            rows.append({"subject": name, "field": field, "from": old, "to": new})
    if not character:
        for field, old, new in sheet_diff(a.company.view() if a.campaign else None, b.company.view()):
            rows.append({"subject": "the Company", "field": field, "from": old, "to": new})
    return rows


def unknown_subject(world, subject: str) -> bool:
    kind, _, name = subject.partition(":")
    if kind in ("rep", "stronghold") and name:
        return kind == "stronghold" and world.company.stronghold(name) is None
    return world.stable.character(subject) is None and key(subject) not in world.stable.characters
