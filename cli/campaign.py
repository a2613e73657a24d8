"""tally campaign new|list|show|set"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, JSON_OPTION, print_json, print_pairs, print_table
from commands import campaign as commands
from projections.describe import line
from projections.timeline import Pin
from projections.reading import load, query
from ledger.settings import SETTINGS
from projections.views import campaign_info as describe

app = typer.Typer(help="Create campaigns, list them, show and change their settings.", no_args_is_help=True)


@app.command("new")
def new(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The campaign's name."),
    rules: str = typer.Option("", help="Rules modules, comma-separated: coeac,gods,xp,wolves,skirmish."),
    calendar: str = typer.Option("gregorian", help="gregorian, bifrost or a FILE.toml."),
    start: str = typer.Option(..., help="The in-game start date, in the calendar's words (e.g. 1024-03-01)."),
    json: bool = JSON_OPTION,
) -> None:
    """Start a campaign: records its rules, calendar and start, and opens dice epoch 1."""
    opts = options(ctx)
    # A bad --actor, name, rules module, calendar or start is refused before a new ledger file is made.
    actor = opts.who()
    commands.define(name, rules=rules, calendar=calendar, start=start)
    store = opts.store(create=True)
    created, commit, *starting = commands.create(store, name, rules=rules, calendar=calendar, start=start,
                                                 actor=actor)
    info = query(store, created.campaign, describe)
    if json:
        print_json(info)
        return
    typer.echo(f"campaign {info['name']} created at position {created.position}, starting {info['start']}")
    typer.echo(f"dice epoch 1 commitment {commit.payload['commitment']}")
    for e in starting:
        typer.echo(f"{e.position:>6}  {line(e)}")


@app.command("list")
def list_(ctx: typer.Context, json: bool = JSON_OPTION) -> None:
    """List the campaigns in this database."""
    store = options(ctx).store()
    with store.reading() as tx:
        infos = [describe(load(tx, name)) for name in tx.campaigns()]
    if json:
        print_json(infos)
        return
    print_table(["campaign", "rules", "calendar", "start", "today", "events"],
                [(i["name"], ",".join(i["rules"]) or "-", i["calendar"]["kind"], i["start"], i["today"],
                  i["events"]) for i in infos])


@app.command("show")
def show(ctx: typer.Context, at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
         as_recorded: Optional[str] = AS_RECORDED,
         at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """Show a campaign: rules, calendar, today's date, settings, open dice epoch."""
    opts = options(ctx)
    info = query(opts.store(), opts.campaign, describe,
                 point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(info)
        return
    print_pairs([
        ("campaign", info["name"]), ("rules", ", ".join(info["rules"]) or "(dice and calendar only)"),
        ("calendar", info["calendar"]["kind"]), ("start", info["start"]), ("today", info["today"]),
        ("events", info["events"]), ("dice epoch", info["epoch"]), ("commitment", info["commitment"]),
        ("client seed", repr(info["client_seed"] or "")),
        *((f"setting {k}", v) for k, v in sorted(info["settings"].items())),
    ])


@app.command("set")
def set_(
    ctx: typer.Context,
    key: str = typer.Argument(..., help=f"One of: {', '.join(sorted(SETTINGS))}."),
    value: str = typer.Argument(..., help="The new value."),
    json: bool = JSON_OPTION,
) -> None:
    """Change a campaign setting (recorded as an event, so it time-travels)."""
    opts = options(ctx)
    (changed,) = commands.set_setting(opts.store(), opts.campaign, key, value, actor=opts.who())
    if json:
        print_json(changed.to_dict())
        return
    p = changed.payload
    typer.echo(f"{p['key']}: {p['previous']} -> {p['value']} (position {changed.position})")
