"""tally item add|use|drop|cash-in | give"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import GAME_DATE, JSON_OPTION, RULING
from cli.parsing import faces
from cli.session import _print_events
from commands import inventory as commands

app = typer.Typer(help="Inventory: twelve Slots, items found and used, Depletion (004 l.552-564).",
                  no_args_is_help=True)

SLOTS = typer.Option(1, "--slots", help="Slots it takes: 1, more if cumbersome (armor is bulky), 0 if it walks.")
DEPLETION = typer.Option(None, "--depletion", help="Its Depletion score, 1-20: Torches (15+) is 15.")
CARRIES = typer.Option(0, "--carries", help="Slots it carries itself: a pack animal 6, a small cart 3.")


@app.command("add")
def add(ctx: typer.Context, name: str = typer.Argument(..., help="Who carries it."),
        item: str = typer.Argument(..., help="The item, e.g. 'Silks' or 'Torches'."),
        slots: int = SLOTS, depletion: Optional[int] = DEPLETION,
        cash: int = typer.Option(0, "--cash", help="Its worth in Cash dice (a commodity, a single treasure)."),
        artifact: bool = typer.Option(False, "--artifact", help="An artifact: saves on 50% when gear breaks."),
        carries: int = CARRIES,
        why: str = typer.Option("found", "--why", help="Where it came from."), json: bool = JSON_OPTION,
        game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """An item found goes into a character's inventory (refused when it does not fit)."""
    opts = options(ctx)
    kit = commands.Kit(slots=slots, depletion=depletion, cash=cash, artifact=artifact, carries=carries)
    _print_events([commands.add(opts.store(), opts.campaign, name, item, kit, why=why, actor=opts.who(),
                                **opts.late(game_date, ruling))], json)


@app.command("use")
def use(ctx: typer.Context, name: str = typer.Argument(..., help="Who used it."),
        item: str = typer.Argument(..., help="The expendable used in this scene."),
        dice: Optional[str] = typer.Option(None, "--dice", help="The d20 rolled by hand."), json: bool = JSON_OPTION,
        game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Check an expendable for Depletion after a scene's use (d20 at or above its score: one use left)."""
    opts = options(ctx)
    _print_events(commands.use(opts.store(), opts.campaign, name, item, actor=opts.who(), hand=faces(dice),
                               **opts.late(game_date, ruling)), json)


@app.command("drop")
def drop(ctx: typer.Context, name: str = typer.Argument(..., help="Who carried it."),
         item: str = typer.Argument(..., help="The item."),
         why: str = typer.Option(..., "--why", help="Used up whole, lost, left behind…"), json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """An item leaves the inventory (a bundle used up whole is simply erased, 004 l.564)."""
    opts = options(ctx)
    _print_events([commands.drop(opts.store(), opts.campaign, name, item, why=why, actor=opts.who(),
                                 **opts.late(game_date, ruling))], json)


@app.command("cash-in")
def cash_in(ctx: typer.Context, name: str = typer.Argument(..., help="Who brought it home."),
            item: str = typer.Argument(..., help="The commodity or treasure."), json: bool = JSON_OPTION,
            game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Treasure carried back to civilization becomes its worth in Cash (004 l.766)."""
    opts = options(ctx)
    _print_events([commands.cash_in(opts.store(), opts.campaign, name, item, actor=opts.who(),
                                    **opts.late(game_date, ruling))], json)


def give(ctx: typer.Context, giver: str = typer.Argument(..., help="Who gives."),
         receiver: str = typer.Argument(..., help="Who receives."),
         cash: int = typer.Option(0, "--cash", help="Cash dice handed over."),
         item: Optional[list[str]] = typer.Option(None, "--item", help="An item handed over (repeatable)."),
         why: str = typer.Option("handed over", "--why", help="What for."), json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Hand Cash and items to another character in the same place."""
    opts = options(ctx)
    _print_events(commands.give(opts.store(), opts.campaign, giver, receiver, cash=cash, items=item or [], why=why,
                                actor=opts.who(), **opts.late(game_date, ruling)), json)
