"""The read side's queries: plain data about a campaign at a point, for the
command line, the web view and the static site alike (each takes the
campaign as ``projections.reading.load`` gives it). No caller computes a
figure itself: it prints or renders what these return."""

from __future__ import annotations

import json
from typing import Any, Optional

from ledger.errors import BadInput, NotFound
from ledger.events.registry import known_types
from projections import kept
from projections import world as world_model
from projections.describe import line
from projections.sealed import pick_note, picked
from ledger.names import key
from projections.sheet import sheet
from projections.timeline import VOID, recorded
from projections import rulings
from projections.why import Folded, figure_types, fold_held, sheet_moved, story, subject_figure, unknown_subject

# Events that follow from another are appended in its transaction: looked for this far after it.
EFFECTS_WITHIN = 500

# Long lists come a page at a time: the most recent first page, older ones behind a link.
LIST_PAGE = 200  # rows of a figure's story, sessions of the timeline, dice epochs
RECENT_SESSIONS = 20  # sessions the campaign page lists (the timeline has them all)
LOG_SCAN = 10_000  # events a filtered log page reads back before it stops and offers the older ones

# The figures a character page charts over game time, where the sheet has them.
CHARTED = ("cash", "wealth", "boons", "xp", "level", "black_marks", "grey_marks", "silver", "renown", "hp")


def _payload_needed(event_type: str) -> bool:
    return event_type == VOID or world_model.needs_payload(event_type)


def _held(ctx) -> list:
    """The events a figure's story reads that the ledger held at the point, voids included,
    in position order."""
    return list(ctx.tx.read(ctx.name, upto=ctx.upto, types=[*figure_types(), VOID]))


def _days(ctx) -> list[tuple[int, int]]:
    """(position, game day) of every event the point sees: two columns, no envelope."""
    import sqlalchemy as sa

    from ledger.schema import events

    return [tuple(row) for row in ctx.tx.conn.execute(
        sa.select(events.c.position, events.c.game_time)
        .where(events.c.campaign == ctx.name, events.c.position <= ctx.upto).order_by(events.c.position))]


def _facts(ctx, types: list[str]) -> list:
    """The facts of a few types in force at the point, in fold order (as projections/
    timeline.visible): read on the types' index, then put in order here (the game-day index
    would walk every event of the days asked for)."""
    voided = {e.payload["target"] for e in ctx.tx.read(ctx.name, upto=ctx.upto, types=[VOID])}
    found = [e for e in ctx.tx.read(ctx.name, upto=ctx.upto, types=types)
             if e.position not in voided and (ctx.point.as_of is None or e.game_time <= ctx.point.as_of)]
    return sorted(found, key=lambda e: (e.game_time, e.position))


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


def today_view(ctx) -> dict:
    """The calendar at the point: today, the world's date, season, week day, era and moons where it has them."""
    calendar, state = ctx.campaign.calendar, ctx.campaign
    view = {"today": calendar.format(state.today), "day": state.today, "world_date": calendar.format(state.world_day),
            "calendar": state.calendar_spec["kind"],
            "start": calendar.format(state.start), "days_since_start": state.today - state.start,
            "year_days": calendar.year_days}
    for part in ("season", "weekday", "era"):
        said = getattr(calendar, part)(state.today) if hasattr(calendar, part) else None
        if said:
            view[part] = said
    if getattr(calendar, "moons", None):
        view["moons"] = calendar.moon_phases(state.today)
    return view


def who_view(ctx) -> dict:
    """Each active character's own in-game now, and how far ahead of the world's date."""
    calendar, world = ctx.campaign.calendar, ctx.world
    rows = []
    for character in world.stable.characters.values():
        if character.status != "active":
            continue
        back = world.sessions.back_on(character.name)
        away = world.sessions.current and world.sessions.current.is_activated(character.name)
        now = max(back or world.campaign.world_day, world.campaign.world_day)
        rows.append({"character": character.name, "player": character.player, "now": calendar.format(now),
                     "ahead_days": now - world.campaign.world_day, "on_expedition": bool(away)})
    rows.sort(key=lambda r: -r["ahead_days"])
    return {"world_date": calendar.format(world.campaign.world_day), "characters": rows}


