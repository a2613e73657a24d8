"""The `tally` application: global options and the command groups."""

from __future__ import annotations

import sys
from dataclasses import replace
from importlib import import_module
from typing import Optional

import typer

from typer.core import TyperGroup

from cli.context import Options
from ledger.store import resolve_url

# Negative numbers are arguments here (`tally cash Astrid -3`), not options.
SIGNED = {"ignore_unknown_options": True}

# Each command group and command, by the module that holds it. A module is
# imported only when its command runs (or for --help): `tally roll` does not
# load the code of every rules module before it can answer.
GROUPS = {
    "campaign": ("campaign", "app"), "dice": ("dice", "app"), "db": ("db", "app"),
    "calendar": ("calendar", "app"), "downtime": ("downtime", "app"), "project": ("downtime", "project_app"),
    "schedule": ("schedule", "app"), "scheduler": ("schedule", "runner_app"), "bench": ("bench", "app"),
    "player": ("stable", "player_app"), "char": ("stable", "char_app"), "session": ("session", "app"),
    "treasure": ("economy", "treasure_app"), "wealth": ("economy", "wealth_app"),
    "stronghold": ("company", "stronghold_app"), "follower": ("followers", "app"), "god": ("gods", "app"),
    "vow": ("xp", "vow_app"), "expertise": ("xp", "expertise_app"), "hd": ("xp", "hd_app"),
    "companion": ("wolves", "companion_app"), "boast": ("wolves", "boast_app"),
    "ship": ("wolves", "ship_app"), "wages": ("wolves", "wages_app"), "luck": ("skirmish", "luck_app"),
    "wound": ("skirmish", "wound_app"), "skirmish": ("skirmish", "skirmish_app"),
    # seed 004, issue 14
    "treasury": ("company", "treasury_app"), "hp": ("hit_points", "hp_app"), "rest": ("hit_points", "rest_app"),
    "item": ("inventory", "app"), "boon": ("boons", "boon_app"), "specialty": ("boons", "specialty_app"),
    "resource": ("boons", "resource_app"),
    "keys": ("checkpoints", "keys_app"), "checkpoint": ("checkpoints", "checkpoint_app"),
}
# name: (module, function, wrap in guarded, context settings)
COMMANDS = {
    "roll": ("dice", "roll", True, None), "audit": ("dice", "audit", True, None),
    "odds": ("dice", "odds", True, None), "log": ("ledger", "log", True, None),
    "verify": ("ledger", "verify", True, None), "void": ("ledger", "void", True, None),
    "export": ("ledger", "export", True, None), "import": ("ledger", "import_", True, None),
    "script": ("script", "script", True, None), "why": ("history", "why", False, None),
    "diff": ("history", "diff", False, None), "stable": ("stable", "stable", False, None),
    "retire": ("stable", "retire", False, None), "down-and-out": ("session", "down_and_out", False, None),
    "buy": ("economy", "buy", False, None), "sell": ("economy", "sell", False, None),
    "company": ("company", "company", False, None), "cash": ("economy", "cash", False, SIGNED),
    "rep": ("company", "rep", False, SIGNED), "xp": ("xp", "xp", False, SIGNED),
    "skill": ("xp", "skill", False, None),
    "silver": ("wolves", "silver", False, SIGNED), "hire": ("wolves", "hire", False, None),
    "dismiss": ("wolves", "dismiss", False, None), "outfit": ("wolves", "outfit", False, None),
    "import-rolls": ("import_rolls", "import_rolls", True, None),
    # seed 004, issue 14
    "give": ("inventory", "give", False, None),
    "proof": ("checkpoints", "proof", True, None),
    "serve": ("chronicle", "serve", True, None), "chronicle": ("chronicle", "chronicle", True, None),
}

# What records no fact of the campaign's own, or moves time itself: a global
# --game-date before one of these is refused rather than ignored. (A script's
# lines each take their own --game-date.)
NO_LATE_FACTS = {"campaign", "calendar", "dice", "roll", "db", "schedule", "scheduler", "bench", "import",
                 "export", "script", "verify", "audit", "import-rolls", "keys", "checkpoint", "proof"}


def _load(name: str) -> "typer.core.TyperCommand | TyperGroup":
    if name in GROUPS:
        module, attribute = GROUPS[name]
        # get_group, not get_command: a group of one command (player add) stays a group.
        return typer.main.get_group(getattr(import_module(f"cli.{module}"), attribute))
    module, function, guard, settings = COMMANDS[name]
    command = getattr(import_module(f"cli.{module}"), function)
    if guard:
        from cli.context import guarded

        command = guarded(command)
    single = typer.Typer(add_completion=False)
    single.command(name, context_settings=settings)(command)
    return typer.main.get_command(single)


class LazyGroup(TyperGroup):
    """The top-level group: a command's module is imported when it is asked for."""

    def list_commands(self, ctx) -> list[str]:
        return list(GROUPS) + list(COMMANDS)

    def get_command(self, ctx, name: str):
        command = super().get_command(ctx, name)
        if command is None and (name in GROUPS or name in COMMANDS):
            command = _load(name)
            self.add_command(command, name)
        return command


app = typer.Typer(
    cls=LazyGroup, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
    help="Tallystick: a referee's campaign ledger. Every roll, haul and ruling is an immutable event.",
)


@app.callback()
def main_options(
    ctx: typer.Context,
    db_: Optional[str] = typer.Option(None, "--db", help="Ledger file path or database URL (default: TALLY_DB or ./tally.db)."),
    campaign_: Optional[str] = typer.Option(None, "--campaign", help="The campaign (optional when the ledger holds one)."),
    actor: Optional[str] = typer.Option(None, "--actor", help="Who is logging (default: TALLY_ACTOR or your user name)."),
    game_date: Optional[str] = typer.Option(
        None, "--game-date", help="Log a recording command's facts on this in-game date (a fact logged late); "
                                  "also accepted at the command's end."),
) -> None:
    if game_date is not None and ctx.invoked_subcommand in NO_LATE_FACTS:
        typer.echo(f"tally: `tally {ctx.invoked_subcommand}` does not log facts late: drop --game-date", err=True)
        raise typer.Exit(1)
    if isinstance(ctx.obj, Options):
        # A line of `tally script`: the script's options and its one store, this line's own
        # --campaign, --actor and --game-date; the script closes the store when its last line has run.
        script = ctx.obj
        if db_ is not None and resolve_url(db_) != resolve_url(script.db):
            raise typer.BadParameter("a script's lines use the script's database: give --db to "
                                     "`tally script`, not to a line", param_hint="'--db'")
        opts = replace(script, campaign=campaign_ or script.campaign, actor=actor or script.actor,
                       game_date=game_date)
    else:
        opts = Options(db=db_, campaign=campaign_, actor=actor, game_date=game_date)
        ctx.call_on_close(opts.close)
    ctx.obj = opts


def main() -> None:
    app(prog_name="tally")


if __name__ == "__main__":
    sys.exit(main())
