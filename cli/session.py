"""tally session open|join|close|show | down-and-out"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import (AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, GAME_DATE, JSON_OPTION, RULING, print_json,
                         print_pairs)
from cli.parsing import faces, faces_by_name
from commands import hazards, session as commands
from projections.reading import query
from projections.timeline import Pin
from projections.describe import line
from projections.views import session_info as session_view

app = typer.Typer(help="Sessions: open one, close it, look back at one.", no_args_is_help=True)


def _print_events(recorded, json: bool) -> None:
    if json:
        print_json([e.to_dict() for e in recorded])
        return
    for e in recorded:
        typer.echo(f"{e.position:>6}  {line(e)}")


def _note_unseeded(recorded, json: bool) -> None:
    """The epoch the command revealed, if its derived rolls (Income at an
    opening, Down and Out at a close, and those made in it before) had no
    player seed: say so."""
    from cli.dice import unseeded_epochs_note

    revealed = next((e for e in recorded if e.type == "dice.revealed"), None)
    if revealed is None or revealed.payload["client_seed"]:
        return
    p = revealed.payload
    note = unseeded_epochs_note([(p["epoch"], p["rolls"])] if p["rolls"] else [])
    if note:
        typer.echo(f"tally: note: {note}" if json else f"note: {note}", err=json)


def _ask_for_seed(recorded, json: bool) -> None:
    """An epoch the command opened without the players' seed: show its whole
    commitment and ask them for one (on stderr under --json, which prints events only)."""
    from cli.dice import seed_prompt

    committed = next((e for e in recorded if e.type == "dice.committed"), None)
    if committed is None or any(e.type == "dice.client_seed_set" for e in recorded):
        return
    epoch = committed.payload["epoch"]
    if json:
        typer.echo(f"tally: note: {seed_prompt(epoch)}", err=True)
        return
    typer.echo(f"epoch {epoch} commitment: {committed.payload['commitment']}")
    typer.echo(seed_prompt(epoch))


@app.command("open")
def open_(
    ctx: typer.Context,
    activate: list[str] = typer.Option(..., "--activate", help="A character to play (one per player; repeatable)."),
    game_date: Optional[str] = typer.Option(None, "--game-date", help="The in-game date the session starts."),
    no_income: bool = typer.Option(False, "--no-income", help="Do not roll Income."),
    dice: Optional[str] = typer.Option(None, "--dice", help="Income faces rolled by hand, in activation order."),
    override: Optional[list[str]] = typer.Option(
        None, "--override", help='NAME="reason": activate a character still away on another expedition.'),
    client_seed: Optional[str] = typer.Option(
        None, "--client-seed", help="The players' seed for the session's dice epoch, recorded with its "
                                    "commitment. Without it the commitment is shown and the players asked for "
                                    "one (`tally dice client-seed`, after seeing it: the stronger way)."),
    json: bool = JSON_OPTION,
) -> None:
    """Open a session: activate characters, roll Income, hand over the dice epoch."""
    opts = options(ctx)
    reasons = dict(item.partition("=")[::2] for item in override or [])
    recorded = commands.open_session(opts.store(), opts.campaign, activate=activate, actor=opts.who(),
                                     game_date=game_date or opts.game_date, income=not no_income, hand=faces(dice),
                                     overrides=reasons, client_seed=client_seed)
    _print_events(recorded, json)
    _note_unseeded(recorded, json)
    _ask_for_seed(recorded, json)


@app.command("close")
def close(
    ctx: typer.Context,
    game_date: Optional[str] = typer.Option(None, "--game-date", help="The in-game date the expedition ends."),
    days: Optional[int] = typer.Option(None, "--days", help="Or: how many in-game days it lasted."),
    haven: Optional[list[str]] = typer.Option(None, "--haven", help="A character who reached a safe haven (repeatable)."),
    dice: Optional[list[str]] = typer.Option(None, "--dice", help="Down and Out faces by hand: NAME=3,4 (repeatable)."),
    json: bool = JSON_OPTION,
) -> None:
    """Close the session: Down and Out outside a haven, Boons, reveal the seed."""
    opts = options(ctx)
    recorded = commands.close_session(opts.store(), opts.campaign, actor=opts.who(),
                                      game_date=game_date or opts.game_date, days=days, havens=haven or [],
                                      hands=faces_by_name(dice or []))
    _print_events(recorded, json)
    _note_unseeded(recorded, json)
    _ask_for_seed(recorded, json)  # the downtime's epoch: Income at the next opening rolls in it


@app.command("join")
def join(ctx: typer.Context, name: str = typer.Argument(..., help="The character who joins."),
         json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A replacement (or a latecomer's character) joins the running session."""
    opts = options(ctx)
    _print_events(commands.join_session(opts.store(), opts.campaign, name, actor=opts.who(),
                                        **opts.late(game_date, ruling)), json)


@app.command("show")
def show(ctx: typer.Context, number: Optional[int] = typer.Argument(None, help="The session (default: the latest)."),
         at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
         as_recorded: Optional[str] = AS_RECORDED,
         at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """Show a session: its dates, who played, treasure and deaths."""
    opts = options(ctx)
    view = query(opts.store(), opts.campaign, lambda c: session_view(c, number),
                 point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(view)
        return
    print_pairs([("session", view["number"]), ("status", "open" if view["open"] else "closed"),
                 ("in-game", f"{view['start']} to {view['end'] or '…'}"),
                 ("activated", ", ".join(f"{c} ({p})" for p, c in view["activated"].items())),
                 ("treasure found", view["treasure_found"]), ("undivided", view["treasure_undivided"]),
                 ("deaths", ", ".join(view["deaths"]) or "none"), ("events", len(view["events"]))])


def down_and_out(ctx: typer.Context, name: str = typer.Argument(..., help="The character at 0 HP."),
                 aid_by: Optional[str] = typer.Option(
                     None, "--aid-by", help="Who gives medical aid first: Medicine Ob 3, the table only if it passes."),
                 aid_bonus: int = typer.Option(0, "--aid-bonus", help="Bonus (+N) or penalty (-N) dice on the aid."),
                 dice: Optional[str] = typer.Option(
                     None, "--dice", help="Faces by hand: the aid's pool, the 2d6, then any follow-up die."),
                 json: bool = JSON_OPTION,
                 game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Roll on the Down and Out table (after medical aid, with --aid-by) and record the consequence."""
    opts = options(ctx)
    recorded = hazards.roll_down_and_out(opts.store(), opts.campaign, name, actor=opts.who(),
                                         **opts.late(game_date, ruling), hand=faces(dice), aid_by=aid_by,
                                         aid_bonus=aid_bonus)
    _print_events(recorded, json)
    failed = next((e for e in recorded if e.type == "medical_aid.rolled" and not e.payload["succeeded"]), None)
    if failed is not None and not json:
        typer.echo(f"the aid failed: another may try before the scene ends; with no aid by the end of the Turn "
                   f"{failed.payload['character']} dies (`tally char die {failed.payload['character']} "
                   "--why \"no aid\"`, 004 l.100)")