def session_info(ctx, number: Optional[int]) -> dict:
    """One session (default: the open one, else the latest): dates, who played, treasure, deaths, its events."""
    sessions = ctx.world.sessions
    if number is not None:  # 0 is a number given (there is no session 0), not "the latest"
        session = sessions.get(number)
    else:
        session = sessions.current or (sessions.sessions[-1] if sessions.sessions else None)
    if session is None:
        raise NotFound(f"no session {number}" if number is not None
                       else "no session yet: `tally session open --activate NAME`")
    calendar = ctx.campaign.calendar
    return {"number": session.number, "open": session.open, "start": calendar.format(session.start),
            "end": calendar.format(session.end) if session.end is not None else None,
            "activated": session.activated, "treasure_found": session.found,
            "treasure_undivided": session.undivided, "deaths": list(session.deaths),
            "events": [e.position for e in _session_events(ctx, session)]}


def _session_events(ctx, session) -> list:
    """A session's events: recorded while it was open, so from its opening to the next one's."""
    following = ctx.world.sessions.get(session.number + 1)
    upto = min(ctx.upto, following.opened_at - 1) if following is not None else ctx.upto
    return list(ctx.tx.read(ctx.name, after=session.opened_at - 1, upto=upto, session=session.number))


def downtime_due(ctx, since: Optional[str] = None) -> list[dict]:
    """Per character: what the weeks since their return (or ``since``) brought."""
    from projections.downtime import due

    calendar = ctx.campaign.calendar
    start = calendar.parse_or_day(since) if since else None
    rows = due(ctx.world, start)
    for row in rows:
        row["from"], row["to"] = calendar.format(row["from_day"]), calendar.format(row["to_day"])
    return rows


def sessions_list(ctx, *, last: Optional[int] = None, count: Optional[int] = None) -> list[dict]:
    """Every session the point sees, oldest first, with its in-game dates; or the ``count``
    up to session ``last`` (default: the latest)."""
    calendar = ctx.campaign.calendar
    sessions = ctx.world.sessions.sessions if count is None else ctx.world.sessions.latest(count, last)
    return [{"number": s.number, "open": s.open, "start_day": s.start, "end_day": s.end,
             "start": calendar.format(s.start), "end": calendar.format(s.end) if s.end is not None else None,
             "players": len(s.activated), "characters": sorted(s.activated.values()), "treasure_found": s.found,
             "deaths": list(s.deaths)} for s in sessions]


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
                      for s in world.gods.standings.values()] if ctx.campaign.runs("gods") else []
    info["downtime"] = downtime_due(ctx)
    info["sessions"] = sessions_list(ctx, count=RECENT_SESSIONS)  # the most recent; the timeline has them all
    info["session_count"] = ctx.world.sessions.next_number - 1
    info["session_open"] = world.sessions.current.number if world.sessions.current else None
    info["calendar_today"], info["who"] = today_view(ctx), who_view(ctx)["characters"]
    return info


def character(ctx, name: str) -> dict:
    """A character's sheet at the point, or a refusal naming the character."""
    found = sheet(ctx.world, name)
    if found is None:
        raise NotFound(f"no character named {name!r} (see `tally char list`)")
    return found


def _kept_steps(ctx, subject: Optional[str]) -> Optional[list]:
    """The subject's kept steps at the point (projections/kept.py), or None where they cannot
    answer it: a point that sees less than the whole log (an earlier event or instant), or
    histories not kept in this ledger."""
    if subject is None or ctx.upto != (ctx.tx.campaign_head(ctx.name) or 0):
        return None
    return kept.steps_of(ctx.tx, ctx.name, subject, ctx.upto, ctx.point.as_of)


def _folded(folded) -> Folded:
    return folded() if callable(folded) else folded


def fold(ctx) -> Folded:
    """The events a figure reads, folded once at the point: every figure's story and every
    character's chart can be read off it (a server may keep it while the ledger stays as it is)."""
    return fold_held(recorded(_held(ctx), ctx.point), ctx.point, _days(ctx))


def _figure_told(ctx, subject: str, field: Optional[str]):
    """The figure a `why` asks about, refused in one line if its subject is unknown at the point."""
    if unknown_subject(ctx.world, subject):
        raise NotFound(f"no character, faction or stronghold called {subject!r} at that point")
    try:
        return subject_figure(subject, field)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def figure_story(ctx, subject: str, field: Optional[str], folded=None) -> tuple[str, Any, list[dict]]:
    """`why`: the figure's label, its value at the point, and every event that bore on it.
    ``folded``: the point's fold, or a function that makes it, for points the kept
    histories cannot answer."""
    told = _figure_told(ctx, subject, field)
    steps = _kept_steps(ctx, told.kept)
    if steps is not None:
        found, _ = kept.story(steps, told, ctx.tx.get_many)
    else:
        found = story((), ctx.point, told, cause_of=ctx.event, folded=_folded(folded) if folded else fold(ctx))
    if not found and told.figure(ctx.world) is None:
        raise BadInput(_no_figure(subject, field))
    _dated(ctx, found)
    rulings.mark_rows(ctx, found)
    return told.label, told.figure(ctx.world), found


