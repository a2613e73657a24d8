"""The read side's queries: plain data about a campaign at a point, for the
command line, the web view and the static site alike (each takes the
campaign as ``ledger.commands.base.load`` gives it). No caller computes a
figure itself: it prints or renders what these return."""

from __future__ import annotations

from typing import Any, Optional

from ledger.errors import BadInput, NotFound
from projections import world as world_model
from projections.describe import line
from projections.names import key
from projections.sheet import sheet
from projections.timeline import VOID, recorded, visible
from projections.why import story, subject_figure, unknown_subject

# The figures a character page charts over game time, where the sheet has them.
CHARTED = ("cash", "wealth", "boons", "xp", "level", "black_marks", "grey_marks", "silver", "renown", "hp")


def campaign_info(ctx) -> dict:
    """The campaign: rules, calendar, start and today, settings, the open dice epoch."""
    state, calendar = ctx.campaign, ctx.campaign.calendar
    current = ctx.epoch
    return {
        "name": state.name, "rules": list(state.rules), "calendar": state.calendar_spec,
        "start": calendar.format(state.start), "start_day": state.start,
        "today": calendar.format(state.today), "today_day": state.today,
        "settings": state.settings, "events": ctx.tx.count(ctx.name, upto=ctx.upto),
        "epoch": current.number if current else None,
        "commitment": current.commitment if current else None,
        "client_seed": current.client_seed if current else None,
    }


def session_info(ctx, number: Optional[int]) -> dict:
    """One session (default: the open one, else the latest): dates, who played, treasure, deaths, its events."""
    sessions = ctx.world.sessions
    session = sessions.get(number) if number else (sessions.current or (sessions.sessions[-1] if sessions.sessions else None))
    if session is None:
        raise NotFound(f"no session {number}" if number else "no session yet: `tally session open --activate NAME`")
    calendar = ctx.campaign.calendar
    return {"number": session.number, "open": session.open, "start": calendar.format(session.start),
            "end": calendar.format(session.end) if session.end is not None else None,
            "activated": session.activated, "treasure_found": session.found,
            "treasure_undivided": session.undivided, "deaths": list(session.deaths),
            "events": [e.position for e in ctx.events(session=session.number, after=session.opened_at - 1)]}


def downtime_due(ctx, since: Optional[str] = None) -> list[dict]:
    """Per character: what the weeks since their return (or ``since``) brought."""
    from projections.downtime import due

    calendar = ctx.campaign.calendar
    start = calendar.parse_or_day(since) if since else None
    rows = due(ctx.world, start)
    for row in rows:
        row["from"], row["to"] = calendar.format(row["from_day"]), calendar.format(row["to_day"])
    return rows


def sessions_list(ctx) -> list[dict]:
    """Every session the point sees, oldest first, with its in-game dates."""
    calendar = ctx.campaign.calendar
    return [{"number": s.number, "open": s.open, "start_day": s.start, "end_day": s.end,
             "start": calendar.format(s.start), "end": calendar.format(s.end) if s.end is not None else None,
             "players": len(s.activated), "characters": sorted(s.activated.values()), "treasure_found": s.found,
             "deaths": list(s.deaths)} for s in ctx.world.sessions.sessions]


def overview(ctx) -> dict:
    """The campaign page: everything a table asks about at once, as of the point."""
    world = ctx.world
    info = campaign_info(ctx)
    info["characters"] = [sheet(world, c.name) for c in world.stable.characters.values()]
    info["players"] = [{"name": p.name, "characters": list(p.characters), "owed_boons": p.owed_boons,
                        "set_aside": p.set_aside} for p in world.stable.players.values()]
    info["company"] = world.company.view()
    info["divine"] = [{"character": s.character, "god": s.god, "power": s.power, "black_marks": s.black,
                       "grey_marks": s.grey, "battle_penalty": s.penalty}
                      for s in world.divine.standings.values()] if ctx.campaign.runs("gods") else []
    info["downtime"] = downtime_due(ctx)
    info["sessions"] = sessions_list(ctx)
    info["session_open"] = world.sessions.current.number if world.sessions.current else None
    return info


def character(ctx, name: str) -> dict:
    """A character's sheet at the point, or a refusal naming the character."""
    found = sheet(ctx.world, name)
    if found is None:
        raise NotFound(f"no character named {name!r} (see `tally char list`)")
    return found


