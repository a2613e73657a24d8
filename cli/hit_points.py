"""tally hp damage|heal|bonus|expire | rest short|long"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import GAME_DATE, JSON_OPTION, RULING
from cli.parsing import faces
from cli.session import _print_events
from commands import hit_points as commands

hp_app = typer.Typer(help="Hit points: damage, healing and Bonus HP (004 l.83-89).", no_args_is_help=True)
rest_app = typer.Typer(help="Rests: short (up to 3 HP) and long (every lost HP) (004 l.114-116).",
                       no_args_is_help=True)


def _offer(recorded) -> None:
    """After damage that leaves a character at 0 HP: what the table may do next (004 l.100)."""
    for e in recorded:
        p = e.payload
        if e.type == "hp.damaged" and p["hp_before"] - p["from_hp"] == 0:
            who = p["character"]
            first = ("roll the Down and Out table again" if p["hp_before"] == 0
                     else "medical aid by the end of the scene")
            typer.echo(f"{who} is down and out: {first} (`tally down-and-out {who} --aid-by HELPER`, Medicine Ob 3; "
                       f"struck again: `tally down-and-out {who}`); no aid by the end of the Turn is death "
                       f"(`tally char die {who} --why \"no aid\"`)")


@hp_app.command("damage")
def damage(ctx: typer.Context, name: str = typer.Argument(..., help="The character hit."),
           amount: int = typer.Argument(..., help="Points of damage (Bonus HP take them first)."),
           why: str = typer.Option("damage", "--why", help="What dealt it."), json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Take damage: Bonus HP first, then HP down to 0 (down and out)."""
    opts = options(ctx)
    recorded = [commands.damage(opts.store(), opts.campaign, name, amount, why=why, actor=opts.who(),
                                **opts.late(game_date, ruling))]
    _print_events(recorded, json)
    if not json:
        _offer(recorded)


@hp_app.command("heal")
def heal(ctx: typer.Context, name: str = typer.Argument(..., help="The character healed."),
         amount: int = typer.Argument(..., help="HP regained (never past the maximum)."),
         why: str = typer.Option("healing", "--why", help="What healed it."), json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Regain HP, up to the maximum (Bonus HP are never regained)."""
    opts = options(ctx)
    _print_events([commands.heal(opts.store(), opts.campaign, name, amount, why=why, actor=opts.who(),
                                 **opts.late(game_date, ruling))], json)


@hp_app.command("bonus")
def bonus(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
          amount: int = typer.Argument(..., help="Bonus HP gained (they stack in one pool)."),
          why: str = typer.Option(..., "--why", help="The spell, shrine or patron that grants them."),
          json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Gain Bonus HP: a temporary pool that takes damage first."""
    opts = options(ctx)
    _print_events([commands.gain_bonus(opts.store(), opts.campaign, name, amount, why=why, actor=opts.who(),
                                       **opts.late(game_date, ruling))], json)


@hp_app.command("expire")
def expire(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
           why: str = typer.Option("their period ended", "--why", help="Why they end now."),
           json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Bonus HP expire: whatever is left in the pool is lost."""
    opts = options(ctx)
    _print_events([commands.expire_bonus(opts.store(), opts.campaign, name, why=why, actor=opts.who(),
                                         **opts.late(game_date, ruling))], json)


RATIONS = typer.Option(None, "--rations", help="The item each spends as Rations, checked for Depletion "
                                                "(default: Rations; none under rest_rations optional).")
DICE = typer.Option(None, "--dice", help="The Rations' d20s by hand, in the party's order.")


def _rest(ctx: typer.Context, kind: str, names: Optional[list[str]], rations, dice, json: bool, game_date,
          ruling, resources: Optional[list[str]] = None) -> None:
    opts = options(ctx)
    chosen = dict(item.partition("=")[::2] for item in resources or [])
    _print_events(commands.rest(opts.store(), opts.campaign, kind, names or [], rations=rations, hand=faces(dice),
                                resources=chosen, actor=opts.who(), **opts.late(game_date, ruling)), json)


@rest_app.command("short")
def short(ctx: typer.Context,
          names: Optional[list[str]] = typer.Argument(None, help="Who rests (default: everyone activated)."),
          rations: Optional[str] = RATIONS, dice: Optional[str] = DICE,
          resource: Optional[list[str]] = typer.Option(
              None, "--resource", help="C=RESOURCE: the Class Resource a point of which C regains (default: the "
                                       "core class's; repeatable)."),
          json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A short rest: up to three HP and a point of a Class Resource back each (004 l.115)."""
    _rest(ctx, "short", names, rations, dice, json, game_date, ruling, resource)


@rest_app.command("long")
def long(ctx: typer.Context,
         names: Optional[list[str]] = typer.Argument(None, help="Who rests (default: everyone activated)."),
         rations: Optional[str] = RATIONS, dice: Optional[str] = DICE,
         json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A long rest: every lost HP back, and Class Resources under long_rest_resources (004 l.116)."""
    _rest(ctx, "long", names, rations, dice, json, game_date, ruling)
