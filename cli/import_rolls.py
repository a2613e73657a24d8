"""tally import-rolls foundry|roll20|ddb FILE"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import JSON_OPTION, print_json, print_table
from commands import import_rolls as commands
from ledger.errors import BadInput


def import_rolls(
    ctx: typer.Context,
    source: str = typer.Argument(..., help="Where the log comes from: foundry (messages.db or a JSON list of "
                                           "chat messages), roll20 (a chat archive) or ddb (D&D Beyond roll "
                                           "events, as Avrae reads them)."),
    path: str = typer.Argument(..., help="The log file."),
    map_file: Optional[str] = typer.Option(
        None, "--map", help='A TOML file of speaker = character lines ("Gandalf the Grey" = "Gandalf"; '
                            '"" for a speaker who is no character); others match characters by name.'),
    skip_bad: bool = typer.Option(False, "--skip-bad", help="Import what can be read and report the rest "
                                                           "(default: nothing is written if any line is bad)."),
    json: bool = JSON_OPTION,
) -> None:
    """Bring in rolls from Foundry VTT, Roll20 or D&D Beyond as hand rolls (recorded, not verifiable)."""
    opts = options(ctx)
    report = commands.import_rolls(opts.store(), opts.campaign, source, path, actor=opts.who(),
                                   mapping=_mapping(map_file), skip_bad=skip_bad)
    if json:
        print_json(report.as_dict())
        return
    typer.echo(f"{report.rolls} roll(s), {report.dice} dice imported from {source}"
               + (f"; {report.already} already in the ledger" if report.already else ""))
    for n, problem in report.skipped:
        typer.echo(f"skipped {report.unit} {n}: {problem}")
    if report.speakers:
        print_table(["speaker", "character", "rolls"],
                    [(s, report.characters.get(s, "-"), n) for s, n in report.speakers.items()], title="per speaker")
    if report.sessions:
        print_table(["from (UTC)", "to (UTC)", "rolls", "dice"],
                    [(s["from"] or "unknown", s["to"] or "", s["rolls"], s["dice"]) for s in report.sessions],
                    title="per session (a gap of over 4 hours starts a new one)")


def _mapping(path: Optional[str]) -> dict[str, str]:
    if path is None:
        return {}
    import tomllib

    from ledger.files import read_regular

    try:
        data = tomllib.loads(read_regular(path, "--map file", 2**20).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"--map file {path} is not TOML lines of \"speaker\" = \"character\" ({exc})") from None
    if not all(isinstance(v, str) for v in data.values()):
        raise BadInput(f"--map file {path}: each line maps a speaker to a character's name (or \"\")")
    return data