def figure_story_page(ctx, subject: str, field: Optional[str], folded=None, before: Optional[str] = None,
                      count: int = LIST_PAGE) -> tuple[str, Any, list[dict], Optional[str]]:
    """A page of `why`: the story's ``count`` latest rows before the point in it ``before``
    (``DAY-POSITION``, in fold order; default: its end), and where the earlier rows end."""
    key_ = _story_key(before)
    told = _figure_told(ctx, subject, field)
    steps = _kept_steps(ctx, told.kept)
    if steps is not None:
        found, more = kept.story(steps, told, ctx.tx.get_many, count=count, before=key_)
    else:
        rows = story((), ctx.point, told, cause_of=ctx.event, folded=_folded(folded) if folded else fold(ctx))
        rows = [r for r in rows if key_ is None or (r["game_time"], r["position"]) < key_]
        found, more = rows[-count:], len(rows) > count
    if not found and told.figure(ctx.world) is None:
        raise BadInput(_no_figure(subject, field))
    _dated(ctx, found)
    rulings.mark_rows(ctx, found)
    earlier = f"{found[0]['game_time']}-{found[0]['position']}" if more and found else None
    return told.label, told.figure(ctx.world), found, earlier


def _no_figure(subject: str, field: Optional[str]) -> str:
    if field and field.lower().startswith("item:"):
        return (f"{subject} never had an item called {field[5:].strip()!r} (see the inventory: "
                f"`tally char show {subject}`)")
    return f"{subject} has no field {field!r} (see `tally char show {subject} --json`)"


def _story_key(before: Optional[str]) -> Optional[tuple[int, int]]:
    if before is None:
        return None
    day, _, position = before.partition("-")
    if not (day.lstrip("-").isdigit() and position.isdigit()) or len(before) > 30:
        raise BadInput(f"before= takes DAY-POSITION from an 'earlier' link, not {before!r}")
    return int(day), int(position)


def _dated(ctx, rows: list[dict]) -> None:
    calendar = ctx.campaign.calendar
    for row in rows:
        row["game_date"] = calendar.format(row["game_time"])
        if row["late"]:
            row["late"]["recorded_date"] = calendar.format(row["late"]["recorded_day"])


def series(ctx, name: str, folded=None) -> dict[str, list[tuple[int, Any]]]:
    """The character's charted figures over game time up to the point: for each
    figure, (day, value) at the end of every day on which it changed, from
    the day the character joined. ``folded`` as for ``figure_story``."""
    found = character(ctx, name)
    fields = [f for f in CHARTED if isinstance(found.get(f), int) and not isinstance(found.get(f), bool)]
    out: dict[str, list[tuple[int, Any]]] = {f: [] for f in fields}
    steps = _kept_steps(ctx, kept.character_subject(name))
    if steps is not None:
        return _kept_series(steps, fields, out)
    moved = sheet_moved(name)
    world, day, taken = world_model.EMPTY, None, None

    def take(on: int) -> None:
        nonlocal taken
        if taken is not None and (world is taken or not moved(taken, world)):
            return  # nothing this sheet reads has changed since the last day taken
        taken = world
        now = sheet(world, name) if world.campaign is not None else None
        if now is None:
            return
        for f in fields:
            value = now.get(f)
            if isinstance(value, int) and (not out[f] or out[f][-1][1] != value):
                out[f].append((on, value))

    for e, _, after in (_folded(folded) if folded else fold(ctx)).steps:
        if day is not None and e.game_time != day:
            take(day)
        world, day = after, e.game_time
    if day is not None:
        take(day)
    return out


def _kept_series(steps, fields: list[str], out: dict) -> dict:
    figures, day = None, None

    def take(on: int) -> None:
        for f in fields:
            value = figures.get(f) if figures else None
            if isinstance(value, int) and (not out[f] or out[f][-1][1] != value):
                out[f].append((on, value))

    for step, _, after in kept.values(steps):
        if day is not None and step.game_time != day and figures is not None:
            take(day)
        figures, day = after, step.game_time
    if day is not None:
        take(day)
    return out


