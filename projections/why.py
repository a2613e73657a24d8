"""Why a figure is what it is: the whole story of it, in fold order.

Every event that changed the figure, with the roll behind it; and the
events that bore on it and left it as it was — a failed Wealth improvement,
Income of no dice, a change clamped away — and the events a void withdrew
(marked, with the void's position, reason and who ruled). A fact logged
late for an earlier day is marked with when it was recorded. Works for any
field of any sheet because it folds the world event by event and watches
the figure change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional

from ledger.envelope import Envelope
from ledger.errors import Unfoldable
from ledger.names import key
from ledger.rules.coeac import COMPANY
from projections import campaign as campaign_model
from projections import world as world_model
from projections.describe import line
from projections.sheet import sheet
from projections.timeline import VOID, Point

Figure = Callable[[world_model.World], Any]

# The events that bear on a character's figure even when they leave it as it
# was (a failed attempt, a roll of no dice, a check that spared them).
ATTEMPTS = {
    "wealth": {"wealth.attempted"},
    "lifestyle": {"wealth.attempted"},
    "cash": {"income.rolled", "wealth.attempted", "item.bought"},
    "status": {"down_and_out.rolled", "wound.open_checked", "medical_aid.rolled"},
    "hp": {"hp.damaged", "hp.healed", "rest.taken"},
    "bonus_hp": {"hp.damaged"},
    "boons_unchosen": {"boon.spent"},
    "skills": {"boon.spent", "skill.reduced"},
    "saves": {"boon.spent", "save.lost"},
    "black_marks": {"god.crawled", "god.repented", "god.sacrificed", "god.punishment_checked"},
    "grey_marks": {"god.crawled", "god.sacrificed"},
    # an item's chain of custody (`why C item:NAME`): bought or not, used, checked, sold
    "item": {"item.bought", "item.sold", "item.depletion_checked", "gear.broken"},
}
# The inventory's events that name an item (gear.broken names those that broke).
ITEM_TYPES = frozenset({"item.gained", "item.dropped", "item.given", "commodity.converted", "item.bought",
                        "item.sold", "item.depletion_checked", "gear.broken"})
# The events that bear on the Company's figures even when they leave them as they were.
COMPANY_TYPES = frozenset({"company.income_rolled", "reputation.changed", "stronghold.attempted"})

_FIGURE_TYPES: list[str] = []


def figure_types() -> list[str]:
    """The event types a figure's story reads: those a read model other than the campaign's
    day and the sessions folds, those the campaign reads, and the attempts `why` shows even
    when they changed nothing (most of a long log is rolls, which only move the day on)."""
    if not _FIGURE_TYPES:
        named = set(campaign_model.TABLE.types)  # the day alone it takes from any event
        for model in world_model.MODELS:
            if model not in (campaign_model, world_model.sessions):
                named |= model.TABLE.types
        attempts = set().union(*ATTEMPTS.values())  # they bear on a figure even when they leave it be
        _FIGURE_TYPES.extend(sorted(named | attempts))
    return _FIGURE_TYPES


@dataclass(frozen=True)
class Subject:
    label: str
    figure: Figure
    concerns: Callable[[Envelope], bool]  # an event that bears on the figure, changed or not
    # Whether the figure may have moved between two worlds (None: it may always have).
    moved: Optional[Callable[[world_model.World, world_model.World], bool]] = None
    # Whose kept history holds the figure (projections/kept.py), and the figure read off it.
    kept: Optional[str] = None
    of: Optional[Callable[[dict], Any]] = None


# What a character's sheet reads besides the character itself (projections/sheet.py).
SHEET_PARTS = ("campaign", "inventory", "downtime", "gods", "wolves", "skirmish", "xp")


def sheet_moved(name: str) -> Callable[[world_model.World, world_model.World], bool]:
    """A character's sheet can only have moved if the character or a part the sheet reads did:
    in a table of forty, most events leave one character's sheet alone."""
    k = key(name)

    def moved(was: world_model.World, now: world_model.World) -> bool:
        if was.stable is not now.stable and was.stable.characters.get(k) is not now.stable.characters.get(k):
            return True
        return any(getattr(was, part) is not getattr(now, part) for part in SHEET_PARTS)

    return moved


