"""The `tally` application: global options and the command groups."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from cli import (
    bench, calendar, campaign, company, db, dice, downtime, economy, followers, gods, history, ledger, schedule, script, session,
    skirmish, stable, wolves,
    xp,
)
from cli.context import Options, guarded
from ledger.commands.base import LATE_FACT


app = typer.Typer(
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
    help="Tallystick: a referee's campaign ledger. Every roll, haul and ruling is an immutable event.",
)


@app.callback()
def main_options(
    ctx: typer.Context,
    db_: Optional[str] = typer.Option(None, "--db", help="Ledger file path or database URL (default: TALLY_DB or ./tally.db)."),
    campaign_: Optional[str] = typer.Option(None, "--campaign", help="The campaign (optional when the ledger holds one)."),
    actor: Optional[str] = typer.Option(None, "--actor", help="Who is logging (default: TALLY_ACTOR or your user name)."),
    game_date: Optional[str] = typer.Option(
        None, "--game-date", help="Log the command's facts on this in-game date (a fact logged late)."),
) -> None:
    opts = Options(db=db_, campaign=campaign_, actor=actor)
    ctx.obj = opts
    ctx.call_on_close(opts.close)
    if game_date is not None:
        token = LATE_FACT.set(game_date)
        ctx.call_on_close(lambda: LATE_FACT.reset(token))


app.add_typer(campaign.app, name="campaign")
app.add_typer(dice.app, name="dice")
app.add_typer(db.app, name="db")
app.add_typer(calendar.app, name="calendar")
app.add_typer(downtime.app, name="downtime")
app.add_typer(downtime.project_app, name="project")
app.add_typer(schedule.app, name="schedule")
app.add_typer(schedule.runner_app, name="scheduler")
app.add_typer(bench.app, name="bench")
app.add_typer(stable.player_app, name="player")
app.add_typer(stable.char_app, name="char")
app.add_typer(session.app, name="session")
app.add_typer(economy.treasure_app, name="treasure")
app.add_typer(economy.wealth_app, name="wealth")
app.add_typer(company.stronghold_app, name="stronghold")
app.add_typer(followers.app, name="follower")
app.add_typer(gods.app, name="god")
app.add_typer(xp.vow_app, name="vow")
app.add_typer(wolves.companion_app, name="companion")
app.add_typer(wolves.boast_app, name="boast")
app.add_typer(wolves.ship_app, name="ship")
app.add_typer(wolves.wages_app, name="wages")
app.add_typer(skirmish.luck_app, name="luck")
app.add_typer(skirmish.wound_app, name="wound")
app.add_typer(skirmish.skirmish_app, name="skirmish")
app.command("roll")(guarded(dice.roll))
app.command("audit")(guarded(dice.audit))
app.command("odds")(guarded(dice.odds))
app.command("log")(guarded(ledger.log))
app.command("verify")(guarded(ledger.verify))
app.command("void")(guarded(ledger.void))
app.command("export")(guarded(ledger.export))
app.command("import")(guarded(ledger.import_))
app.command("script")(guarded(script.script))
app.command("why")(history.why)
app.command("diff")(history.diff)
app.command("stable")(stable.stable)
app.command("retire")(stable.retire)
app.command("down-and-out")(session.down_and_out)
app.command("buy")(economy.buy)
app.command("sell")(economy.sell)
app.command("company")(company.company)
# Negative numbers are arguments here (`tally cash Astrid -3`), not options.
SIGNED = {"ignore_unknown_options": True}
app.command("cash", context_settings=SIGNED)(economy.cash)
app.command("rep", context_settings=SIGNED)(company.rep)
app.command("xp", context_settings=SIGNED)(xp.xp)
app.command("silver", context_settings=SIGNED)(wolves.silver)
app.command("hire")(wolves.hire)
app.command("dismiss")(wolves.dismiss)


# Commands whose own --game-date means something else (the session's dates).
OWN_GAME_DATE = (("session", "open"), ("session", "close"))
GLOBAL_WITH_VALUE = {"--db", "--campaign", "--actor", "--game-date"}


def hoist_game_date(argv: list[str]) -> list[str]:
    """Let any recording command take --game-date at its end (`tally cash Bo +3
    --why … --game-date 1024-03-02`) by moving it before the command, where
    the global option reads it."""
    words, skip = [], False
    for word in argv:  # the command's own words, past the global options and their values
        if skip or word.startswith("-"):
            skip = not skip and word in GLOBAL_WITH_VALUE
            continue
        words.append(word)
    if tuple(words[:2]) in OWN_GAME_DATE or "--game-date" not in argv:
        return argv
    i = argv.index("--game-date")
    if i + 1 >= len(argv):
        return argv
    return ["--game-date", argv[i + 1]] + argv[:i] + argv[i + 2:]


def main() -> None:
    app(args=hoist_game_date(sys.argv[1:]), prog_name="tally")


if __name__ == "__main__":
    sys.exit(main())