def reputation_series(ctx) -> dict[str, list[tuple[int, int]]]:
    """The Company's Reputation with each Faction over game time up to the point:
    the running total in game-date order, as the fold keeps it (a change logged
    late moves every later point), not each change's value as decided."""
    from projections.company import reputation_step

    out: dict[str, list[tuple[int, int]]] = {}
    names: dict[str, str] = {}
    for e in _facts(ctx, types=["reputation.changed"]):
        if e.type == "reputation.changed":
            k = key(e.payload["faction"])
            faction = names.setdefault(k, e.payload["faction"])
            points = out.setdefault(faction, [])
            value = reputation_step(points[-1][1] if points else 0, e.payload)
            if points and points[-1][0] == e.game_time:
                points[-1] = (e.game_time, value)
            else:
                points.append((e.game_time, value))
    return out


def consequences(ctx) -> tuple[dict, dict, dict]:
    """Every event the point sees by position, each one's void, and the events that follow from
    each: read once, for rendering many event pages (a static site)."""
    everything, voids, effects = {}, {}, {}
    for e in ctx.envelopes:
        everything[e.position] = e
        if e.type == VOID:
            voids[e.payload["target"]] = e
        if e.cause:
            effects.setdefault(e.cause, []).append(e)
    return everything, voids, effects


def event(ctx, position: int, index: Optional[tuple[dict, dict, dict]] = None) -> dict:
    """One event the point sees, with the roll it follows from, what follows from it and any void.
    ``index``: ``consequences(ctx)``, when many event pages are rendered from one point."""
    if index is not None:
        everything, voids, effects_of = index
        found = everything.get(position)
        cause = everything.get(found.cause) if found is not None and found.cause else None
        voided_by, effects = voids.get(position), effects_of.get(position, [])
    else:
        found = ctx.event(position)
        cause = ctx.event(found.cause) if found is not None and found.cause else None
        voided_by = next((e for e in ctx.tx.read(ctx.name, upto=ctx.upto, types=[VOID])
                          if e.payload["target"] == position), None)
        # What follows from an event is appended by the same command, right after it.
        effects = [e for e in ctx.tx.read(ctx.name, after=position, upto=min(ctx.upto, position + EFFECTS_WITHIN))
                   if e.cause == position]
    if found is None:
        raise NotFound(f"no event {position} in campaign {ctx.name} at that point")
    calendar = ctx.campaign.calendar
    return {**found.to_dict(), "game_date": calendar.format(found.game_time), "what": _what(found, ctx),
            "table": picked(found.payload, ctx.world.sealed) if found.type == "dice.rolled" else None,
            "cause_event": _brief(cause, calendar) if cause else None,
            "effects": [_brief(e, calendar) for e in effects],
            "voided_by": _brief(voided_by, calendar) if voided_by else None}


def _what(e, ctx) -> str:
    """An event's line; beside a roll on a sealed table, once the table is revealed, the line it picked."""
    return line(e) + (pick_note(e.payload, ctx.world.sealed) if e.type == "dice.rolled" else "")


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
             before: Optional[int] = None, scan: Optional[int] = LOG_SCAN) -> dict:
    """The log at the point, newest first, filtered by type, session, character or words;
    ``limit`` rows before position ``before`` (older pages follow). The database picks the
    rows of a type or session; a name or words are looked for in at most ``scan`` events
    read back from ``before`` (None: all), and the page says how far back it looked."""
    calendar = ctx.campaign.calendar
    upto = min(ctx.upto, before - 1) if before is not None else ctx.upto
    looked = not (character or text)  # every event read is a row
    read = ctx.tx.read(ctx.name, upto=upto, types=types, session=session, newest_first=True,
                       limit=limit + 1 if looked or scan is None else scan)
    rows, oldest_read, seen = [], None, 0
    for e in read:
        oldest_read, seen = e.position, seen + 1
        if character and key(str(e.payload.get("character") or e.payload.get("name") or "")) != key(character):
            continue
        what = _what(e, ctx)
        if text and text.lower() not in (what + " " + e.type).lower():
            continue
        rows.append({"position": e.position, "game_day": e.game_time, "game_date": calendar.format(e.game_time),
                     "type": e.type, "actor": e.actor, "session": e.session, "what": what,
                     "cause": e.cause, "voided_by": None, "recorded_at": e.recorded_at})
        if len(rows) > limit:
            break
    read.close()
    more = len(rows) > limit
    rows = rows[:limit]
    if more:
        more_before = rows[-1]["position"]
    elif not looked and scan is not None and seen >= scan and oldest_read is not None and oldest_read > 1:
        more_before = oldest_read  # the scan stopped here: the older events are one link away
    else:
        more_before = None
    if rows:  # the voids of the rows shown, read among the voids recorded after the oldest of them
        voided = {v.payload["target"]: v.position for v in ctx.tx.read(
            ctx.name, after=rows[-1]["position"], upto=ctx.upto, types=[VOID])}
        for row in rows:
            row["voided_by"] = voided.get(row["position"])
    return {"rows": rows, "more_before": more_before, "types": sorted(known_types()),
            "searched_from": None if looked or scan is None else oldest_read}