def subject_figure(subject: str, field: Optional[str]) -> Subject:
    """``rep:FACTION``, ``stronghold:NAME [field]``, or a character and a sheet field."""
    kind, _, name = subject.partition(":")
    if key(subject) == COMPANY and field in (None, "cash"):
        return Subject("the Company's Cash", lambda w: w.company.cash,
                       lambda e: e.type == "company.income_rolled", kept="company", of=lambda f: f.get("cash"))
    if kind == "rep" and name:
        return Subject(f"Reputation with {name}",
                       lambda w: w.company.reputation.get(key(name), (name, None))[1],
                       lambda e: e.type == "reputation.changed" and key(e.payload["faction"]) == key(name),
                       kept="company", of=lambda f: next((v for n, v in f.get("reputation", {}).items()
                                                          if key(n) == key(name)), None))
    if kind == "stronghold" and name:
        field = field or "rating"
        return Subject(f"{name} {field}",
                       lambda w: (w.company.stronghold(name).view().get(field)
                                  if w.company.stronghold(name) else None),
                       lambda e: e.type == "stronghold.attempted" and key(e.payload["name"]) == key(name),
                       kept="company", of=lambda f: next((s.get(field) for s in f.get("strongholds", [])
                                                          if key(s["name"]) == key(name)), None))
    if not field:
        raise ValueError("name the field: `tally why CHARACTER FIELD` (e.g. wealth, cash, black_marks, item:Torches)")
    if field.lower().startswith("item:") and field[5:].strip():
        return _custody(subject, field[5:].strip())
    head, _, entry = field.partition(".")
    attempts = ATTEMPTS.get(head, set())

    def concerns(e: Envelope) -> bool:
        if e.type not in attempts or key(e.payload.get("character", "")) != key(subject):
            return False
        return not entry or entry.lower() in {str(e.payload.get(k)).lower() for k in ("target", "skill", "save")}

    return Subject(f"{subject}'s {field}", lambda w: _field(sheet(w, subject) or {}, field), concerns,
                   sheet_moved(subject), kept=f"character:{key(subject)}",
                   of=lambda f: _field(f, field) if f else None)


def _custody(subject: str, item: str) -> Subject:
    """An item's chain of custody: where it came from (found, bought — with the roll behind it —,
    given), what became of it (used, checked, given on, broken, sold, cashed in), each with both
    dates; the figure is the item as the character carries it, or nothing."""
    def held(inventory) -> Optional[str]:
        found = next((i for i in inventory or [] if key(i["name"]) == key(item)), None)
        return _carried(found) if found else None

    def concerns(e: Envelope) -> bool:
        if e.type not in ITEM_TYPES:
            return False
        p = e.payload
        named = [p.get("item")] if e.type != "gear.broken" else p.get("broken", [])
        return any(isinstance(n, str) and key(n) == key(item) for n in named) and key(subject) in {
            key(p.get("character", "")), key(p.get("to") or "")}

    return Subject(f"{subject}'s {item}", lambda w: held([i.view() for i in w.inventory.of(subject)]), concerns,
                   sheet_moved(subject), kept=f"character:{key(subject)}",
                   of=lambda f: held(f.get("inventory")) if f else None)


def _carried(item: dict) -> str:
    """An item as its owner carries it, in a few words."""
    parts = [f"{item['slots']} Slot{'s' if item['slots'] != 1 else ''}"]
    if item.get("depletion"):
        parts.append("its last use" if item.get("last_use") else f"Depletion {item['depletion']}+")
    if item.get("cash"):
        parts.append(f"worth {item['cash']} Cash")
    if item.get("artifact"):
        parts.append("an artifact")
    return f"carried ({', '.join(parts)})"


def _field(found: dict, field: str) -> Any:
    """A sheet field, or one entry of it: ``skills.Stealth``, ``resources.Luck`` (names case-blind)."""
    head, _, entry = field.partition(".")
    value = found.get(head)
    if not entry:
        return value
    if not isinstance(value, dict):
        return None
    return next((v for k, v in value.items() if k.lower() == entry.lower()), None)


@dataclass(frozen=True)
class Folded:
    """The events a point holds, folded once in fold order: for each fact, the world before and
    after it (the same world for a fact a void withdrew). Any figure's story, and any
    character's chart, is read off it without folding again."""

    steps: tuple[tuple[Envelope, world_model.World, world_model.World], ...]
    everything: dict  # position -> event held
    voids: dict  # withdrawn position -> its void
    day_when_recorded: dict  # position -> the campaign's day when it was recorded


