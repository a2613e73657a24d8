"""tally downtime due|act | project start|show"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import (AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, GAME_DATE, JSON_OPTION, RULING, print_json,
                         print_table)
from cli.session import _print_events
from commands import downtime as commands
from projections.reading import query
from projections import views
from projections.downtime import view as project_view
from projections.timeline import Pin

app = typer.Typer(help="The weeks between sessions: what is due, and spending downtime actions.",
                  no_args_is_help=True)
project_app = typer.Typer(help="Project clocks: long work, one tick each session a character gives it an action.",
                          no_args_is_help=True)


@app.command("due")
def due(ctx: typer.Context, since: Optional[str] = typer.Option(
            None, "--since", help="Count from this in-game date (default: each character's return)."),
        at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
        as_recorded: Optional[str] = AS_RECORDED,
        at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """Per character: downtime actions available, projects, wages owed, followers ready, prayers."""
    opts = options(ctx)

    rows = query(opts.store(), opts.campaign, lambda c: views.downtime_due(c, since),
                 point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(rows)
        return
    print_table(["character", "since", "weeks", "actions left", "projects", "also due"],
                [(r["character"], r["from"], r["weeks"], r["actions_available"],
                  ", ".join(f"{p['name']} {p['filled']}/{p['ticks']}" for p in r["projects"]),
                  _also(r)) for r in rows], title="downtime")


def _also(row: dict) -> str:
    notes = []
    if row.get("wages_owed"):
        notes.append(f"{row['wages_owed']} sp wages owed")
    if row.get("followers_ready"):
        notes.append("follower ready to replace " + ", ".join(row["followers_ready"]))
    if "prayers_last_week" in row:
        notes.append(f"{row['prayers_last_week']} prayer(s) this week")
    if row.get("manifestation_eligible"):
        notes.append("a clean year: manifestation possible")
    return "; ".join(notes)


@app.command("act")
def act(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
        action: str = typer.Argument(..., help="What they do: research, carousing, Circles…"),
        project: Optional[str] = typer.Option(None, "--project", help="A project this action advances."),
        json: bool = JSON_OPTION,
        game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Spend one downtime action (one per in-game week in a haven); --project fills a tick, one a session."""
    opts = options(ctx)
    recorded = commands.act(opts.store(), opts.campaign, name, action, project=project, actor=opts.who(),
                            **opts.late(game_date, ruling))
    _print_events(recorded, json)
    acted = recorded[0].payload
    if acted.get("project") and not json and not any(e.type == "project.ticked" for e in recorded):
        typer.echo(f"no tick: {acted['character']} already filled this session's tick of {acted['project']} "
                   "(one a session, 004 l.648); the action is spent")


@project_app.command("start")
def project_start(ctx: typer.Context, name: str = typer.Argument(..., help="The project."),
                  ticks: int = typer.Option(..., "--ticks", help="Ticks on its clock (2-4 modest, 4-8 serious)."),
                  owner: str = typer.Option(..., "--owner", help="Whose project."),
                  json: bool = JSON_OPTION,
                  game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Start a project clock."""
    opts = options(ctx)
    _print_events(commands.start_project(opts.store(), opts.campaign, name, ticks=ticks, owner=owner,
                                         actor=opts.who(), **opts.late(game_date, ruling)), json)


@project_app.command("show")
def project_show(ctx: typer.Context, at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
                 as_recorded: Optional[str] = AS_RECORDED,
                 at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """Every project clock and how full it is."""
    opts = options(ctx)
    projects = query(opts.store(), opts.campaign,
                     lambda c: [project_view(p) for p in c.world.downtime.projects.values()],
                     point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(projects)
        return
    print_table(["project", "owner", "ticks", "done"],
                [(p["name"], p["owner"], f"{p['filled']}/{p['ticks']}", "yes" if p["filled"] >= p["ticks"] else "")
                 for p in projects])