def log_window(ctx, first: int, last: int) -> dict:
    """The campaign's events at positions first..last, newest first, each with what an event
    page shows of it (the static site's log: a page of them replaces a page each)."""
    calendar = ctx.campaign.calendar
    upto = min(last, ctx.upto)
    found = list(ctx.tx.read(ctx.name, after=first - 1, upto=upto))
    voided = {v.payload["target"]: v.position for v in ctx.tx.read(ctx.name, after=first - 1, upto=ctx.upto,
                                                                    types=[VOID])}
    rows = [{"position": e.position, "game_day": e.game_time, "game_date": calendar.format(e.game_time),
             "type": e.type, "actor": e.actor, "session": e.session, "what": _what(e, ctx), "cause": e.cause,
             "voided_by": voided.get(e.position), "recorded_at": e.recorded_at, "stream": e.stream,
             "version": e.version, "hash": e.hash,
             "roll": {k: e.payload.get(k) for k in ("verifiable", "nonce", "epoch")} if e.type == "dice.rolled" else None,
             "payload": json.dumps(e.payload, ensure_ascii=False, separators=(",", ":"))}
            for e in reversed(found)]
    return {"rows": rows, "types": []}


DICE_EVENTS = ("dice.committed", "dice.client_seed_set", "dice.revealed", "dice.rolled")


def epochs(ctx) -> list[dict]:
    """Every dice epoch the point sees: commitment, client seed, reveal and how many rolls it derived
    (read from the epochs' own events, never from every roll)."""
    found: dict[int, dict] = {}
    for e in ctx.events(types=list(DICE_EVENTS[:3])):
        p = e.payload
        if e.type == "dice.committed":
            found[p["epoch"]] = {"epoch": p["epoch"], "commitment": p["commitment"], "committed_at": e.position,
                                 "client_seed": "", "seed": None, "revealed_at": None, "derived": None}
        elif p["epoch"] in found and e.type == "dice.client_seed_set":
            found[p["epoch"]]["client_seed"] = p["client_seed"]
        elif p["epoch"] in found:
            found[p["epoch"]].update(seed=p["seed"], revealed_at=e.position, derived=p.get("rolls"))
    current = ctx.epoch
    if current is not None and current.number in found:
        found[current.number]["derived"] = current.nonces
    return list(found.values())


def epochs_page(ctx, before: Optional[int] = None, count: int = LIST_PAGE) -> dict:
    """The ``count`` latest dice epochs committed before position ``before`` (default: all),
    newest first, read from their own events; and where the older ones begin."""
    upto = ctx.upto if before is None else min(ctx.upto, before - 1)
    newest = list(ctx.tx.read(ctx.name, upto=upto, types=["dice.committed"], newest_first=True, limit=count + 1))
    older = newest[count].position + 1 if len(newest) > count else None
    newest = newest[:count]
    found: dict[int, dict] = {}
    for e in reversed(newest):
        p = e.payload
        found[p["epoch"]] = {"epoch": p["epoch"], "commitment": p["commitment"], "committed_at": e.position,
                             "client_seed": "", "seed": None, "revealed_at": None, "derived": None}
    if newest:
        # An epoch's reveal is recorded just before the next one's commitment.
        reach = ctx.upto if before is None else min(ctx.upto, before + EFFECTS_WITHIN)
        for e in ctx.tx.read(ctx.name, after=newest[-1].position, upto=reach,
                             types=["dice.client_seed_set", "dice.revealed"]):
            mine = found.get(e.payload["epoch"])
            if mine is None:
                continue
            if e.type == "dice.client_seed_set":
                mine["client_seed"] = e.payload["client_seed"]
            else:
                mine.update(seed=e.payload["seed"], revealed_at=e.position, derived=e.payload.get("rolls"))
    current = ctx.epoch
    if current is not None and current.number in found:
        found[current.number]["derived"] = current.nonces
    return {"epochs": sorted(found.values(), key=lambda e: -e["epoch"]), "older_before": older}


