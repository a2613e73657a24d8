"""The `tally` application: global options and the command groups."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from importlib import import_module
from typing import Optional

import typer

from typer.core import TyperGroup

from cli import plain_params

plain_params.install()  # plain text and numbers without building a Pydantic adapter each (cli/plain_params.py)

# Pydantic looks for plugins by reading the metadata of every installed distribution the
# first time it builds a validator (some 15 ms of a cold command that records). tally uses
# none; a user who sets this variable otherwise still has theirs. Set here, by the program,
# not by a module of the ledger that others may import.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")

# Negative numbers are arguments here (`tally cash Astrid -3`), not options.
SIGNED = {"cash", "rep", "xp", "silver"}

# Each command group and command, by the module that holds it, with the line
# `tally --help` shows for it. A module is imported only when its command runs
# (or for its own --help): `tally roll` does not load the code of every rules
# module before it can answer, and `tally --help` loads none of them
# (tests/test_cli_help.py holds each line to the command's own help).
# name: (module, attribute, its one-line help)
GROUPS = {
    "campaign": ("campaign", "app", "Create campaigns, list them, show and change their settings."),
    "dice": ("dice", "app", "Dice epochs: the client seed, revealing the seed, listing epochs; the luck report."),
    "db": ("db", "app", "The database itself: migrate it, see its state."),
    "calendar": ("calendar", "app", "The campaign calendar: today's date, and moving it on."),
    "downtime": ("downtime", "app", "The weeks between sessions: what is due, and spending downtime actions."),
    "project": ("downtime", "project_app",
        "Project clocks: long work, one tick each session a character gives it an action."),
    "schedule": ("schedule", "app", "Real-time jobs: one in-game day per real day, reminders."),
    "scheduler": ("schedule", "runner_app", "Run the scheduler."),
    "bench": ("bench.command", "app", "Benchmarks: a synthetic campaign, and the figures that matter at the table."),
    "player": ("stable", "player_app", "Players: the people at the table."),
    "char": ("stable", "char_app", "Characters: create them, list them, show their sheets."),
    "session": ("session", "app", "Sessions: open one, close it, look back at one."),
    "treasure": ("economy", "treasure_app", "Treasure hordes found in a session, and their division."),
    "wealth": ("economy", "wealth_app", "Wealth: improve it by wagering Cash."),
    "stronghold": ("company", "stronghold_app", "Strongholds: found them, improve them."),
    "follower": ("followers", "app", "Followers: loyal companions, and refilling a Feat's position."),
    "god": ("gods", "app",
        "Gods (Bifrost): alignments, adopt a god, earn marks, pray, crawl, repent, sacrifice, battle and "
        "convert."),
    "vow": ("xp", "vow_app", "Vows (xp module): one open at a time; treasure XP is halved until fulfilled."),
    "expertise": ("xp", "expertise_app",
        "Areas of expertise (xp module): the first, one per odd level, one per skill roll of 12."),
    "hd": ("xp", "hd_app", "Hit dice (xp module): one per level, spent in play, restored in safe time."),
    "companion": ("wolves", "companion_app", "Companions (wolves): one per full 1000 sp; each takes a half share."),
    "boast": ("wolves", "boast_app", "Boasts of Heroic Proportions (wolves): one pending at a time."),
    "ship": ("wolves", "ship_app", "The band's ships (wolves)."),
    "wages": ("wolves", "wages_app", "Hirelings' wages (wolves): owed per in-game day of service."),
    "luck": ("skirmish", "luck_app", "Luck points (skirmish): spend one to re-roll, or force a re-roll."),
    "wound": ("skirmish", "wound_app", "Permanent, cumulative wounds (skirmish) and their healing."),
    "skirmish": ("skirmish", "skirmish_app", "Skirmish characters: level, hero stats, skills, renown, clothing."),
    "treasury": ("company", "treasury_app", "The Company's Cash: its strongholds' Income, paid out and paid in."),
    "hp": ("hit_points", "hp_app", "Hit points: damage, healing and Bonus HP (004 l.83-89)."),
    "rest": ("hit_points", "rest_app", "Rests: short (up to 3 HP) and long (every lost HP) (004 l.114-116)."),
    "item": ("inventory", "app", "Inventory: twelve Slots, items found and used, Depletion (004 l.552-564)."),
    "boon": ("boons", "boon_app", "Boons: each one gained is chosen from a list (004 l.501-504, l.533)."),
    "specialty": ("boons", "specialty_app", "Specialty Classes: unlocked through the fiction (004 l.531-549)."),
    "resource": ("boons", "resource_app",
        "Class Resources: Luck, Steel, Control and the Specialty Classes' (004 l.499-500)."),
    "keys": ("checkpoints", "keys_app", "Signing keys: the referee's checkpoint key, the players' witness keys."),
    "checkpoint": ("checkpoints", "checkpoint_app",
        "Sign a checkpoint now (the log's Merkle tree head, a C2SP signed note); cosign, record cosignatures,"
        " list and show checkpoints."),
    "note": ("notes", "app", "Dated notes: what happened on a day of the campaign, in the referee's words."),
    "secret": ("secret", "app",
        "Sealed secrets: a text (a random table, a room key) committed to now, revealed later, checked by anyone."),
}
# name: (module, function, its one-line help)
COMMANDS = {
    "roll": ("dice", "roll",
        "Roll dice derived from the epoch's committed seed, or log a hand roll; check it against a target."),
    "audit": ("dice", "audit", "Re-derive every roll of every revealed epoch and check its commitment."),
    "odds": ("dice", "odds", "Exact odds of a roll, or of its check against a target (counted, not simulated)."),
    "log": ("ledger", "log", "List the campaign's events in the order they were recorded."),
    "verify": ("ledger", "verify",
        "Walk the hash chain of the whole database, recompute its Merkle tree, check every recorded "
        "checkpoint and every snapshot against the log, and hold the log against checkpoints you kept; exit 1"
        " at the first problem."),
    "void": ("ledger", "void", "Withdraw an event from now on (the event itself stays in the log)."),
    "export": ("ledger", "export", "Write the whole log, with hashes, as JSON Lines (dice secrets stay behind)."),
    "import": ("ledger", "import_", "Re-verify an exported log and append what this database lacks."),
    "script": ("script", "script",
        "Replay a scripted session as one transaction: every line is recorded, or none is. The first refusal "
        "stops the script, naming its line."),
    "why": ("history", "why",
        "The whole story of a figure, in fold order: what changed it (with the roll behind each), failed "
        "attempts, voided events and facts logged late."),
    "diff": ("history", "diff", "What changed between two points (e.g. a session's start and end)."),
    "stable": ("stable", "stable", "A player's stable: every character, and what waits for the next one."),
    "retire": ("stable", "retire", "Retire a character (start of a session or between sessions only)."),
    "down-and-out": ("session", "down_and_out",
        "Roll on the Down and Out table (after medical aid, with --aid-by) and record the consequence."),
    "buy": ("economy", "buy", "Buy a good (into the inventory) or a service under the campaign's purchase_rule."),
    "sell": ("economy", "sell",
        "Sell a good (out of the inventory if carried): Cost above Wealth rolls (Cost − Wealth) dice for "
        "Cash."),
    "company": ("company", "company", "The Company: its treasury, strongholds and Reputation."),
    "cash": ("economy", "cash", "Give or take Cash dice (jobs, rewards, costs)."),
    "rep": ("company", "rep", "Change the Company's Reputation with a Faction (clamped to ±6), or `rep show`."),
    "xp": ("xp", "xp", "Award XP; a new level is attained only in safe time, a level lost goes at once."),
    "skill": ("xp", "skill", "A skill roll: 2D6 + modifiers; 12 or more grants new expertise (002 l.160-179)."),
    "attributes": ("xp", "attributes",
        "Set a character's attribute scores (xp module, 002 l.21-24): each gives its modifier to a skill roll."),
    "test": ("trait_tests", "take_test",
        "Test a character from the sheet: pool and target formed from it, recorded with pass or fail and the "
        "margin."),
    "silver": ("wolves", "silver", "Give or take silver pennies."),
    "hire": ("wolves", "hire", "Hire a hireling; wages accrue per in-game day until dismissed."),
    "dismiss": ("wolves", "dismiss", "Dismiss a hireling: wages stop accruing."),
    "outfit": ("wolves", "outfit", "Buy equipment with silver pennies at the seed's prices (000 l.64-153)."),
    "import-rolls": ("import_rolls", "import_rolls",
        "Bring in rolls from Foundry VTT, Roll20 or D&D Beyond as hand rolls (recorded, not verifiable)."),
    "give": ("inventory", "give", "Hand Cash and items to another character in the same place."),
    "shell": ("shell", "shell",
        "An interactive prompt for a whole evening: every tally command, typed without `tally`, the ledger kept "
        "open between them; command history, and Tab completes commands, options and the campaign's names. "
        "Ctrl-D or `exit` leaves."),
    "proof": ("checkpoints", "proof",
        "An inclusion proof of an event (C2SP tlog-proof): the event, its audit path and a signed checkpoint."),
    "serve": ("chronicle", "serve", "Show the campaign as read-only web pages on this machine."),
    "chronicle": ("chronicle", "chronicle",
        "Write the campaign's pages as a static site players can keep, with the export and latest checkpoint."),
    "recap": ("recap", "recap",
        "What happened in a session or a stretch of days, in game-date order, as Markdown, text or JSON."),
}

# What records no fact of the campaign's own, or moves time itself: a global
# --game-date before one of these is refused rather than ignored. (A script's
# lines each take their own --game-date.)
NO_LATE_FACTS = {"campaign", "calendar", "dice", "roll", "db", "schedule", "scheduler", "bench", "import",
                 "export", "script", "shell", "verify", "audit", "import-rolls", "keys", "checkpoint", "proof",
                 "serve", "chronicle", "recap"}


def _module(name: str) -> str:
    # A plain name is a module of cli/. `tally bench` is the benchmark's own
    # group (bench/command.py), named here by its path: bench sits apart, above
    # the product, and nothing in the product imports it.
    return name if "." in name else f"cli.{name}"


def _load(name: str) -> "typer.core.TyperCommand | TyperGroup":
    if name in GROUPS:
        module, attribute, _ = GROUPS[name]
        # get_group, not get_command: a group of one command (player add) stays a group.
        command = typer.main.get_group(getattr(import_module(_module(module)), attribute))
        command.name = name
        return command
    module, function, _ = COMMANDS[name]
    single = typer.Typer(add_completion=False)
    single.command(name, context_settings={"ignore_unknown_options": True} if name in SIGNED else None)(
        getattr(import_module(_module(module)), function))
    return typer.main.get_command(single)


def _listed(name: str, panels: dict[str, str]) -> "typer.core.TyperCommand":
    """What `tally --help` lists for a command not yet loaded: its name and line, in its ruleset's
    panel (cli/help_panels.py)."""
    from typer.core import TyperCommand

    from cli.help_panels import PANEL_OF

    return TyperCommand(name, help=(GROUPS.get(name) or COMMANDS[name])[2], rich_help_panel=panels[PANEL_OF[name]])


class LazyGroup(TyperGroup):
    """The top-level group: a command's module is imported when it is asked for,
    and every command runs inside the one error boundary (cli/errors.py)."""

    def list_commands(self, ctx) -> list[str]:
        if ctx.meta.get(LISTING):
            from cli.help_panels import ordered

            return ordered(list(GROUPS) + list(COMMANDS))
        return list(GROUPS) + list(COMMANDS)

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        ctx.meta[ARGS] = list(args)  # --help answers before the options are parsed: what was typed
        return super().parse_args(ctx, args)

    def get_command(self, ctx, name: str):
        if ctx.meta.get(LISTING) and (name in GROUPS or name in COMMANDS):
            return _listed(name, ctx.meta[LISTING])  # loaded or not (the shell's help), in its panel
        command = super().get_command(ctx, name)
        if command is None and (name in GROUPS or name in COMMANDS):
            command = _load(name)
            self.add_command(command, name)
        return command

    def format_help(self, ctx, formatter) -> None:
        from cli.help_panels import prepare

        ctx.meta[LISTING], self.epilog = prepare(ctx, ctx.meta.get(ARGS, []))
        try:
            super().format_help(ctx, formatter)
        finally:
            ctx.meta[LISTING] = False

    def invoke(self, ctx):
        from cli.errors import boundary

        with boundary(ctx.obj):
            return super().invoke(ctx)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """As a program: a usage error (a missing option, a value that is not one, a command
        that does not exist) said in one line, as every refusal is, and where to look — not a
        box of usage text — with the command line's own exit status 2. Without
        ``standalone_mode`` (`tally script`, the shell) the caller words them itself."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        from cli.errors import one_line

        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.TyperException as exc:  # Typer's own click's: usage errors, and the like
            where, ctx = [], getattr(exc, "ctx", None)
            while ctx is not None and ctx.parent is not None:  # the command's path, as it was typed
                where, ctx = [ctx.info_name, *where], ctx.parent
            where = " ".join(["tally", *where])
            said = one_line(exc.format_message().strip().rstrip("."))
            if said:  # (`tally` alone: its help, which the error printed as it was made)
                usage = exc.exit_code == 2
                typer.echo(f"tally: {said}; see `{where} --help`" if usage else f"tally: {said}", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:  # end of input (or Ctrl-C) at a prompt, before a command records
            typer.echo("\ntally: aborted; nothing was recorded", err=True)
            sys.exit(1)
        sys.exit(result if isinstance(result, int) else 0)


LISTING = "tally.listing"
ARGS = "tally.args"


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"tally (tallystick) {version('tallystick')}")
        raise typer.Exit()


