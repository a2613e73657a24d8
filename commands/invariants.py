"""What must hold along a campaign's timeline, in one place.

Two kinds of check, each a small function of the world and one event:

* ``premises(world, e)``: what the event's decision rested on, against the
  world just before it (a Wealth attempt made "from rank 2" must still see
  rank 2; one attempt per session; one open vow; one pending boast; levels
  only in safe time; a companion joins only where silver supports one, a
  hireling is hired only where the wages can be paid; a skirmisher's stats
  and skills within what the level allows);
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
from ledger.rules.xp import level_for
from ledger.rules import gods as gods_rules
from ledger.rules import skirmish as skirmish_rules
from ledger.rules.wolves import companions_allowed
from ledger.settings import in_force
from projections.downtime import ticked_in
from projections.inventory import load as inventory_load
from ledger.names import key
from projections.world import World

Check = Callable[[World, dict], Optional[str]]
DayCheck = Callable[[World, dict, int], Optional[str]]  # and the event's game day


def _character(world: World, name: str):
    return world.stable.characters.get(key(name))


# -- premises: the world before the event -------------------------------------

def _wealth_attempt(world: World, p: dict) -> Optional[str]:
    c = _character(world, p["character"])
    if c is None:
        return None
    if c.wealth != p["rank_from"]:
        return f"{c.name}'s Wealth would be {c.wealth}, not {p['rank_from']} as the attempt was decided on"
    if p["period"] in c.wealth_periods:
        return f"{c.name} would have two Wealth attempts in {p['period']} (one per session, 004 l.171)"
    return None


def _stronghold_attempt(world: World, p: dict) -> Optional[str]:
    s = world.company.stronghold(p["name"])
    if s is None:
        return None
    if s.rating != p["rank_from"]:
        return f"{s.name} would be rated {s.rating}, not {p['rank_from']} as the attempt was decided on"
    if p["period"] in s.periods:
        return f"{s.name} would have two improvement attempts in {p['period']} (one per session, 004 l.185)"
    payer = _character(world, p["by"])
    if p["wealth_dice"] and payer is not None and payer.wealth != p["wealth_dice"]:
        return (f"{payer.name}'s Wealth would be {payer.wealth}, not the {p['wealth_dice']} dice the pool "
                "was rolled with")
    return None


def _wealth_figure(field: str) -> Check:
    def check(world: World, p: dict) -> Optional[str]:
        c = _character(world, p["character"])
        if c is not None and c.wealth != p[field]:
            return f"{c.name}'s Wealth would be {c.wealth}, not {p[field]} as the roll was decided on"
        return None
    return check


def _vow_sworn(world: World, p: dict) -> Optional[str]:
    open_vow = world.xp.of(p["character"]).vow
    if open_vow is not None:
        return f"{p['character']} would already hold an open vow ({open_vow}): one at a time"
    return None


def _boast_made(world: World, p: dict) -> Optional[str]:
    raider = world.wolves.of(p["character"])
    if raider.barred:
        return f"{p['character']} would have shirked a boast before, and may never boast again (000 l.265)"
    if raider.boast is not None:
        return f"{p['character']} would already have a boast pending ({raider.boast.get('boast')}): one at a time"
    return None


def _boast_resolved(world: World, p: dict) -> Optional[str]:
    pending = world.wolves.of(p["character"]).boast
    if pending is None or pending.get("boast") != p["boast"]:
        return f"{p['character']} would have no boast pending to resolve as {p['outcome']} ({p['boast']})"
    return None


def _companion_joined(world: World, p: dict) -> Optional[str]:
    raider = world.wolves.of(p["character"])
    supported = companions_allowed(raider.silver)
    if len(raider.companions) >= supported:
        return (f"{p['character']} would own {raider.silver} sp, which supports {supported} companion(s) "
                f"(000 l.248), and {len(raider.companions)} already follow: {p['name']} could not join")
    return None


def _hireling_hired(world: World, p: dict, day: int) -> Optional[str]:
    if p["cover_days"] is None:  # schema 1: hired without the check
        return None
    raider = world.wolves.of(p["character"])
    needed = raider.wages_owed(day) + p["cover_days"] * (raider.daily_wages() + p["wage"])
    if raider.silver < needed:
        return (f"{p['character']} would have {raider.silver} sp, short of the {needed} that hiring {p['name']} "
                f"needed (wages owed and {p['cover_days']} day(s) of every wage, 000 l.250)")
    return None


def _level_attained(world: World, p: dict) -> Optional[str]:
    progress = world.xp.of(p["character"])
    level = progress.level
    if p["level"] != level + 1:
        return f"{p['character']} would be level {level}, so this is not level {p['level']} attained next"
    if level_for(progress.xp) < p["level"]:
        return f"{p['character']} would have {progress.xp} XP, too few for level {p['level']}"
    current = world.sessions.current
    if current is not None and current.is_activated(p["character"]):
        return f"{p['character']} would be out on session {current.number}'s expedition: levels only in safe time"
    return None


def _skirmisher(world: World, name: str):
    c = _character(world, name)
    s = world.skirmish.of(name)
    return s, s.all_skills(c.skills if c is not None else {})


def _stat_set(world: World, p: dict) -> Optional[str]:
    s, _ = _skirmisher(world, p["character"])
    problem = skirmish_rules.beyond_level({p["stat"]: p["value"]}, {}, s.level, world.campaign.settings)
    return f"{p['character']} would be level {s.level}: {problem}" if problem else None


def _skill_set(world: World, p: dict) -> Optional[str]:
    s, held = _skirmisher(world, p["character"])
    if any(key(k) == key(p["skill"]) for k in held):
        return None
    problem = skirmish_rules.beyond_level({}, {**held, p["skill"]: p["rating"]}, s.level, world.campaign.settings)
    return f"{p['character']} would be level {s.level} with {problem}" if problem else None


def _level_set(world: World, p: dict) -> Optional[str]:
    s, held = _skirmisher(world, p["character"])
    problem = skirmish_rules.beyond_level(s.stats, held, p["level"], world.campaign.settings, from_level=s.level)
    return f"at level {p['level']} {p['character']} would have {problem}" if problem else None


def _prayer(world: World, p: dict) -> Optional[str]:
    s = world.gods.of(p["character"])
    if s is not None and (s.black, s.grey) != (p["black"], p["grey"]):
        return (f"{p['character']} would hold {s.black} black and {s.grey} grey marks, not the "
                f"{p['black']} and {p['grey']} the prayer's chance was read from")
    return None


def _level_lost(world: World, p: dict) -> Optional[str]:
    level = world.xp.of(p["character"]).level
    if level != p["from_level"]:
        return f"{p['character']} would be level {level}, not the level {p['from_level']} it was decided to lose"
    return None


def _treasure_spent(world: World, p: dict) -> Optional[str]:
    if p.get("treasure_rule") != "spent":
        return None
    held = world.xp.of(p["character"]).treasure
    if held < p["treasure"]:
        return f"{p['character']} would hold {held} unit(s) of unspent treasure, not the {p['treasure']} spent"
    return None


def _hit_dice_spent(world: World, p: dict) -> Optional[str]:
    left = world.xp.of(p["character"]).hit_dice_left
    if left < p["count"]:
        return f"{p['character']} would have {left} hit dice left, too few to spend {p['count']}"
    return None


def _expertise_applied(world: World, p: dict) -> Optional[str]:
    progress = world.xp.of(p["character"])
    if p["expertise"] is None:
        return None
    if progress.area(p["expertise"]) is None:
        return f"{p['character']} would have no expertise in {p['expertise']}"
    if p["period"] in progress.expertise_periods:
        return f"{p['character']} would call on expertise twice in {p['period']} (once per session, 002 l.94)"
    return None


def _expertise_gained(world: World, p: dict) -> Optional[str]:
    progress = world.xp.of(p["character"])
    if len(progress.expertise) >= progress.expertise_claims:
        return (f"{p['character']} would already hold all {progress.expertise_claims} area(s) of expertise "
                "its level and skill rolls allow")
    if progress.area(p["area"]) is not None:
        return f"{p['character']} would already have expertise in {p['area']}"
    return None


def _standing_premise(check: Callable) -> Check:
    """A premise about a worshipper's standing; none if it worships no god there (nothing to fold onto)."""
    def premise(world: World, p: dict) -> Optional[str]:
        s = world.gods.of(p["character"])
        return check(s, p) if s is not None else None
    return premise


