"""tally xp | vow swear|fulfil|abandon"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import guarded, options
from cli.output import GAME_DATE, JSON_OPTION, RULING
from cli.session import _print_events
from ledger.commands import xp as commands

vow_app = typer.Typer(help="Vows (xp module): one open at a time; treasure XP is halved until fulfilled.",
                      no_args_is_help=True)


@guarded
def xp(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
       amount: int = typer.Argument(..., help="XP awarded (or -N to correct)."),
       why: str = typer.Option(..., "--why", help="What for."), json: bool = JSON_OPTION,
       game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Award XP; a new level is attained only in safe time."""
    opts = options(ctx)
    _print_events(commands.award(opts.store(), opts.campaign, name, amount, why=why, actor=opts.who(),
                                 **opts.late(game_date, ruling)), json)


@vow_app.command("swear")
@guarded
def swear(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
          vow: str = typer.Argument(..., help="The vow: specific and worthy (002 l.109)."),
          json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Swear a vow."""
    opts = options(ctx)
    _print_events(commands.swear(opts.store(), opts.campaign, name, vow, actor=opts.who(),
                                 **opts.late(game_date, ruling)), json)


@vow_app.command("fulfil")
@guarded
def fulfil(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
           xp_: Optional[int] = typer.Option(None, "--xp", help="The award, where the referee states it."),
           json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Fulfil the open vow: XP by the vow_xp setting, limited by vow_limit."""
    opts = options(ctx)
    _print_events(commands.fulfil(opts.store(), opts.campaign, name, xp=xp_, actor=opts.who(),
                                  **opts.late(game_date, ruling)), json)


@vow_app.command("abandon")
@guarded
def abandon(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
            json: bool = JSON_OPTION,
            game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Abandon the open vow (no XP)."""
    opts = options(ctx)
    _print_events(commands.abandon(opts.store(), opts.campaign, name, actor=opts.who(),
                                   **opts.late(game_date, ruling)), json)