def fold_held(held: Iterable[Envelope], point: Point, days: Optional[Iterable[tuple[int, int]]] = None) -> Folded:
    """Fold what the ledger held at the point (voids included, in position order). ``days``:
    (position, game day) of every event held, when ``held`` is only the events a figure reads."""
    held = list(held)
    voids = {v.payload["target"]: v for v in held if v.type == VOID}
    today, day_when_recorded = None, {}  # the campaign's day as each event was recorded
    for position, game_time in (days if days is not None else ((e.position, e.game_time) for e in held)):
        day_when_recorded[position] = today
        today = game_time if today is None else max(today, game_time)
    facts = sorted((e for e in held if e.type != VOID and (point.as_of is None or e.game_time <= point.as_of)),
                   key=lambda e: (e.game_time, e.position))
    world, steps = world_model.EMPTY, []
    for e in facts:
        was = world
        if e.position not in voids:
            world = world_model.apply_figures(world, e)
        steps.append((e, was, world))
    return Folded(tuple(steps), {e.position: e for e in held}, voids, day_when_recorded)


def story(held: Iterable[Envelope], point: Point, subject: Subject,
          cause_of: Optional[Callable[[int], Optional[Envelope]]] = None,
          days: Optional[Iterable[tuple[int, int]]] = None, folded: Optional[Folded] = None) -> list[dict]:
    """The figure's story among the events the ledger held at the point (voids
    included, in position order): one row per event that changed it, bore on
    it, or would have changed it had a void not withdrawn it.

    A long log's story may be told from only the events a figure's fold reads:
    then ``cause_of`` looks up the roll behind a row, and ``days`` gives
    (position, game day) of every event held, for telling a fact logged late.
    ``folded``: the same events already folded (``fold_held``), shared by many stories."""
    folded = folded if folded is not None else fold_held(held, point, days)
    everything = folded.everything if cause_of is None else _Causes(folded.everything, cause_of)
    before, out = None, []
    for e, was, world in folded.steps:
        void = folded.voids.get(e.position)
        if void is None:
            # An event that changed no part a figure reads (a roll, mostly) left it as it was:
            # a long log need not rebuild a sheet for each one.
            still = world is was or (subject.moved is not None and was.campaign is not None
                                      and not subject.moved(was, world))
            after = before if still else _safe(subject.figure, world)
            if after == before and not subject.concerns(e):
                continue
            row = story_row(e, everything, before, after)
            before = after
        else:
            would = _would_be(subject.figure, world, e)
            if would == before and not subject.concerns(e):
                continue
            row = {**story_row(e, everything, before, before), "would_be": would,
                   "voided": {"by": void.position, "reason": void.payload["reason"],
                              "ruled_by": void.payload["ruled_by"], "recorded_at": void.recorded_at}}
        recorded_day = folded.day_when_recorded[e.position]
        if recorded_day is not None and e.game_time < recorded_day:
            row["late"] = {"recorded_at": e.recorded_at, "recorded_day": recorded_day}
        out.append(row)
    return out


class _Causes(dict):
    """The held events by position, where a row's cause is looked up afresh (with its payload)."""

    def __init__(self, held: dict, cause_of: Callable[[int], Optional[Envelope]]) -> None:
        super().__init__(held)
        self.cause_of = cause_of

    def get(self, position, default=None):
        found = self.cause_of(position)
        return found if found is not None else default


def story_row(e: Envelope, everything: dict[int, Envelope], before: Any, after: Any) -> dict:
    cause = everything.get(e.cause) if e.cause else None
    return {"position": e.position, "game_time": e.game_time, "type": e.type, "what": line(e),
            "before": before, "after": after, "changed": after != before, "recorded_at": e.recorded_at,
            "roll": line(cause) if cause is not None and cause.type == "dice.rolled" else None,
            "roll_position": cause.position if cause is not None else None,
            "would_be": None, "voided": None, "late": None}


def _would_be(figure: Figure, world, e: Envelope) -> Any:
    """The figure had the withdrawn event stood (None if it no longer folds at all)."""
    try:
        return _safe(figure, world_model.apply(world, e))
    except Unfoldable:
        return None


def _safe(figure: Figure, world) -> Any:
    return figure(world) if world.campaign is not None else None


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
    if key(subject) == COMPANY:
        return False
    kind, _, name = subject.partition(":")
    if kind in ("rep", "stronghold") and name:
        return kind == "stronghold" and world.company.stronghold(name) is None
    return world.stable.character(subject) is None and key(subject) not in world.stable.characters
