"""tally why | diff: how a figure came to be, and what changed between two points."""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, JSON_OPTION, print_json, print_table
from projections.kept import keep_up
from projections.reading import load, query
from ledger.errors import BadInput, NotFound
from projections.timeline import SESSION_EDGES, Pin
from projections.views import figure_story
from projections.why import world_diff
from projections.rulings import by_ruling
from projections.sheet import sheet as full_sheet
from cli.stable import ruling_note


def why(ctx: typer.Context,
        subject: str = typer.Argument(..., help="A character, rep:FACTION, stronghold:NAME or company."),
        field: Optional[str] = typer.Argument(
            None, help="The sheet field, e.g. wealth, cash, hp, boons, black_marks; one entry: skills.Stealth."),
        at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
        as_recorded: Optional[str] = AS_RECORDED,
        at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """The whole story of a figure, in fold order: what changed it (with the roll
    behind each), failed attempts, voided events and facts logged late."""
    opts = options(ctx)
    point = Pin(at_event, as_of, as_recorded, at_session)
    keep_up(opts.store(), opts.campaign)  # the figure's story is read off the kept histories
    label, value, rows, ruled = query(opts.store(), opts.campaign,
                                      lambda c: (*figure_story(c, subject, field), _standing(c, subject, field)),
                                      point=point)
    if json:
        print_json({"figure": label, "value": value, "changes": rows,
                    **({"by_ruling": ruled[field]} if ruled else {})})
        return
    title = f"{label}: {value}" + (f" — {ruling_note(ruled[field])}" if ruled else "")
    print_table(["#", "game date", "from", "to", "because", "roll", "note"],
                [(r["position"], r["game_date"], r["before"], r["after"], r["what"], r["roll"] or "", _note(r))
                 for r in rows], title=title)


def _standing(ctx, subject: str, field: Optional[str]) -> Optional[dict]:
    """{field: the ruling} when the figure is a character's and stands by a ruling now."""
    found = full_sheet(ctx.world, subject) if field else None
    if found is None:
        return None
    ruled = by_ruling(ctx, found)
    return {field: ruled[field]} if field in ruled else None


def _note(row: dict) -> str:
    notes = []
    if row["voided"]:
        v = row["voided"]
        notes.append(f"VOIDED by #{v['by']} ({v['ruled_by']}): {v['reason']}" + (
            f"; would have made it {row['would_be']}" if row["would_be"] != row["before"] else ""))
    elif not row["changed"]:
        notes.append("no change")
    if row.get("ruling"):
        notes.append("accepted " + ruling_note(row["ruling"]))
    if row["late"]:
        late = row["late"]
        notes.append(f"late: logged on {late['recorded_date']} ({late['recorded_at'][:16].replace('T', ' ')} UTC) "
                     f"for {row['game_date']}")
    return "; ".join(notes)


def _whole(text: str) -> bool:
    """ASCII digits only: str.isdigit says yes to '¹', which int() refuses."""
    return text.isascii() and text.isdigit()


def _pin(text: str, envelopes) -> Pin:
    """event:N (or N), date:GAME-DATE, recorded:ISO-TIME, or session:N[:start|end]."""
    text = text.strip()
    if text.startswith("session:"):
        return Pin(at_session=text[len("session:"):]).on_session(
            (e for e in envelopes if e.type in SESSION_EDGES), what=f"the point {text!r}")
    kind, sep, value = text.partition(":")
    if _whole(text) or (kind == "event" and _whole(value)):
        return Pin(at_event=int(value if sep else text))
    if kind == "date" and value:
        return Pin(as_of=value)
    if kind == "recorded" and value:
        return Pin(as_recorded=value)
    raise BadInput(f"cannot read the point {text!r}: write event:N, date:GAME-DATE, recorded:ISO-TIME "
                   "or session:N:start|end")


def diff(ctx: typer.Context,
         from_: str = typer.Option(..., "--from", help="event:N, date:D, recorded:T or session:N:start|end "
                                                        "(session:N is its end)."),
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
    print_table(["who", "field", "from", "to"],
                [(r["subject"], r["field"].replace("_", " "), shown(r["from"]), shown(r["to"])) for r in rows],
                title=f"{from_} -> {to}")


def shown(value) -> str:
    """A sheet's value as a referee reads it, not as Python prints it: yes/no,
    `used 1, capacity 12`, `Torches (slots 1, depletion 10)`; a named thing
    leaves out what it does not have."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        if "name" in value:
            rest = {k: v for k, v in value.items() if k != "name" and v not in (None, False, 0, "", [], {})}
            return f"{value['name']} ({shown(rest)})" if rest else str(value["name"])
        return ", ".join(f"{str(k).replace('_', ' ')} {shown(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "; ".join(shown(v) for v in value) if value else "none"
    return str(value)
