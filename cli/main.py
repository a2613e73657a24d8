"""The `tally` application: global options and the command groups."""

from __future__ import annotations

import sys
from dataclasses import replace
from importlib import import_module
from typing import Optional

import typer

from typer.core import TyperGroup

from cli.context import Options
from ledger.commands.late import LATE_FACT
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
    "vow": ("xp", "vow_app"), "companion": ("wolves", "companion_app"), "boast": ("wolves", "boast_app"),
    "ship": ("wolves", "ship_app"), "wages": ("wolves", "wages_app"), "luck": ("skirmish", "luck_app"),
    "wound": ("skirmish", "wound_app"), "skirmish": ("skirmish", "skirmish_app"),
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
    "silver": ("wolves", "silver", False, SIGNED), "hire": ("wolves", "hire", False, None),
    "dismiss": ("wolves", "dismiss", False, None),
}


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
        None, "--game-date", help="Log the command's facts on this in-game date (a fact logged late)."),
) -> None:
    if isinstance(ctx.obj, Options):
        # A line of `tally script`: the script's options and its one store, this line's own
        # --campaign and --actor; the script closes the store when its last line has run.
        script = ctx.obj
        if db_ is not None and resolve_url(db_) != resolve_url(script.db):
            raise typer.BadParameter("a script's lines use the script's database: give --db to "
                                     "`tally script`, not to a line", param_hint="'--db'")
        opts = replace(script, campaign=campaign_ or script.campaign, actor=actor or script.actor)
    else:
        opts = Options(db=db_, campaign=campaign_, actor=actor)
        ctx.call_on_close(opts.close)
    ctx.obj = opts
    if game_date is not None:
        token = LATE_FACT.set(game_date)
        ctx.call_on_close(lambda: LATE_FACT.reset(token))


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
