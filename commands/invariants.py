"""What must hold along a campaign's timeline.

Two kinds of check, each a small function of the world and one event:

* ``premises(world, e)``: what the event's decision rested on, against the
  world just before it (a Wealth attempt made "from rank 2" must still see
  rank 2; one attempt per session; one open vow; one pending boast; levels
  only in safe time; a companion joins only where silver supports one, a
  hireling is hired only where the wages can be paid; a skirmisher's stats
  and skills within what the level allows). Each premise sits beside the
  fold of its event, in its read model's table (projections/handlers.py);
  projections/world.py gathers them.
* ``invariants(world, e)``: what must hold after it, for whatever the event
  touched (Cash and silver never below zero, Wealth 0-12, HP 0 to max and
  Bonus HP never below zero, no more Slots carried than there are, no more
  Boons chosen than gained, Class Resources within their pools, luck never
  below zero, a project clock never past full, the Company's treasury never
  below zero, a band's companions supported).

Each returns what would no longer hold, in a few words, or None. A fact
logged late (or a void) is folded along the timeline with these checks
(commands/late_facts.py); ordinary commands check the same rules
when they decide.
"""

from __future__ import annotations

from typing import Callable, Optional

from ledger.envelope import Envelope
from ledger.rules.coeac import MAX_STRONGHOLD, MAX_WEALTH
from ledger.rules.wolves import companions_allowed
from ledger.settings import in_force
from projections.inventory import load as inventory_load
from ledger.names import key
from projections.world import PREMISES, World

Check = Callable[[World, dict], Optional[str]]


def _character(world: World, name: str):
    return world.stable.characters.get(key(name))


def premises(world: World, e: Envelope) -> Optional[str]:
    """What the event rested on that the world just before it no longer holds, or None."""
    check = PREMISES.get(e.type)
    return check(world, e.payload, e.game_time) if check is not None else None


# -- invariants: the world after the event --------------------------------------

def _touched(p: dict) -> set[str]:
    """The characters an event names (its own, its spender, a division's shares)."""
    names = {p[f] for f in ("character", "by", "to") if isinstance(p.get(f), str)}
    for f in ("shares",):
        if isinstance(p.get(f), dict):
            names.update(p[f])
    return names


def _character_holds(world: World, name: str) -> Optional[str]:
    c = _character(world, name)
    if c is not None:
        if c.cash < 0:
            return f"{c.name}'s Cash would be {c.cash}, below zero"
        if not 0 <= c.wealth <= MAX_WEALTH:
            return f"{c.name}'s Wealth would be {c.wealth}, outside 0-{MAX_WEALTH}"
        if c.hp is not None and not 0 <= c.hp <= c.max_hp:
            return f"{c.name}'s HP would be {c.hp}, outside 0-{c.max_hp} (004 l.84, l.100)"
        if c.bonus_hp < 0:
            return f"{c.name}'s Bonus HP would be {c.bonus_hp}, below zero"
        if c.boons_unchosen < 0:
            return f"{c.name} would have chosen more Boons than gained (004 l.503)"
        drained = next((r for r, n in c.resources.items() if not 0 <= n <= c.resource_max[r]), None)
        if drained:
            return f"{c.name}'s {drained} would be {c.resources[drained]}, outside 0-{c.resource_max[drained]}"
        need, can = inventory_load(world, c.name)
        if need > can:
            return f"{c.name} would carry {need} Slots of {can} (004 l.553-560)"
    if key(name) in world.wolves.raiders:
        return _raider_holds(world, name)
    return None


def _raider_holds(world: World, name: str) -> Optional[str]:
    raider = world.wolves.of(name)
    if raider.silver < 0:
        return f"{name}'s silver would be {raider.silver}, below zero"
    supported = companions_allowed(raider.silver)
    if len(raider.companions) > supported and in_force(world.campaign.settings, "companion_upkeep") == "leave":
        return (f"{name}'s {raider.silver} sp would support {supported} companion(s) and {len(raider.companions)} "
                "would follow (000 l.248; setting companion_upkeep=leave)")
    return None


def _project_holds(world: World, p: dict) -> Optional[str]:
    project = world.downtime.project(p["name"])
    if project is not None and project["filled"] > project["ticks"]:
        return f"project {project['name']} would have {project['filled']} ticks on a clock of {project['ticks']}"
    return None


def _treasury_holds(world: World, p: dict) -> Optional[str]:
    cash = world.company.cash
    return f"the Company's Cash would be {cash}, below zero" if cash < 0 else None


def _stronghold_holds(world: World, p: dict) -> Optional[str]:
    s = world.company.stronghold(p["name"])
    if s is not None and s.rating > MAX_STRONGHOLD:
        return f"{s.name} would be rated {s.rating}, past {MAX_STRONGHOLD}"
    return _treasury_holds(world, p)


def _luck_holds(world: World, p: dict) -> Optional[str]:
    luck = world.skirmish.of(p["character"]).luck
    return f"{p['character']} would hold {luck} luck, below zero" if luck < 0 else None


def _xp_holds(world: World, p: dict) -> Optional[str]:
    xp = world.xp.of(p["character"]).xp
    return f"{p['character']}'s XP would be {xp}, below zero" if xp < 0 else None


AFTER: dict[str, Check] = {
    "xp.awarded": _xp_holds,
    "project.ticked": _project_holds,
    "stronghold.attempted": _stronghold_holds,
    "treasury.paid": _treasury_holds,
    "luck.changed": _luck_holds,
}


def invariants(world: World, e: Envelope) -> Optional[str]:
    p = e.payload
    for name in _touched(p):
        broken = _character_holds(world, name)
        if broken:
            return broken
    check = AFTER.get(e.type)
    return check(world, p) if check is not None else None
