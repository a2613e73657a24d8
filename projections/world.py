"""Every read model of a campaign, folded together in (game_time, position)
order, from nothing or from a snapshot's world. Which models fold an event,
whether its payload is read, and the premises a late fact must keep all come
from the models' tables of handlers (projections/handlers.py)."""

from __future__ import annotations

from typing import Iterable, Optional

from msgspec import Struct
from msgspec.structs import replace

from ledger.envelope import Envelope
from projections.handlers import Fold, premises
from projections import campaign, company, downtime, gods, inventory, sealed, sessions, skirmish, stable, wolves, xp


class World(Struct, frozen=True):
    campaign: Optional[campaign.CampaignState]
    stable: stable.Stable
    sessions: sessions.Sessions
    company: company.Company
    gods: gods.Divine
    xp: xp.Advancement
    wolves: wolves.Band
    skirmish: skirmish.Skirmishers
    downtime: downtime.Downtime
    inventory: inventory.Inventory
    sealed: sealed.Sealed


EMPTY = World(None, stable.Stable(), sessions.Sessions(), company.Company(), gods.Divine(), xp.Advancement(),
              wolves.Band(), skirmish.Skirmishers(), downtime.Downtime(), inventory.Inventory(), sealed.Sealed())


MODELS = (campaign, stable, sessions, company, gods, xp, wolves, skirmish, downtime, inventory, sealed)
TABLES = tuple(m.TABLE for m in MODELS)  # each read model's handlers (projections/handlers.py), as World's fields
_FIELDS = World.__struct_fields__
PREMISES = premises(TABLES)  # event type -> what a fact logged late must keep (commands/late_facts.py)

_ROUTES: dict[str, tuple[tuple[str, Fold], ...]] = {}  # event type -> (field, fold) of the models that fold it


def _route(event_type: str) -> tuple[tuple[str, Fold], ...]:
    found = _ROUTES.get(event_type)
    if found is None:
        found = _ROUTES[event_type] = tuple((name, fold) for name, fold in
                                            ((name, t.fold_for(event_type)) for name, t in zip(_FIELDS, TABLES))
                                            if fold is not None)
    return found


def _reacting(event_type: str) -> tuple[int, ...]:
    """The read models (their places in MODELS) that fold an event of this type."""
    return tuple(i for i, t in enumerate(TABLES) if t.fold_for(event_type) is not None)


_PAYLOAD: dict[str, bool] = {}


def needs_payload(event_type: str) -> bool:
    """Whether folding an event of this type reads its payload: whether some
    table names it (a fold of every other event reads none). Most of a long
    log is dice.rolled, which only moves the day on and marks play begun: a
    rebuild need not decode those payloads at all."""
    found = _PAYLOAD.get(event_type)
    if found is None:
        found = _PAYLOAD[event_type] = any(event_type in t.handlers for t in TABLES)
    return found


def apply(world: World, e: Envelope) -> World:
    """Fold one event into the read models that fold its type; the others are left as they are."""
    changes = {}
    p = e.payload
    for name, fold in _route(e.type):
        before = getattr(world, name)
        after = fold(before, p, e)
        if after is not before:
            changes[name] = after
    return replace(world, **changes) if changes else world


_FIGURES: dict[str, tuple[tuple[str, Fold], ...]] = {}


def apply_figures(world: World, e: Envelope) -> World:
    """``apply`` for a figure's story: the sessions model, which no figure reads, is left as it
    was, so an event that moves only it (a roll, mostly) returns the very same world."""
    found = _FIGURES.get(e.type)
    if found is None:
        found = _FIGURES[e.type] = tuple(route for route in _route(e.type) if route[0] != "sessions")
    changes = {}
    p = e.payload
    for name, fold in found:
        before = getattr(world, name)
        after = fold(before, p, e)
        if after is not before:
            changes[name] = after
    return replace(world, **changes) if changes else world


def fold(envelopes: Iterable[Envelope], world: World = EMPTY) -> World:
    for e in envelopes:
        world = apply(world, e)
    return world
