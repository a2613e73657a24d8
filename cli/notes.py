"""tally note add|list"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, GAME_DATE, JSON_OPTION, RULING, print_json, print_table
from cli.session import _print_events
from commands import dated_notes as commands
from projections.reading import query
from projections.notes import notes_view
from projections.timeline import Pin

app = typer.Typer(help="Dated notes: what happened on a day of the campaign, in the referee's words.",
                  no_args_is_help=True)


@app.command("add")
def add(ctx: typer.Context, title: str = typer.Argument(..., help="The note, in a line (up to 200 characters)."),
        text: str = typer.Option("", "--text", help="More of it (up to 500 characters)."),
        json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Note what happened today (or on an earlier day, with --game-date); `tally void` withdraws it."""
    opts = options(ctx)
    _print_events([commands.add(opts.store(), opts.campaign, title, text, actor=opts.who(),
                                **opts.late(game_date, ruling))], json)


@app.command("list")
def list_(ctx: typer.Context, search: Optional[str] = typer.Option(None, "--search", help="Only notes holding this."),
          at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
          as_recorded: Optional[str] = AS_RECORDED, at_session: Optional[str] = AT_SESSION,
          json: bool = JSON_OPTION) -> None:
    """The campaign's dated notes, oldest day first: typed ones and those a calendar import brought."""
    opts = options(ctx)
    view = query(opts.store(), opts.campaign, lambda c: notes_view(c, search),
                 point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(view)
        return
    print_table(["#", "date", "note", "from"],
                [(n["event"], n["date"], n["title"] + (f" — {n['text']}" if n["text"] else ""),
                  n["source"] or n["by"]) for n in view["notes"]],
                title=f"{view['campaign']}: {len(view['notes'])} note(s)")