def _repented(s, p: dict) -> Optional[str]:
    if (s.black, s.repentance_power(p["relapse"]), s.repentance_marks(p["marks_rule"])) != (
            p["black"], p["effective_power"], p["marks"]):
        return (f"{p['character']} would repent with {s.black} black marks at PR "
                f"{s.repentance_power(p['relapse'])}, not the {p['black']} at PR {p['effective_power']} it was read at")
    return None


def _converted(s, p: dict) -> Optional[str]:
    if s.lost_to is None or s.lost_to["battle"] != p["battle"]:
        return f"{p['character']}'s god would not have just lost the battle at event {p['battle']}"
    return None


def _punished(s, p: dict) -> Optional[str]:
    if p["check"] not in {c for c, _ in s.punishments_due}:
        return f"{p['character']} would have no punishment due from the check at event {p['check']}"
    return None


def _recovered(s, p: dict) -> Optional[str]:
    if s.penalty < p["penalty"]:
        return f"{p['character']} would have lost {s.penalty} A.T. and D.T. in battle, not {p['penalty']}"
    return None


def _aligned(world: World, p: dict) -> Optional[str]:
    s = world.gods.of(p["character"])
    if s is not None and s.alignment != p["alignment"]:
        return f"{p['character']} would worship {s.god} ({s.alignment}): a worshipper keeps its god's alignment"
    return None


