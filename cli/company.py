"""tally stronghold found|improve | rep | rep show | company"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.economy import DRY_RUN, print_plan
from cli.output import (AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, GAME_DATE, JSON_OPTION, RULING, print_json,
                         print_table)
from cli.parsing import faces, names
from cli.session import _print_events
from commands import company as commands
from projections.reading import query
from projections.timeline import Pin
from projections.company import reputation_after
from ledger.errors import BadInput

stronghold_app = typer.Typer(help="Strongholds: found them, improve them.", no_args_is_help=True)
treasury_app = typer.Typer(help="The Company's Cash: its strongholds' Income, paid out and paid in.",
                           no_args_is_help=True)


@stronghold_app.command("found")
def found(ctx: typer.Context, name: str = typer.Argument(..., help="The stronghold's name."),
          owner: str = typer.Option(..., "--owner", help="A character, or company."),
          json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Found a stronghold (rating 0 until its first improvement)."""
    opts = options(ctx)
    _print_events([commands.found(opts.store(), opts.campaign, name, owner=owner, actor=opts.who(),
                                  **opts.late(game_date, ruling))], json)


@stronghold_app.command("improve")
def improve(ctx: typer.Context, name: str = typer.Argument(..., help="The stronghold."),
            wager: int = typer.Option(..., "--wager", help="Cash dice to wager (always lost)."),
            by: str = typer.Option(..., "--by", help="The character who pays, or company (its treasury)."),
            tags: str = typer.Option(..., "--tags", help="The two tags a new rank adds, e.g. Economy,Garrison."),
            dice: Optional[str] = typer.Option(None, "--dice", help="Faces rolled by hand."),
            dry_run: bool = DRY_RUN, json: bool = JSON_OPTION,
            game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Try to raise a stronghold one rank: Ob 8+2r, once per session."""
    opts = options(ctx)
    result = commands.improve(opts.store(), opts.campaign, name, wager=wager, by=by, tags=names(tags),
                              actor=opts.who(), **opts.late(game_date, ruling), hand=faces(dice), dry_run=dry_run)
    print_plan(result, json) if dry_run else _print_events(result, json)


def rep(ctx: typer.Context,
        faction: str = typer.Argument(..., help="The Faction, or `show` to list every Faction."),
        delta: Optional[int] = typer.Argument(None, help="+N or -N."),
        why: Optional[str] = typer.Option(None, "--why", help="What the Company did."),
        at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
        as_recorded: Optional[str] = AS_RECORDED, at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION,
        new: bool = typer.Option(False, "--new", help="The Faction is named for the first time (a name the "
                                 "ledger does not know is otherwise refused, with the near name)."),
        game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Change the Company's Reputation with a Faction (clamped to ±6), or `rep show`."""
    opts = options(ctx)
    if faction == "show" and delta is None:
        reputation = query(opts.store(), opts.campaign, lambda c: c.world.company.view()["reputation"],
                 point=Pin(at_event, as_of, as_recorded, at_session))
        if json:
            print_json(reputation)
        else:
            print_table(["faction", "reputation"], [(f, f"{v:+d}") for f, v in reputation.items()])
        return
    if delta is None or why is None:
        raise BadInput("write `tally rep FACTION ±N --why TEXT`, or `tally rep show`")
    changed = commands.change_reputation(opts.store(), opts.campaign, faction, delta, why=why, actor=opts.who(),
                                         new=new, **opts.late(game_date, ruling))
    if json:
        print_json(changed.to_dict())
        return
    p = changed.payload
    after = reputation_after(p)
    clamp = f" (clamped at the limit; asked {p['requested']:+d})" if after != p["before"] + p["requested"] else ""
    typer.echo(f"Reputation with {p['faction']}: {p['before']:+d} -> {after:+d}{clamp}")


def company(ctx: typer.Context, at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
            as_recorded: Optional[str] = AS_RECORDED,
            at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """The Company: its treasury, strongholds and Reputation."""
    opts = options(ctx)
    view = query(opts.store(), opts.campaign, lambda c: c.world.company.view(),
                 point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(view)
        return
    typer.echo(f"the Company's Cash: {view['cash']}")
    print_table(["stronghold", "owner", "rating", "tags", "Economy dice", "population"],
                [(s["name"], s["owner"], s["rating"], ", ".join(s["tags"]), s["economy"], s["population"])
                 for s in view["strongholds"]], title="Strongholds")
    print_table(["faction", "reputation"], [(f, f"{v:+d}") for f, v in view["reputation"].items()],
                title="Reputation")


@treasury_app.command("pay")
def treasury_pay(ctx: typer.Context, name: str = typer.Argument(..., help="The character paid."),
                 amount: int = typer.Argument(..., help="Cash dice out of the Company's treasury."),
                 why: str = typer.Option(..., "--why", help="What for."), json: bool = JSON_OPTION,
                 game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Pay a character out of the Company's Cash."""
    opts = options(ctx)
    _print_events([commands.pay_out(opts.store(), opts.campaign, name, amount, why=why, actor=opts.who(),
                                    **opts.late(game_date, ruling))], json)


@treasury_app.command("fund")
def treasury_fund(ctx: typer.Context, name: str = typer.Argument(..., help="The character who pays in."),
                  amount: int = typer.Argument(..., help="Cash dice into the Company's treasury."),
                  why: str = typer.Option(..., "--why", help="What for."), json: bool = JSON_OPTION,
                  game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A character puts Cash into the Company's treasury."""
    opts = options(ctx)
    _print_events([commands.fund(opts.store(), opts.campaign, name, amount, why=why, actor=opts.who(),
                                 **opts.late(game_date, ruling))], json)
