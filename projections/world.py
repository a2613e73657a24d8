"""Every read model of a campaign, folded together in (game_time, position)
order, from nothing or from a snapshot's world."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Iterable, Optional

from ledger.envelope import Envelope
from projections import advancement, band, campaign, company, divine, downtime, sessions, skirmishers, stable


@dataclass(frozen=True)
class World:
    campaign: Optional[campaign.CampaignState]
    stable: stable.Stable
    sessions: sessions.Sessions
    company: company.Company
    divine: divine.Divine
    advancement: advancement.Advancement
    band: band.Band
    skirmish: skirmishers.Skirmishers
    downtime: downtime.Downtime


EMPTY = World(None, stable.Stable(), sessions.Sessions(), company.Company(), divine.Divine(),
              advancement.Advancement(), band.Band(), skirmishers.Skirmishers(), downtime.Downtime())


MODELS = (campaign, stable, sessions, company, divine, advancement, band, skirmishers, downtime)
_FIELDS = tuple(f.name for f in fields(World))
_REACTING: dict[str, tuple[int, ...]] = {}  # event type -> the read models that fold it


def _reacting(event_type: str) -> tuple[int, ...]:
    found = _REACTING.get(event_type)
    if found is None:
        found = _REACTING[event_type] = tuple(i for i, m in enumerate(MODELS) if m.reacts_to(event_type))
    return found


def apply(world: World, e: Envelope) -> World:
    """Fold one event into the read models that react to its type; the others are left as they are."""
    parts = [getattr(world, name) for name in _FIELDS]
    for i in _reacting(e.type):
        parts[i] = MODELS[i].apply(parts[i], e)
    return World(*parts)


def fold(envelopes: Iterable[Envelope], world: World = EMPTY) -> World:
    for e in envelopes:
        world = apply(world, e)
    return world
