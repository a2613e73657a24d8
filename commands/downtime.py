"""Spending downtime (004 l.634-648): one substantial action per in-game week
in a haven, and project clocks that fill one tick per action given them."""

from __future__ import annotations

from typing import Optional

from ledger import settings
from commands.base import character_stream, clean_name, clean_text, find_character, record
from commands.state import State, state_of
from ledger.envelope import NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.downtime import DowntimeActed, ProjectStarted, ProjectTicked
from projections.downtime import actions_available, span_start, ticked_in
from ledger.names import key

MAX_TICKS = 20


def project_started(state: State, name: str, ticks: int, owner: str) -> list[NewEvent]:
    character = find_character(state, owner)
    if state.world.downtime.project(name):
        raise RuleRefused(f"a project named {name!r} already exists")
    if not 1 <= ticks <= MAX_TICKS:
        raise BadInput(f"a project clock has 1 to {MAX_TICKS} ticks (004 l.648: 2-4 modest, 4-8 serious)")
    return [NewEvent(f"project:{key(name)}", ProjectStarted(name=name, owner=character.name, ticks=ticks),
                     game_time=state.today)]


def start_project(store, campaign, name: str, *, ticks: int, owner: str, actor: str,
                  game_date: Optional[str] = None, ruling: Optional[str] = None):
    name = clean_name(name, "a project's name")
    return record(store, campaign, actor, lambda ctx: project_started(state_of(ctx), name, ticks, owner),
                  game_date=game_date, ruling=ruling)


def downtime_action(state: State, name: str, action: str, project: Optional[str] = None) -> list[NewEvent]:
    character = find_character(state, name)
    session = state.session
    if session is not None and session.is_activated(character.name):
        raise RuleRefused(f"{character.name} is out on session {session.number}'s expedition, not in a haven")
    start = span_start(state.world, character)
    weeks, spent = actions_available(state.world, character.name, start, state.today)
    available = weeks - spent
    if available < 1:
        calendar = state.campaign.calendar
        raise RuleRefused(
            f"{character.name} has no downtime action left: {weeks} week(s) since "
            f"{calendar.format(start)} and {spent} spent (one per in-game week, 004 l.640); "
            "advance the calendar or log it on a later --game-date"
        )
    p = _project(state, project, character.name) if project else None
    stream = character_stream(character.name)
    events = [NewEvent(stream, DowntimeActed(character=character.name, action=action, project=p and p["name"],
                                             available_before=available), game_time=state.today)]
    if p:
        rule, period = settings.in_force(state.campaign.settings, "project_ticks"), state.world.sessions.cycle
        if rule == "session" and ticked_in(p, character.name, period):
            # l.648: "Each session that a character dedicates a Downtime Action to a project, she may fill
            # in one tick": the action is theirs to give, the session's tick is already filled.
            return events
        events.append(NewEvent(f"project:{key(p['name'])}", ProjectTicked(
            name=p["name"], by=character.name, ticks=p["ticks"], period=period, rule=rule),
            game_time=state.today))
    return events


def act(store, campaign, name: str, action: str, *, actor: str, project: Optional[str] = None,
        game_date: Optional[str] = None, ruling: Optional[str] = None):
    action = clean_text(action, "the action")
    return record(store, campaign, actor, lambda ctx: downtime_action(state_of(ctx), name, action, project),
                  game_date=game_date, ruling=ruling)


def _project(state: State, name: str, character: str) -> dict:
    found = state.world.downtime.project(name)
    if found is None:
        raise NotFound(f"no project named {name!r} (start one with `tally project start`)")
    if found["filled"] >= found["ticks"]:
        raise RuleRefused(f"{found['name']} is complete ({found['ticks']} of {found['ticks']} ticks)")
    return found