def _adopted(world: World, p: dict, day: int) -> Optional[str]:
    held = world.gods.of(p["character"])
    if held is not None:
        return f"{p['character']} would already worship {held.god}"
    own = world.gods.alignment_of(p["character"])
    if p.get("character_alignment") is not None and own != p["character_alignment"]:
        return f"{p['character']}'s alignment would be {own}, not the {p['character_alignment']} {p['god']} matched"
    return gods_rules.adoption_refused(world, p["character"], p["adoption"], day) if p.get("adoption") else None


def _battled(world: World, p: dict, day: int) -> Optional[str]:
    for who, plea in ((p["character"], p["plea"]), (p["opponent"], p["opponent_plea"])):
        s = world.gods.of(who)
        if plea is not None and s is not None and s.supported_on(day) != plea:
            return f"{who} would have no answered plea (event {plea}) left that day for the battle"
    return None


def _crawled(world: World, p: dict, day: int) -> Optional[str]:
    s = world.gods.of(p["character"])
    if s is None:
        return None
    if s.prayers_within(day) != p["prayers_last_week"]:
        return (f"{p['character']} would have made {s.prayers_within(day)} prayers in the week before, "
                f"not the {p['prayers_last_week']} the crawling prayer was read at")
    if (p["effect"] == "removed_black_mark") != (p["accepted"] and s.black > 0):
        return f"{p['character']} would hold {s.black} black marks, which changes what the crawling prayer did"
    return None


def _project_ticked(world: World, p: dict) -> Optional[str]:
    project = world.downtime.project(p["name"])
    if p["rule"] == "session" and project is not None and ticked_in(project, p["by"], p["period"]):
        return f"{p['by']} would fill two ticks of {project['name']} in {p['period']} (one a session, 004 l.648)"
    return None


def _session_opened(world: World, p: dict) -> Optional[str]:
    overridden = {key(name) for name in p.get("overrides", {})}
    for name in p["activated"].values():
        back = world.sessions.back_on(name)
        if back is not None and p["start"] < back and key(name) not in overridden:
            return f"{name} would be away on another expedition until day {back}: one character in one place"
    return None


def _downtime_acted(world: World, p: dict, day: int) -> Optional[str]:
    from projections.downtime import actions_available, span_start

    c = _character(world, p["character"])
    if c is None:
        return None
    weeks, spent = actions_available(world, c.name, span_start(world, c), day)
    if spent >= weeks:
        return (f"{c.name} would have no downtime action left that week: {weeks} week(s) and {spent} "
                "already spent (one per in-game week, 004 l.640)")
    return None


def _session_joined(world: World, p: dict, day: int) -> Optional[str]:
    back = world.sessions.back_on(p["character"])
    if back is not None and day < back:
        return f"{p['character']} would be away on another expedition until day {back}: one character in one place"
    replaced = _character(world, p["replaces"]) if p["replaces"] else None
    if replaced is not None and replaced.status != "dead":
        return f"{replaced.name} would not have died when {p['character']} joined as the replacement"
    return None


# Checks that need the event's day as well.
DAY_PREMISES: dict[str, DayCheck] = {"downtime.acted": _downtime_acted, "god.adopted": _adopted,
                                     "god.battle": _battled, "god.crawled": _crawled,
                                     "hireling.hired": _hireling_hired, "session.joined": _session_joined}

PREMISES: dict[str, Check] = {
    "session.opened": _session_opened,
    "wealth.attempted": _wealth_attempt,
    "stronghold.attempted": _stronghold_attempt,
    "item.bought": _wealth_figure("wealth"),
    "item.sold": _wealth_figure("wealth"),
    "income.rolled": _wealth_figure("wealth_dice"),
    "vow.sworn": _vow_sworn,
    "boast.made": _boast_made,
    "boast.resolved": _boast_resolved,
    "companion.joined": _companion_joined,
    "level.attained": _level_attained,
    "level.lost": _level_lost,
    "xp.awarded": _treasure_spent,
    "hit_dice.spent": _hit_dice_spent,
    "skill.rolled": _expertise_applied,
    "expertise.gained": _expertise_gained,
    "alignment.chosen": _aligned,
    "god.prayed": _prayer,
    "god.repented": _standing_premise(_repented),
    "god.converted": _standing_premise(_converted),
    "god.punished": _standing_premise(_punished),
    "god.recovered": _standing_premise(_recovered),
    "skirmish.stat_set": _stat_set,
    "skirmish.skill_set": _skill_set,
    "skirmish.level_set": _level_set,
    "project.ticked": _project_ticked,
}


def premises(world: World, e: Envelope) -> Optional[str]:
    check = PREMISES.get(e.type)
    if check is not None:
        return check(world, e.payload)
    dated = DAY_PREMISES.get(e.type)
    return dated(world, e.payload, e.game_time) if dated is not None else None


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
