"""Printing: a readable table by default, JSON for machines (--json)."""

from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

import typer

JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of a table.")
AT_EVENT = typer.Option(None, "--at-event", help="As the ledger stood after event N.")
AS_OF = typer.Option(None, "--as-of", help="As of an in-game date (facts logged late land on their day).")
AS_RECORDED = typer.Option(None, "--as-recorded", help="What the ledger said at a real time: ISO 8601, with an "
                                                        "offset (2026-11-01T22:30+01:00) or without (read as UTC).")
AT_SESSION = typer.Option(None, "--at-session", help="As the ledger stood at a session's start or end: N:start, "
                                                     "N:end, or N (its end).")
GAME_DATE = typer.Option(None, "--game-date", help="Log the facts on this earlier in-game date (a fact logged late).")
RULING = typer.Option(None, "--ruling", help="The referee's ruling that accepts a late fact or a void although it "
                                             "breaks a later event (recorded with it).")


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def print_table(columns: Sequence[str], rows: Iterable[Sequence[Any]], title: str | None = None) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, show_lines=False, header_style="bold")
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        # Text, not markup: a cell like "[voided by 4]" is data, not a style tag.
        table.add_row(*(Text("" if v is None else str(v)) for v in row))
    Console().print(table)


def print_pairs(pairs: Iterable[tuple[str, Any]]) -> None:
    pairs = list(pairs)
    width = max((len(k) for k, _ in pairs), default=0)
    for key, value in pairs:
        typer.echo(f"{key.ljust(width)}  {value}")


SHORT_FRACTION = 21  # an exact chance longer than this is read as a percentage; --json keeps the fraction


def percent(chance: float) -> str:
    """A chance as a percentage, with enough places that a small one does not read as 0."""
    if chance in (0, 1):
        return f"{chance * 100:.0f}%"
    shown = f"{chance * 100:.2f}%"
    return shown if shown not in ("0.00%", "100.00%") else f"{chance * 100:.3g}%"


def chance_text(chance: float, exact: str) -> str:
    """``74.07% (exactly 20/27)``; a fraction of many digits (a big pool's) only under --json."""
    if len(exact) <= SHORT_FRACTION:
        return f"{percent(chance)} (exactly {exact})"
    return f"{percent(chance)} (the exact fraction has {len(exact) - 1} digits: --json)"
