"""tally bench generate|run"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import guarded
from cli.output import JSON_OPTION, print_json, print_pairs
from ledger.errors import BadInput

app = typer.Typer(help="Benchmarks: a synthetic campaign, and the figures that matter at the table.",
                  no_args_is_help=True)


@app.command("generate")
@guarded
def generate(events: int = typer.Option(..., "--events", help="About how many events."),
             out: str = typer.Option(..., "--out", help="The FILE.jsonl to write (import it with tally import)."),
             players: int = typer.Option(40, "--players", help="Players at the open table."),
             years: int = typer.Option(3, "--years", help="In-game years the sessions span."),
             seed: int = typer.Option(1, "--seed", help="Same seed, same campaign.")) -> None:
    """Write a realistic, valid, hash-chained campaign, deterministic for its seed."""
    from ledger.generator import generate as write

    if events < 100 or players < 3:
        raise BadInput("generate at least 100 events for at least 3 players")
    try:
        with open(out, "w", encoding="utf-8") as handle:
            written = write(handle, events=events, players=players, years=years, seed=seed)
    except OSError as exc:
        raise BadInput(f"cannot write {out}: {exc.strerror}") from None
    typer.echo(f"wrote {written} events to {out}")


@app.command("run")
@guarded
def run(events: int = typer.Option(20_000, "--events", help="Size of the generated campaign."),
        db: Optional[str] = typer.Option(None, "--bench-db", help="A PostgreSQL URL to measure instead of SQLite."),
        json: bool = JSON_OPTION) -> None:
    """Measure import, verify, rebuild, appends, as-of queries and CLI start on one campaign."""
    from ledger.benchmark import run as measure

    figures = measure(events, db)
    if json:
        print_json(figures)
        return
    print_pairs([(k.replace("_", " "), v) for k, v in figures.items() if k != "targets"])
