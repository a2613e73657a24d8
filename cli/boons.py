"""tally boon choose | specialty unlock | resource spend|regain|max"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import GAME_DATE, JSON_OPTION, RULING
from cli.session import _print_events
from commands import boons as commands

boon_app = typer.Typer(help="Boons: each one gained is chosen from a list (004 l.501-504, l.533).",
                       no_args_is_help=True)
specialty_app = typer.Typer(help="Specialty Classes: unlocked through the fiction (004 l.531-549).",
                            no_args_is_help=True)
resource_app = typer.Typer(help="Class Resources: Luck, Steel, Control and the Specialty Classes' (004 l.499-500).",
                           no_args_is_help=True)
RESOURCE = typer.Option(None, "--resource", help="Which Class Resource (default: the core class's).")


@boon_app.command("choose")
def choose(ctx: typer.Context, name: str = typer.Argument(..., help="The character whose Boon it is."),
           boon_list: str = typer.Option("Adventurer", "--list",
                                         help="Adventurer, the core class, or an unlocked Specialty Class."),
           skill: Optional[str] = typer.Option(None, "--skill", help="A Skill it raises by 1."),
           save: Optional[str] = typer.Option(None, "--save", help="A Save it raises by 1."),
           feat: Optional[str] = typer.Option(None, "--feat", help="Or the Feat, spell or power it buys."),
           json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Spend a Boon gained: +1 to a Skill or a Save (a bigger pool), or a Feat."""
    opts = options(ctx)
    _print_events([commands.choose(opts.store(), opts.campaign, name, boon_list=boon_list, skill=skill, save=save,
                                   feat=feat, actor=opts.who(), **opts.late(game_date, ruling))], json)


@specialty_app.command("unlock")
def unlock(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
           specialty: str = typer.Argument(..., help="Commander, Devout, Mutant, Mystic, Outlander, …"),
           why: str = typer.Option(..., "--why", help="The background, status or exploit that unlocks it."),
           json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Unlock a Specialty Class: its Boon list opens, and its Class Resource (specialty_resources)."""
    opts = options(ctx)
    _print_events([commands.unlock(opts.store(), opts.campaign, name, specialty, why=why, actor=opts.who(),
                                   **opts.late(game_date, ruling))], json)


@resource_app.command("spend")
def spend(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
          resource: Optional[str] = RESOURCE,
          count: int = typer.Option(1, "--count", help="Points spent: normally one in an action, more only where "
                                                       "a feature says 'spend an additional' (004 l.500)."),
          why: str = typer.Option(..., "--why", help="The class feature it fuels."), json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Spend Class Resource points."""
    opts = options(ctx)
    _print_events([commands.change(opts.store(), opts.campaign, name, -count, resource=resource, why=why,
                                   actor=opts.who(), **opts.late(game_date, ruling))], json)


@resource_app.command("regain")
def regain(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
           resource: Optional[str] = RESOURCE,
           count: int = typer.Option(1, "--count", help="Points regained (never past the pool's size)."),
           why: str = typer.Option(..., "--why", help="What gives them back."), json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Regain Class Resource points."""
    opts = options(ctx)
    _print_events([commands.change(opts.store(), opts.campaign, name, count, resource=resource, why=why,
                                   actor=opts.who(), **opts.late(game_date, ruling))], json)


@resource_app.command("max")
def maximum(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
            resource: str = typer.Argument(..., help="The Class Resource: Luck, Steel, Control, Authority, …"),
            size: int = typer.Argument(..., help="Its pool's size, as the class or a Feat gives it."),
            why: str = typer.Option(..., "--why", help="Where the size comes from."), json: bool = JSON_OPTION,
            game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Set the size of a Class Resource pool (a bigger pool comes with its new points)."""
    opts = options(ctx)
    _print_events([commands.set_maximum(opts.store(), opts.campaign, name, resource, size, why=why,
                                        actor=opts.who(), **opts.late(game_date, ruling))], json)