def figure_story(ctx, subject: str, field: Optional[str]) -> tuple[str, Any, list[dict]]:
    """`why`: the figure's label, its value at the point, and every event that bore on it."""
    if unknown_subject(ctx.world, subject):
        raise NotFound(f"no character, faction or stronghold called {subject!r} at that point")
    try:
        told = subject_figure(subject, field)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    found = story(recorded(ctx.envelopes, ctx.point), ctx.point, told)
    if not found and told.figure(ctx.world) is None:
        raise BadInput(f"{subject} has no field {field!r} (see `tally char show {subject} --json`)")
    calendar = ctx.campaign.calendar
    for row in found:
        row["game_date"] = calendar.format(row["game_time"])
        if row["late"]:
            row["late"]["recorded_date"] = calendar.format(row["late"]["recorded_day"])
    return told.label, told.figure(ctx.world), found


def series(ctx, name: str) -> dict[str, list[tuple[int, Any]]]:
    """The character's charted figures over game time up to the point: for each
    figure, (day, value) at the end of every day on which it changed, from
    the day the character joined."""
    found = character(ctx, name)
    fields = [f for f in CHARTED if isinstance(found.get(f), int) and not isinstance(found.get(f), bool)]
    out: dict[str, list[tuple[int, Any]]] = {f: [] for f in fields}
    world, day = world_model.EMPTY, None

    def take(on: int) -> None:
        now = sheet(world, name) if world.campaign is not None else None
        if now is None:
            return
        for f in fields:
            value = now.get(f)
            if isinstance(value, int) and (not out[f] or out[f][-1][1] != value):
                out[f].append((on, value))

    for e in visible(ctx.envelopes, ctx.point):
        if day is not None and e.game_time != day:
            take(day)
        world, day = world_model.apply(world, e), e.game_time
    if day is not None:
        take(day)
    return out


def reputation_series(ctx) -> dict[str, list[tuple[int, int]]]:
    """The Company's Reputation with each Faction over game time up to the point."""
    from projections.company import reputation_after

    out: dict[str, list[tuple[int, int]]] = {}
    names: dict[str, str] = {}
    for e in visible(ctx.envelopes, ctx.point):
        if e.type == "reputation.changed":
            k = key(e.payload["faction"])
            faction = names.setdefault(k, e.payload["faction"])
            points = out.setdefault(faction, [])
            value = reputation_after(e.payload)
            if points and points[-1][0] == e.game_time:
                points[-1] = (e.game_time, value)
            else:
                points.append((e.game_time, value))
    return out


def event(ctx, position: int) -> dict:
    """One event the point sees, with the roll it follows from, what follows from it and any void."""
    found = ctx.event(position)
    if found is None:
        raise NotFound(f"no event {position} in campaign {ctx.name} at that point")
    calendar = ctx.campaign.calendar
    cause = ctx.event(found.cause) if found.cause else None
    voids, effects_of = _consequences(ctx)
    voided_by = voids.get(position)
    effects = effects_of.get(position, [])
    return {**found.to_dict(), "game_date": calendar.format(found.game_time), "what": line(found),
            "cause_event": _brief(cause, calendar) if cause else None,
            "effects": [_brief(e, calendar) for e in effects],
            "voided_by": _brief(voided_by, calendar) if voided_by else None}


def _consequences(ctx) -> tuple[dict, dict]:
    """Each event's void and the events that follow from it, indexed once per loaded campaign
    (a static site renders every event page from one load)."""
    found = ctx.__dict__.get("_consequences")
    if found is None:
        voids, effects = {}, {}
        for e in ctx.envelopes:
            if e.type == VOID:
                voids[e.payload["target"]] = e
            if e.cause:
                effects.setdefault(e.cause, []).append(e)
        found = ctx.__dict__["_consequences"] = (voids, effects)
    return found


def latest_checkpoint(ctx) -> Optional[str]:
    """The campaign's latest signed checkpoint the point sees, as the note players keep (with its cosignatures)."""
    from projections import checkpoints

    recorded = checkpoints.read(ctx.tx, ctx.name)
    signed = [e for e in recorded.checkpoints if e.position <= ctx.upto]
    if not signed:
        return None
    last = signed[-1]
    return checkpoints.with_cosignatures(checkpoints.note_of(last), [
        c for c in recorded.cosignatures if c.position <= ctx.upto
        and (c.payload["size"], c.payload["root"]) == (last.payload["size"], last.payload["root"])])


def _brief(e, calendar) -> dict:
    return {"position": e.position, "type": e.type, "game_date": calendar.format(e.game_time), "what": line(e),
            "session": e.session, "actor": e.actor, "recorded_at": e.recorded_at}


