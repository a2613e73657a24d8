"""tally silver | outfit | companion join|leave | hire | dismiss | wages | boast make|resolve |
ship add|buy|lose|list"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import (AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, GAME_DATE, JSON_OPTION, RULING, print_json,
                         print_table)
from cli.parsing import faces
from cli.session import _print_events
from commands import wolves as commands
from projections.reading import query
from projections.timeline import Pin

companion_app = typer.Typer(help="Companions (wolves): one per full 1000 sp; each takes a half share.",
                            no_args_is_help=True)
boast_app = typer.Typer(help="Boasts of Heroic Proportions (wolves): one pending at a time.", no_args_is_help=True)
ship_app = typer.Typer(help="The band's ships (wolves).", no_args_is_help=True)
wages_app = typer.Typer(help="Hirelings' wages (wolves): owed per in-game day of service.", no_args_is_help=True)


def silver(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
           delta: int = typer.Argument(..., help="Silver pennies gained (+N) or spent (-N)."),
           why: str = typer.Option(..., "--why", help="What for."), json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Give or take silver pennies."""
    opts = options(ctx)
    _print_events(commands.change_silver(opts.store(), opts.campaign, name, delta, why=why, actor=opts.who(),
                                         **opts.late(game_date, ruling)), json)


def outfit(ctx: typer.Context, name: str = typer.Argument(..., help="The character who pays."),
           items: list[str] = typer.Argument(..., help="ITEM, ITEM*N, or ITEM=PRICE for one the list lacks."),
           json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Buy equipment with silver pennies at the seed's prices (000 l.64-153)."""
    opts = options(ctx)
    _print_events(commands.outfit(opts.store(), opts.campaign, name, items, actor=opts.who(),
                                  **opts.late(game_date, ruling)), json)


@companion_app.command("join")
def companion_join(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
                   companion: str = typer.Argument(..., help="The companion's name."), json: bool = JSON_OPTION,
                   game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A companion joins (one per full 1000 sp owned)."""
    opts = options(ctx)
    _print_events(commands.companion_joins(opts.store(), opts.campaign, name, companion, actor=opts.who(),
                                           **opts.late(game_date, ruling)), json)


@companion_app.command("leave")
def companion_leave(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
                    companion: str = typer.Argument(..., help="The companion."),
                    why: str = typer.Option(..., "--why", help="Why they go."), json: bool = JSON_OPTION,
                    game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A companion leaves or dies."""
    opts = options(ctx)
    _print_events(commands.companion_leaves(opts.store(), opts.campaign, name, companion, why=why,
                                            actor=opts.who(), **opts.late(game_date, ruling)), json)


def hire(ctx: typer.Context, name: str = typer.Argument(..., help="Who hires."),
         kind: str = typer.Argument(..., help="Non-combat, Skirmisher, Footman, Marine, Armoured Footman, Horsemen."),
         hireling: Optional[str] = typer.Option(None, "--name", help="The hireling's name."),
         json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Hire a hireling; wages accrue per in-game day until dismissed."""
    opts = options(ctx)
    _print_events(commands.hire(opts.store(), opts.campaign, name, kind, hireling=hireling, actor=opts.who(),
                                **opts.late(game_date, ruling)), json)


def dismiss(ctx: typer.Context, name: str = typer.Argument(..., help="The employer."),
            hireling: str = typer.Argument(..., help="The hireling."), json: bool = JSON_OPTION,
            game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Dismiss a hireling: wages stop accruing."""
    opts = options(ctx)
    _print_events(commands.dismiss(opts.store(), opts.campaign, name, hireling, actor=opts.who(),
                                   **opts.late(game_date, ruling)), json)


@wages_app.command("show")
def wages_show(ctx: typer.Context, name: str = typer.Argument(..., help="The employer."),
               at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
               as_recorded: Optional[str] = AS_RECORDED,
               at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """Hirelings, days served, wages owed and paid."""
    opts = options(ctx)
    view = query(opts.store(), opts.campaign,
                 lambda c: c.world.wolves.of(commands.raider(c, name, active=False)[0]).view(c.today),
                 point=Pin(at_event, as_of, as_recorded, at_session))
    info = {f: view[f] for f in ("hirelings", "wages_owed", "wages_paid", "silver", "wages_shortfall")}
    if json:
        print_json(info)
        return
    short = f"; {info['wages_shortfall']} sp short: hirelings serve while they are paid (000 l.250)" \
        if info["wages_shortfall"] else ""
    print_table(["hireling", "kind", "sp/day", "days", "in service"],
                [(h["name"], h["kind"], h["wage"], h["days"], "yes" if h["active"] else "dismissed")
                 for h in info["hirelings"]],
                title=f"owed {info['wages_owed']} sp, paid {info['wages_paid']} sp, holds {info['silver']} sp{short}")


@wages_app.command("pay")
def wages_pay(ctx: typer.Context, name: str = typer.Argument(..., help="The employer."),
              amount: int = typer.Argument(..., help="Silver pennies paid."), json: bool = JSON_OPTION,
              game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Pay wages owed."""
    opts = options(ctx)
    _print_events(commands.pay_wages(opts.store(), opts.campaign, name, amount, actor=opts.who(),
                                     **opts.late(game_date, ruling)), json)


@boast_app.command("make")
def boast_make(ctx: typer.Context, name: str = typer.Argument(..., help="The boaster."),
               boast: str = typer.Argument(..., help="The boast."),
               reward: str = typer.Option(..., "--reward", help="hd (+1 Hit Die) or ab (+1 Attack Bonus)."),
               raised_by: Optional[str] = typer.Option(None, "--raised-by", help="A rival who raised the stakes."),
               complications: int = typer.Option(0, "--complications", help="Complications the rival added."),
               refused: bool = typer.Option(False, "--refused",
                                            help="The boaster refuses the raised stakes: the rival takes the boast up."),
               dice: Optional[str] = typer.Option(None, "--dice", help="The Hit Dice for HP, rolled by hand."),
               json: bool = JSON_OPTION,
               game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Make a Boast of Heroic Proportions: the bonus comes at once (a Hit Die rolls its HP)."""
    opts = options(ctx)
    _print_events(commands.make_boast(opts.store(), opts.campaign, name, boast, reward=reward, raised_by=raised_by,
                                      complications=complications, refused=refused, hand=faces(dice),
                                      actor=opts.who(), **opts.late(game_date, ruling)), json)


@boast_app.command("resolve")
def boast_resolve(ctx: typer.Context, name: str = typer.Argument(..., help="The boaster."),
                  outcome: str = typer.Argument(..., help="kept, failed or shirked."),
                  json: bool = JSON_OPTION,
                  game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Kept: the bonus stays. Failed: lost. Shirked: lost, and no boasting ever again."""
    opts = options(ctx)
    _print_events(commands.resolve_boast(opts.store(), opts.campaign, name, outcome, actor=opts.who(),
                                         **opts.late(game_date, ruling)), json)


@ship_app.command("add")
def ship_add(ctx: typer.Context, name: str = typer.Argument(..., help="The ship's name."),
             kind: str = typer.Option(..., "--kind", help="Raft, Boat, Karvi, Knarr, Snekkja, Small Galley, "
                                                          "Large Galley, Skeid."),
             rowers: int = typer.Option(0, "--rowers", help="Rowers aboard."),
             food_days: int = typer.Option(0, "--food-days", help="Days of food and water for all hands."),
             how: str = typer.Option("taken", "--how", help="How the band came by it unpaid (a ship bought: "
                                                            "`ship buy`)."),
             json: bool = JSON_OPTION,
             game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """The band comes by a ship (its value is the seed's ransom, l.284-300)."""
    opts = options(ctx)
    _print_events(commands.add_ship(opts.store(), opts.campaign, name, kind=kind, rowers=rowers,
                                    food_days=food_days, how=how, actor=opts.who(),
                                    **opts.late(game_date, ruling)), json)


@ship_app.command("buy")
def ship_buy(ctx: typer.Context, name: str = typer.Argument(..., help="The new ship's name."),
             kind: str = typer.Option(..., "--kind", help="Raft, Boat, Karvi, Knarr, Snekkja, Small Galley, "
                                                          "Large Galley, Skeid."),
             by: str = typer.Option(..., "--by", help="The character who pays."),
             rowers: int = typer.Option(0, "--rowers", help="Rowers aboard."),
             food_days: int = typer.Option(0, "--food-days", help="Days of food and water for all hands."),
             json: bool = JSON_OPTION,
             game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Buy a new ship: three times its ransom value in silver (000 l.300)."""
    opts = options(ctx)
    _print_events(commands.add_ship(opts.store(), opts.campaign, name, kind=kind, rowers=rowers,
                                    food_days=food_days, how="bought new", by=by, actor=opts.who(),
                                    **opts.late(game_date, ruling)), json)


@ship_app.command("lose")
def ship_lose(ctx: typer.Context, name: str = typer.Argument(..., help="The band's ship."),
              why: str = typer.Option(..., "--why", help="How it was lost: a storm, a sinking, a fight."),
              json: bool = JSON_OPTION,
              game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A ship of the band's is lost at sea (000 l.325-391): it leaves the band's list."""
    opts = options(ctx)
    _print_events(commands.lose_ship(opts.store(), opts.campaign, name, why=why, actor=opts.who(),
                                     **opts.late(game_date, ruling)), json)


@ship_app.command("list")
def ship_list(ctx: typer.Context, at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
              as_recorded: Optional[str] = AS_RECORDED,
              at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """The band's ships: kind, the seed's figures, crew, value, and food."""
    opts = options(ctx)

    def read(c):
        c.require("wolves")
        fmt = c.campaign.calendar.format
        return [{**s, "acquired": fmt(s["day"]), "food_until": fmt(s["food_until"])}
                for s in c.world.wolves.ship_list(c.today)]

    ships = query(opts.store(), opts.campaign, read, point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(ships)
        return
    print_table(["ship", "kind", "HD", "hexes/day (river)", "crew", "rowers", "value sp", "paid sp", "acquired",
                 "food days left"],
                [(s["name"], s["kind"], s["hd"], f"{s['speed']} ({s['river'] if s['river'] is not None else '-'})",
                  s["crew"], s["rowers"], s["value"], s["price"], s["acquired"],
                  f"{s['food_left']} (to {s['food_until']})") for s in ships])
