"""tally script FILE: run tally commands from a file, one per line."""

from __future__ import annotations

import shlex

import typer

from cli.context import options
from ledger.errors import BadInput


def script(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A file of tally commands, one per line; # starts a comment."),
    echo: bool = typer.Option(True, "--echo/--quiet", help="Print each command before its output."),
) -> None:
    """Replay a scripted session. Each line is its own command (and its own
    transaction); the first refusal stops the script, naming its line."""
    from typer.main import get_command

    from cli.main import app

    opts = options(ctx)
    try:
        with open(file, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        raise BadInput(f"cannot read {file}: {exc.strerror}") from None
    prefix = [arg for flag, value in (("--db", opts.db), ("--campaign", opts.campaign), ("--actor", opts.actor))
              if value for arg in (flag, value)]
    command = get_command(app)
    for number, line in enumerate(lines, 1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            raise BadInput(f"{file} line {number}: {exc}") from None
        if not words:
            continue
        if words[0] == "tally":
            words = words[1:]
        if words and words[0] == "script":
            raise BadInput(f"{file} line {number}: a script cannot run another script")
        if echo:
            typer.echo(f"\n$ tally {shlex.join(words)}")
        code = command.main(prefix + words, prog_name="tally", standalone_mode=False)
        if code:
            typer.echo(f"tally: {file} line {number} was refused; the lines before it are recorded", err=True)
            raise typer.Exit(code)
