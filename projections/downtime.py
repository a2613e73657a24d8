"""The downtime read model: actions taken and project clocks; and the view
of what a span of downtime brings each character."""

from __future__ import annotations

from typing import Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.envelope import Envelope
from ledger.names import key
from projections.handlers import Table, entry

WEEK = 7  # l.640: "one other substantial Downtime Action per week"


class Downtime(Struct, frozen=True):
    acts: dict[str, tuple[int, ...]] = field(default_factory=dict)  # character key -> game days acted
    # key -> name, owner, ticks, filled, ticked ([character key, session] of each tick)
    projects: dict[str, dict] = field(default_factory=dict)

    def project(self, name: str):
        return self.projects.get(key(name))


TABLE = Table("downtime")


def _action_left(world, p: dict, day: int) -> Optional[str]:
    c = world.stable.character(p["character"])
    if c is None:
        return None
    weeks, spent = actions_available(world, c.name, span_start(world, c), day)
    if spent >= weeks:
        return (f"{c.name} would have no downtime action left that week: {weeks} week(s) and {spent} "
                "already spent (one per in-game week, 004 l.640)")
    return None


@TABLE.on("downtime.acted", line=lambda p: f"{p['character']} spends a downtime action: {p['action']}"
          + (f" (project {p['project']})" if p.get("project") else ""), premise=_action_left)
def _acted(state: Downtime, p: dict, e: Envelope) -> Downtime:
    k = key(p["character"])
    return replace(state, acts={**state.acts, k: state.acts.get(k, ()) + (e.game_time,)})


@TABLE.on("project.started", line=lambda p: f"project {p['name']} begins for {p['owner']}: {p['ticks']} ticks")
def _started(state: Downtime, p: dict, e: Envelope) -> Downtime:
    project = {"name": p["name"], "owner": p["owner"], "ticks": p["ticks"], "filled": 0, "ticked": []}
    return replace(state, projects={**state.projects, key(p["name"]): project})


def _one_tick_a_session(world, p: dict, day: int) -> Optional[str]:
    project = world.downtime.project(p["name"])
    if p["rule"] == "session" and project is not None and ticked_in(project, p["by"], p["period"]):
        return (f"{p['by']} would fill two ticks of {project['name']} {stretch(p['period'])} "
                "(one a session, 004 l.648)")
    return None


@TABLE.on("project.ticked", line=lambda p: f"project {p['name']}: one tick of {p['ticks']} by {p['by']}",
          premise=_one_tick_a_session)
def _ticked(state: Downtime, p: dict, e: Envelope) -> Downtime:
    k = key(p["name"])
    project = entry(state.projects, k, f"project {p['name']}")
    ticked = project.get("ticked", []) + [[key(p["by"]), p.get("period", "")]]
    return replace(state, projects={**state.projects, k: {**project, "filled": project["filled"] + 1,
                                                          "ticked": ticked}})


apply = TABLE.apply


def view(project: dict) -> dict:
    """A project as the referee sees it: its clock and who owns it."""
    return {k: project[k] for k in ("name", "owner", "ticks", "filled")}


def stretch(period: str) -> str:
    """A once-per-session period as a sentence reads it: "before session 1", "since session 3 opened"."""
    return period if period.startswith("before") else f"since {period} opened"


def ticked_in(project: dict, character: str, period: str) -> bool:
    """Whether the character already filled a tick of the project in that session."""
    return [key(character), period] in project.get("ticked", [])


def actions_available(world, character: str, since: int, until: int) -> tuple[int, int]:
    """(weeks of downtime in the span, actions already spent in it)."""
    weeks = max(0, until - since) // WEEK
    spent = sum(1 for day in world.downtime.acts.get(key(character), ()) if since <= day <= until)
    return weeks, spent


def span_start(world, character) -> int:
    """A character's downtime runs from its return from its latest expedition
    (or its creation, or the campaign's start)."""
    back = world.sessions.back_on(character.name)
    return back if back is not None else max(world.campaign.start, character.created_day)


def due(world, since: int | None = None, until: int | None = None) -> list[dict]:
    """What the span brought each active character not out on an expedition."""
    from ledger.rules import gods as god_rules
    from projections.gods import odds

    until = world.campaign.today if until is None else until
    current = world.sessions.current
    rows = []
    for character in world.stable.characters.values():
        if character.status != "active" or (current and current.is_activated(character.name)):
            continue
        start = span_start(world, character) if since is None else since
        weeks, spent = actions_available(world, character.name, start, until)
        row = {"character": character.name, "from_day": start, "to_day": until, "weeks": weeks,
               "actions_available": max(0, weeks - spent), "actions_spent": spent,
               "projects": [view(p) for p in world.downtime.projects.values()
                            if key(p["owner"]) == key(character.name) and p["filled"] < p["ticks"]]}
        if world.campaign.runs("wolves"):
            raider = world.wolves.of(character.name)
            row["wages_owed"] = raider.wages_earned(until) - raider.wages_paid
        if world.campaign.runs("coeac"):
            row["followers_ready"] = [v["lost"] for v in character.vacancies if v["ready_day"] <= until]
        standing = world.gods.of(character.name) if world.campaign.runs("gods") else None
        if standing:
            god = odds(world, character.name)
            row["prayers_last_week"] = god["prayers_last_week"]
            row["crawl_chance"] = god["crawl_chance"]
            row["manifestation_eligible"] = god["manifestation_eligible"]
            row["punishment_threshold"] = god_rules.punishment_threshold(standing.power)
        rows.append(row)
    return rows
