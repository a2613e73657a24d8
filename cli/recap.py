"""tally recap: a session or a stretch of days, to paste into Discord or Obsidian."""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import print_json
from ledger.errors import BadInput
from projections.reading import query

FORMATS = ("md", "text", "json")


def recap(
    ctx: typer.Context,
    session: Optional[int] = typer.Option(None, "--session", help="The session to recap."),
    start: Optional[str] = typer.Option(None, "--from", help="The first in-game date to recap (alone: to today)."),
    end: Optional[str] = typer.Option(None, "--to", help="The last in-game date to recap (alone: from the start)."),
    format_: str = typer.Option("md", "--format", help="md (Markdown for Discord and Obsidian), text or json."),
) -> None:
    """What happened in a session or a stretch of days, in game-date order, as Markdown, text or JSON."""
    from projections.recap import recap as read_recap
    from projections.recap_text import as_json, markdown, plain
    from projections.span import span_of

    if format_ not in FORMATS:
        raise BadInput(f"--format takes md, text or json, not {format_!r}")
    opts = options(ctx)
    found = query(opts.store(), opts.campaign,
                  lambda c: read_recap(c, span_of(c, session, start, end, required=True, command="a recap")))
    if format_ == "json":
        print_json(as_json(found))
    else:
        typer.echo(markdown(found) if format_ == "md" else plain(found), nl=False)