def _epoch_events(ctx, number: int) -> list:
    """The epoch's own events: its stream (commands/dice.py), read on the stream's index."""
    found = [e for e in ctx.tx.read(ctx.name, upto=ctx.upto, stream=f"epoch:{number}")
             if e.type in DICE_EVENTS and e.payload.get("epoch") == number]
    if not any(e.type == "dice.committed" for e in found):
        raise NotFound(f"no dice epoch {number} in campaign {ctx.name} at that point")
    return found


def epoch(ctx, number: int) -> dict:
    """One dice epoch: commitment, client seed, reveal, and every roll as recorded."""
    calendar = ctx.campaign.calendar
    out = {"epoch": number, "commitment": None, "committed_at": None, "client_seed": "", "seed": None,
           "revealed_at": None, "rolls": [], "derived": 0, "hand_rolls": 0}
    for e in _epoch_events(ctx, number):
        p = e.payload
        if e.type == "dice.committed":
            out.update(commitment=p["commitment"], committed_at=e.position)
        elif e.type == "dice.client_seed_set":
            out["client_seed"] = p["client_seed"]
        elif e.type == "dice.revealed":
            out.update(seed=p["seed"], revealed_at=e.position)
        else:
            out["derived" if p["verifiable"] else "hand_rolls"] += 1
            out["rolls"].append({"position": e.position, "nonce": p.get("nonce"), "expression": p["expression"],
                                 "dice": list(p["dice"]), "total": p["total"], "verifiable": p["verifiable"],
                                 "character": p.get("character"), "why": p.get("why"),
                                 "game_date": calendar.format(e.game_time), "what": _what(e, ctx)})
    return out


# What the in-browser check (chronicle/static/dice.js) reads of a dice event's payload.
CHECKED = ("epoch", "commitment", "client_seed", "seed", "verifiable", "nonce", "expression", "dice", "total")


def epoch_events(ctx, number: int) -> list[dict]:
    """The epoch's own events as `tally export` shapes them (envelope and payload), with what a
    check that re-derives them elsewhere (a player's browser) reads of each payload."""
    return [{"position": e.position, "campaign": e.campaign, "type": e.type,
             "payload": {k: e.payload[k] for k in CHECKED if k in e.payload}}
            for e in _epoch_events(ctx, number)]


def timeline(ctx, last: Optional[int] = None, count: Optional[int] = None) -> list[dict]:
    """Sessions and the downtime between them, on the campaign's calendar, oldest first; or a
    page of them: ``count`` sessions up to session ``last``, with the downtime around them."""
    calendar = ctx.campaign.calendar
    shown = sessions_list(ctx, last=last, count=count) if count is not None else sessions_list(ctx)
    rows, last_end = [], ctx.campaign.start
    if shown and shown[0]["number"] > 1:
        before = ctx.world.sessions.get(shown[0]["number"] - 1)
        last_end = before.end if before is not None and before.end is not None else shown[0]["start_day"]
    for s in shown:
        if s["start_day"] > last_end:
            rows.append({"kind": "downtime", "from_day": last_end, "to_day": s["start_day"],
                         "from": calendar.format(last_end), "to": calendar.format(s["start_day"]),
                         "days": s["start_day"] - last_end})
        rows.append({"kind": "session", **s, "from_day": s["start_day"],
                     "to_day": s["end_day"] if s["end_day"] is not None else ctx.campaign.today})
        last_end = s["end_day"] if s["end_day"] is not None else ctx.campaign.today
    latest = ctx.world.sessions.next_number - 1
    if ctx.campaign.today > last_end and (not shown or shown[-1]["number"] == latest):
        rows.append({"kind": "downtime", "from_day": last_end, "to_day": ctx.campaign.today,
                     "from": calendar.format(last_end), "to": calendar.format(ctx.campaign.today),
                     "days": ctx.campaign.today - last_end})
    return rows


def session_page(ctx, number: int) -> dict:
    """A session: its summary, the rolls made in it, and its events."""
    info = session_info(ctx, number)
    calendar = ctx.campaign.calendar
    events = _session_events(ctx, ctx.world.sessions.get(number))
    info["rolls"] = [{"position": e.position, "what": _what(e, ctx), "game_date": calendar.format(e.game_time)}
                     for e in events if e.type == "dice.rolled"]
    info["log"] = [{"position": e.position, "type": e.type, "what": line(e),
                    "game_date": calendar.format(e.game_time)} for e in events if e.type != "dice.rolled"]
    return info
