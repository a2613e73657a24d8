"""The names a campaign knows, by kind: what `tally shell` offers to complete."""

from __future__ import annotations


def roster(world) -> dict[str, list[str]]:
    """Characters (active first), players, factions, gods and strongholds, each sorted."""
    characters = sorted(world.stable.characters.values(), key=lambda c: (c.status != "active", c.name.casefold()))
    return {
        "character": [c.name for c in characters],
        "player": sorted((p.name for p in world.stable.players.values()), key=str.casefold),
        "faction": sorted((faction for faction, _ in world.company.reputation.values()), key=str.casefold),
        "god": sorted({s.god for s in world.gods.standings.values()}, key=str.casefold),
        "stronghold": sorted((s.name for s in world.company.strongholds.values()), key=str.casefold),
    }