def log_rows(ctx, *, types: Optional[list[str]] = None, session: Optional[int] = None,
             character: Optional[str] = None, text: Optional[str] = None, limit: int = 500,
             before: Optional[int] = None) -> dict:
    """The log at the point, newest first, filtered by type, session, character or words;
    ``limit`` rows from ``before`` on (older pages follow)."""
    calendar = ctx.campaign.calendar
    held = ctx.envelopes
    voided = {e.payload["target"]: e.position for e in held if e.type == VOID}
    rows = []
    for e in reversed(held):
        if before is not None and e.position >= before:
            continue
        if types and e.type not in types:
            continue
        if session is not None and e.session != session:
            continue
        if character and key(str(e.payload.get("character") or e.payload.get("name") or "")) != key(character):
            continue
        what = line(e)
        if text and text.lower() not in (what + " " + e.type).lower():
            continue
        rows.append({"position": e.position, "game_day": e.game_time, "game_date": calendar.format(e.game_time),
                     "type": e.type, "actor": e.actor, "session": e.session, "what": what,
                     "cause": e.cause, "voided_by": voided.get(e.position), "recorded_at": e.recorded_at})
        if len(rows) > limit:
            break
    more = len(rows) > limit
    rows = rows[:limit]
    return {"rows": rows, "more_before": rows[-1]["position"] if more and rows else None,
            "types": sorted({e.type for e in held})}


def epochs(ctx) -> list[dict]:
    """Every dice epoch the point sees: commitment, client seed, reveal, and each roll as recorded."""
    calendar = ctx.campaign.calendar
    rolls = {e.position: e for e in ctx.events(types=["dice.rolled"])}
    out = []
    for epoch in ctx.dice.epochs:
        shown = []
        for position in epoch.rolls:
            e = rolls.get(position)
            if e is None:
                continue
            p = e.payload
            shown.append({"position": position, "nonce": p.get("nonce"), "expression": p["expression"],
                          "dice": list(p["dice"]), "total": p["total"], "verifiable": p["verifiable"],
                          "character": p.get("character"), "why": p.get("why"),
                          "game_date": calendar.format(e.game_time), "what": line(e)})
        out.append({"epoch": epoch.number, "commitment": epoch.commitment, "committed_at": epoch.committed_at,
                    "client_seed": epoch.client_seed, "seed": epoch.seed, "revealed_at": epoch.revealed_at,
                    "rolls": shown, "derived": epoch.nonces, "hand_rolls": epoch.hand_rolls})
    return out


def epoch(ctx, number: int) -> dict:
    found = next((e for e in epochs(ctx) if e["epoch"] == number), None)
    if found is None:
        raise NotFound(f"no dice epoch {number} in campaign {ctx.name} at that point")
    return found


DICE_EVENTS = ("dice.committed", "dice.client_seed_set", "dice.revealed", "dice.rolled")


def epoch_events(ctx, number: int) -> list[dict]:
    """The epoch's own events as `tally export` shapes them (envelope and payload), for a check that
    re-derives them elsewhere (a player's browser)."""
    return [{"position": e.position, "campaign": e.campaign, "type": e.type, "payload": e.payload}
            for e in ctx.events(types=list(DICE_EVENTS)) if e.payload.get("epoch") == number]


def timeline(ctx) -> list[dict]:
    """Sessions and the downtime between them, on the campaign's calendar, oldest first."""
    calendar = ctx.campaign.calendar
    rows, last_end = [], ctx.campaign.start
    for s in sessions_list(ctx):
        if s["start_day"] > last_end:
            rows.append({"kind": "downtime", "from_day": last_end, "to_day": s["start_day"],
                         "from": calendar.format(last_end), "to": calendar.format(s["start_day"]),
                         "days": s["start_day"] - last_end})
        rows.append({"kind": "session", **s, "from_day": s["start_day"],
                     "to_day": s["end_day"] if s["end_day"] is not None else ctx.campaign.today})
        last_end = s["end_day"] if s["end_day"] is not None else ctx.campaign.today
    if ctx.campaign.today > last_end:
        rows.append({"kind": "downtime", "from_day": last_end, "to_day": ctx.campaign.today,
                     "from": calendar.format(last_end), "to": calendar.format(ctx.campaign.today),
                     "days": ctx.campaign.today - last_end})
    return rows


def session_page(ctx, number: int) -> dict:
    """A session: its summary, the rolls made in it, and its events."""
    info = session_info(ctx, number)
    calendar = ctx.campaign.calendar
    events = ctx.events(session=number)
    info["rolls"] = [{"position": e.position, "what": line(e), "game_date": calendar.format(e.game_time)}
                     for e in events if e.type == "dice.rolled"]
    info["log"] = [{"position": e.position, "type": e.type, "what": line(e),
                    "game_date": calendar.format(e.game_time)} for e in events if e.type != "dice.rolled"]
    return info
