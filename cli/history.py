"""tally why | diff: how a figure came to be, and what changed between two points."""

from __future__ import annotations

import re
from typing import Optional

import typer

from cli.context import guarded, options
from cli.output import AS_OF, AS_RECORDED, AT_EVENT, JSON_OPTION, print_json, print_table
from ledger.commands.base import load, query
from ledger.errors import BadInput, NotFound
from projections.timeline import Pin
from projections.views import figure_story
from projections.why import world_diff


@guarded
def why(ctx: typer.Context,
        subject: str = typer.Argument(..., help="A character, rep:FACTION, stronghold:NAME or company."),
        field: Optional[str] = typer.Argument(
            None, help="The sheet field, e.g. wealth, cash, hp, boons, black_marks; one entry: skills.Stealth."),
        at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
        as_recorded: Optional[str] = AS_RECORDED, json: bool = JSON_OPTION) -> None:
    """The whole story of a figure, in fold order: what changed it (with the roll
    behind each), failed attempts, voided events and facts logged late."""
    opts = options(ctx)
    point = Pin(at_event, as_of, as_recorded)

    label, value, rows = query(opts.store(), opts.campaign, lambda c: figure_story(c, subject, field), point=point)
    if json:
        print_json({"figure": label, "value": value, "changes": rows})
        return
    print_table(["#", "game date", "from", "to", "because", "roll", "note"],
                [(r["position"], r["game_date"], r["before"], r["after"], r["what"], r["roll"] or "", _note(r))
                 for r in rows], title=f"{label}: {value}")


def _note(row: dict) -> str:
    notes = []
    if row["voided"]:
        v = row["voided"]
        notes.append(f"VOIDED by #{v['by']} ({v['ruled_by']}): {v['reason']}" + (
            f"; would have made it {row['would_be']}" if row["would_be"] != row["before"] else ""))
    elif not row["changed"]:
        notes.append("no change")
    if row["late"]:
        late = row["late"]
        notes.append(f"late: logged on {late['recorded_date']} ({late['recorded_at'][:16].replace('T', ' ')} UTC) "
                     f"for {row['game_date']}")
    return "; ".join(notes)


SESSION_POINT = re.compile(r"session:(\d+):(start|end)")


def _whole(text: str) -> bool:
    """ASCII digits only: str.isdigit says yes to '¹', which int() refuses."""
    return text.isascii() and text.isdigit()


def _pin(text: str, envelopes) -> Pin:
    """event:N (or N), date:GAME-DATE, recorded:ISO-TIME, or session:N:start|end."""
    text = text.strip()
    match = SESSION_POINT.fullmatch(text)
    if match:
        number, edge = int(match.group(1)), match.group(2)
        wanted = "session.opened" if edge == "start" else "session.closed"
        found = next((e for e in envelopes if e.type == wanted and e.payload["number"] == number), None)
        if found is None:
            raise NotFound(f"session {number} has no {edge} in the ledger")
        return Pin(at_event=found.position - 1 if edge == "start" else found.position)
    kind, sep, value = text.partition(":")
    if _whole(text) or (kind == "event" and _whole(value)):
        return Pin(at_event=int(value if sep else text))
    if kind == "date" and value:
        return Pin(as_of=value)
    if kind == "recorded" and value:
        return Pin(as_recorded=value)
    raise BadInput(f"cannot read the point {text!r}: write event:N, date:GAME-DATE, recorded:ISO-TIME "
                   "or session:N:start|end")


@guarded
def diff(ctx: typer.Context,
         from_: str = typer.Option(..., "--from", help="event:N, date:D, recorded:T or session:N:start|end."),
         to: str = typer.Option(..., "--to", help="The later point, in the same forms."),
         character: Optional[str] = typer.Argument(None, help="Only this character."),
         json: bool = JSON_OPTION) -> None:
    """What changed between two points (e.g. a session's start and end)."""
    opts = options(ctx)
    with opts.store().reading() as tx:
        now = load(tx, opts.campaign)
        if character and now.world.stable.character(character) is None:
            raise NotFound(f"no character named {character!r}")
        before = load(tx, opts.campaign, point=_pin(from_, now.envelopes))
        after = load(tx, opts.campaign, point=_pin(to, now.envelopes))
        rows = world_diff(before.world, after.world, character)
    if json:
        print_json(rows)
        return
    print_table(["who", "field", "from", "to"], [(r["subject"], r["field"], r["from"], r["to"]) for r in rows],
                title=f"{from_} -> {to}")
