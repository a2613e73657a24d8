"""Every read model of a campaign, folded together in (game_time, position)
order, from nothing or from a snapshot's world."""

from __future__ import annotations

from dataclasses import dataclass
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


def apply(world: World, e: Envelope) -> World:
    return World(campaign.apply(world.campaign, e), stable.apply(world.stable, e),
                 sessions.apply(world.sessions, e), company.apply(world.company, e),
                 divine.apply(world.divine, e), advancement.apply(world.advancement, e),
                 band.apply(world.band, e), skirmishers.apply(world.skirmish, e),
                 downtime.apply(world.downtime, e))


def fold(envelopes: Iterable[Envelope], world: World = EMPTY) -> World:
    for e in envelopes:
        world = apply(world, e)
    return world
