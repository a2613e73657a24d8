"""tally treasure add|split | cash | wealth improve | buy | sell"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import GAME_DATE, JSON_OPTION, RULING, chance_text, print_json
from cli.parsing import faces, pairs
from cli.inventory import CARRIES, DEPLETION, SLOTS
from cli.session import _print_events
from commands import economy as commands
from commands.inventory import Kit

treasure_app = typer.Typer(help="Treasure hordes found in a session, and their division.", no_args_is_help=True)
wealth_app = typer.Typer(help="Wealth: improve it by wagering Cash.", no_args_is_help=True)
DRY_RUN = typer.Option(False, "--dry-run", help="Show the exact odds and record nothing.")


def print_plan(plan, json: bool) -> None:
    if json:
        print_json({"dry_run": True, **plan.as_dict()})
        return
    if plan.details.get("flat"):  # 004 l.603: no roll and no wager, but one Cash die is spent
        typer.echo(f"{plan.character}: Ob {plan.ob}, so no roll: bought for one Cash die flat (004 l.603). "
                   "Nothing recorded.")
        return
    chance = "certain" if plan.chance == 1.0 else chance_text(plan.chance, plan.exact)
    typer.echo(f"{plan.character}: Ob {plan.ob} with {plan.pool} dice, wagering {plan.wager} Cash: {chance}. "
               "Nothing recorded.")


@treasure_app.command("add")
def treasure_add(ctx: typer.Context, cash: int = typer.Argument(..., help="The horde's size in Cash dice."),
                 source: str = typer.Option(..., "--from", help="Where it was found."),
                 json: bool = JSON_OPTION,
                 game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Record a horde found this session."""
    opts = options(ctx)
    _print_events([commands.add_treasure(opts.store(), opts.campaign, cash, source=source, actor=opts.who(),
                                         **opts.late(game_date, ruling))], json)


@treasure_app.command("split")
def treasure_split(ctx: typer.Context,
                   shares: Optional[list[str]] = typer.Argument(
                       None, help="Shares as CHARACTER=N; none: equal shares (companions take half)."),
                   set_aside: Optional[list[str]] = typer.Option(None, "--set-aside", help="PLAYER=N held for an absent regular."),
                   json: bool = JSON_OPTION,
                   game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Divide the session's treasure among the present characters."""
    opts = options(ctx)
    _print_events(commands.split_treasure(opts.store(), opts.campaign, pairs(shares or [], "split"),
                                          set_aside=pairs(set_aside or [], "--set-aside"), actor=opts.who(),
                                          **opts.late(game_date, ruling)), json)


def cash(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
         delta: int = typer.Argument(..., help="Cash gained (+N) or spent (-N)."),
         why: str = typer.Option(..., "--why", help="What for."), json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Give or take Cash dice (jobs, rewards, costs)."""
    opts = options(ctx)
    _print_events([commands.change_cash(opts.store(), opts.campaign, name, delta, why=why, actor=opts.who(),
                                        **opts.late(game_date, ruling))], json)


@wealth_app.command("improve")
def wealth_improve(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
                   wager: int = typer.Option(..., "--wager", help="Cash dice to wager (always lost)."),
                   dice: Optional[str] = typer.Option(None, "--dice", help="Faces rolled by hand."),
                   dry_run: bool = DRY_RUN, json: bool = JSON_OPTION,
                   game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Try to raise Wealth one rank: Ob 2r, wagered Cash only, once per session."""
    opts = options(ctx)
    result = commands.improve_wealth(opts.store(), opts.campaign, name, wager=wager, actor=opts.who(),
                                     **opts.late(game_date, ruling),
                                     hand=faces(dice), dry_run=dry_run)
    print_plan(result, json) if dry_run else _print_events(result, json)


def buy(ctx: typer.Context, name: str = typer.Argument(..., help="The buyer."),
        item: str = typer.Argument(..., help="What is bought."),
        cost: int = typer.Option(..., "--cost", help="The item's Cost."),
        wager: int = typer.Option(0, "--wager", help="Cash dice to wager (always lost)."),
        scarce: bool = typer.Option(False, "--scarce", help="Scarcity: Cost +1 (004 l.604)."),
        service: bool = typer.Option(False, "--service", help="A service (a room, a bribe): nothing to carry."),
        slots: int = SLOTS, depletion: Optional[int] = DEPLETION, carries: int = CARRIES,
        dice: Optional[str] = typer.Option(None, "--dice", help="Faces rolled by hand."),
        dry_run: bool = DRY_RUN, json: bool = JSON_OPTION,
        game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Buy a good (into the inventory) or a service under the campaign's purchase_rule."""
    opts = options(ctx)
    kit = None if service else Kit(slots=slots, depletion=depletion, carries=carries)
    result = commands.buy(opts.store(), opts.campaign, name, item, cost=cost, wager=wager, scarce=scarce, kit=kit,
                          actor=opts.who(), **opts.late(game_date, ruling), hand=faces(dice), dry_run=dry_run)
    print_plan(result, json) if dry_run else _print_events(result, json)


def sell(ctx: typer.Context, name: str = typer.Argument(..., help="The seller."),
         item: str = typer.Argument(..., help="What is sold."),
         cost: int = typer.Option(..., "--cost", help="The item's Cost."),
         dice: Optional[str] = typer.Option(None, "--dice", help="Faces rolled by hand."),
         json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Sell a good (out of the inventory if carried): Cost above Wealth rolls (Cost − Wealth) dice for Cash."""
    opts = options(ctx)
    _print_events(commands.sell(opts.store(), opts.campaign, name, item, cost=cost, actor=opts.who(),
                                **opts.late(game_date, ruling),
                                hand=faces(dice)), json)
