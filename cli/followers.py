"""tally follower add|lose"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import GAME_DATE, JSON_OPTION, RULING
from cli.session import _print_events
from commands import followers as commands

app = typer.Typer(help="Followers: loyal companions, and refilling a Feat's position.", no_args_is_help=True)


@app.command("add")
def add(ctx: typer.Context, character: str = typer.Argument(..., help="Whose Follower."),
        name: str = typer.Argument(..., help="The Follower's name."),
        feat: bool = typer.Option(False, "--feat", help="Granted by a Feat (can be refilled if lost)."),
        refills: Optional[str] = typer.Option(None, "--refills", help="The lost Feat Follower this one replaces."),
        json: bool = JSON_OPTION,
        game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A Follower joins a character (a refill needs a week's recruiting)."""
    opts = options(ctx)
    _print_events([commands.gain(opts.store(), opts.campaign, character, name, feat=feat, refills=refills,
                                 actor=opts.who(), **opts.late(game_date, ruling))], json)


@app.command("lose")
def lose(ctx: typer.Context, character: str = typer.Argument(..., help="Whose Follower."),
         name: str = typer.Argument(..., help="The Follower lost."),
         why: str = typer.Option(..., "--why", help="Died, departed, dismissed…"),
         json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A Follower dies, departs or is dismissed."""
    opts = options(ctx)
    _print_events([commands.lose(opts.store(), opts.campaign, character, name, why=why, actor=opts.who(),
                                 **opts.late(game_date, ruling))], json)
