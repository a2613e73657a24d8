"""Every read model of a campaign, folded together in (game_time, position)
order, from nothing or from a snapshot's world."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Iterable, Optional

from ledger.envelope import Envelope
from projections.frozen import replace
from projections import campaign, company, downtime, gods, inventory, sessions, skirmish, stable, wolves, xp


@dataclass(frozen=True)
class World:
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


EMPTY = World(None, stable.Stable(), sessions.Sessions(), company.Company(), gods.Divine(), xp.Advancement(),
              wolves.Band(), skirmish.Skirmishers(), downtime.Downtime(), inventory.Inventory())


MODELS = (campaign, stable, sessions, company, gods, xp, wolves, skirmish, downtime, inventory)
_FIELDS = tuple(f.name for f in fields(World))
_REACTING: dict[str, tuple[int, ...]] = {}  # event type -> the read models that fold it


def _reacts(model, event_type: str) -> bool:
    """A read model says what it folds: the set TYPES, or reacts_to(type) when a set will not do."""
    types = getattr(model, "TYPES", None)
    return event_type in types if types is not None else model.reacts_to(event_type)


def _reacting(event_type: str) -> tuple[int, ...]:
    found = _REACTING.get(event_type)
    if found is None:
        found = _REACTING[event_type] = tuple(i for i, m in enumerate(MODELS) if _reacts(m, event_type))
    return found


_ALWAYS = (MODELS.index(campaign), MODELS.index(sessions))  # they see every event, reading few payloads
_PAYLOAD: dict[str, bool] = {}


def needs_payload(event_type: str) -> bool:
    """Whether folding an event of this type reads its payload. Most of a long
    log is dice.rolled, which only moves the day on and marks play begun: a
    rebuild need not decode those payloads at all."""
    found = _PAYLOAD.get(event_type)
    if found is None:
        found = _PAYLOAD[event_type] = (any(i not in _ALWAYS for i in _reacting(event_type))
                                        or event_type in campaign.READS_PAYLOAD
                                        or event_type in sessions.READS_PAYLOAD)
    return found


def apply(world: World, e: Envelope) -> World:
    """Fold one event into the read models that react to its type; the others are left as they are."""
    parts = world.__dict__
    changes = {}
    for i in _reacting(e.type):
        name = _FIELDS[i]
        before = parts[name]
        after = MODELS[i].apply(before, e)
        if after is not before:
            changes[name] = after
    return replace(world, **changes) if changes else world


_FIGURES: dict[str, tuple[int, ...]] = {}


def apply_figures(world: World, e: Envelope) -> World:
    """``apply`` for a figure's story: the sessions model, which no figure reads, is left as it
    was, so an event that moves only it (a roll, mostly) returns the very same world."""
    found = _FIGURES.get(e.type)
    if found is None:
        skipped = MODELS.index(sessions)
        found = _FIGURES[e.type] = tuple(i for i in _reacting(e.type) if i != skipped)
    parts = world.__dict__
    changes = {}
    for i in found:
        name = _FIELDS[i]
        after = MODELS[i].apply(parts[name], e)
        if after is not parts[name]:
            changes[name] = after
    return replace(world, **changes) if changes else world


def fold(envelopes: Iterable[Envelope], world: World = EMPTY) -> World:
    for e in envelopes:
        world = apply(world, e)
    return world