app = typer.Typer(
    cls=LazyGroup, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
    help="Tallystick: a referee's campaign ledger. Every roll, haul and ruling is an immutable event.",
)


@app.callback()
def main_options(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, expose_value=False,
                                 help="Print tally's version and exit."),
    db_: Optional[str] = typer.Option(None, "--db", help="Ledger file path or database URL (default: TALLY_DB or ./tally.db)."),
    campaign_: Optional[str] = typer.Option(None, "--campaign", help="The campaign (optional when the ledger holds one)."),
    actor: Optional[str] = typer.Option(None, "--actor", help="Who is logging (default: TALLY_ACTOR or your user name)."),
    game_date: Optional[str] = typer.Option(
        None, "--game-date", help="Log a recording command's facts on this in-game date (a fact logged late); "
                                  "also accepted at the command's end."),
) -> None:
    from cli.context import Options
    from ledger.errors import BadInput
    from ledger.engines import resolve_url

    # A path a user typed may hold bytes that are not UTF-8 (os gives them as lone
    # surrogates): say them as escapes rather than fail after the work is done.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if game_date is not None and ctx.invoked_subcommand in NO_LATE_FACTS:
        raise BadInput(f"`tally {ctx.invoked_subcommand}` does not log facts late: drop --game-date")

    if isinstance(ctx.obj, Options):
        # A line of `tally script` or `tally shell`: their options and their one store, this
        # line's own --campaign, --actor and --game-date; the script or shell closes the store
        # when its last line has run.
        script = ctx.obj
        if db_ is not None and resolve_url(db_) != resolve_url(script.db):
            raise typer.BadParameter("a script's or shell's lines use its database: give --db to "
                                     "`tally script` or `tally shell`, not to a line", param_hint="'--db'")
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
