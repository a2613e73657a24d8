"""tally bench generate|run"""

from __future__ import annotations

from typing import Optional

import typer

from cli.output import JSON_OPTION, print_json, print_pairs
from ledger.errors import BadInput

app = typer.Typer(help="Benchmarks: a synthetic campaign, and the figures that matter at the table.",
                  no_args_is_help=True)


@app.command("generate")
def generate(ctx: typer.Context,
             events: int = typer.Option(..., "--events", help="About how many events."),
             out: str = typer.Option(..., "--out", help="The FILE.jsonl to write (import it with tally import)."),
             players: int = typer.Option(40, "--players", help="Players at the open table."),
             years: int = typer.Option(3, "--years", help="In-game years the sessions span."),
             seed: int = typer.Option(1, "--seed", help="Same seed, same campaign."),
             force: bool = typer.Option(False, "--force", help="Replace the file if it exists.")) -> None:
    """Write a realistic, valid, hash-chained campaign, deterministic for its seed."""
    from ledger.files import writing
    from bench.generator import generate as write

    if events < 100 or players < 3:
        raise BadInput("generate at least 100 events for at least 3 players")
    from cli.context import options
    from ledger.engines import resolve_url

    with writing(out, force=force, ledger=resolve_url(options(ctx).db)) as handle:
        written = write(handle, events=events, players=players, years=years, seed=seed)
    typer.echo(f"wrote {written} events to {out}")


@app.command("run")
def run(events: int = typer.Option(20_000, "--events", help="Size of the generated campaign."),
        backend: str = typer.Option("sqlite", "--backend",
                                    help="sqlite (a file), or postgresql (a throwaway server, or --bench-db)."),
        db: Optional[str] = typer.Option(None, "--bench-db", help="An empty PostgreSQL database to measure in, instead of a throwaway server."),
        peer: bool = typer.Option(True, "--peer/--no-peer",
                                  help="Also run the workload through the eventsourcing library, if installed."),
        json: bool = JSON_OPTION) -> None:
    """Measure import, verify, rebuild, appends, as-of queries, CLI start and
    concurrent writers on one generated campaign; print each figure beside its target."""
    from bench.benchmark import run as measure

    if events < 1000:
        raise BadInput("--events: benchmark at least 1000 events")
    if backend not in ("sqlite", "postgresql"):
        raise BadInput(f"--backend must be sqlite or postgresql, not {backend!r}")
    if db is not None and not db.startswith("postgresql"):
        raise BadInput("--bench-db takes a PostgreSQL URL (postgresql+psycopg://user@host/db) of an empty database")
    figures = measure(events, backend="postgresql" if db else backend, url=db, peer=peer)
    if json:
        print_json(figures)
        return
    targets = figures.pop("targets")
    peer_figures = figures.pop("eventsourcing", None)
    rows = []
    for name, value in figures.items():
        goal = targets.get(name)
        mark = "" if goal is None else f"  (target {goal['target']:,}: {'met' if goal['met'] else 'MISSED'})"
        rows.append((name.replace("_", " "), f"{value:,}{mark}" if isinstance(value, (int, float))
                     and not isinstance(value, bool) else value))
    if peer_figures:
        for side, values in peer_figures.items():
            if isinstance(values, dict):
                rows += [(f"{side} {k.replace('_', ' ')}", f"{v:,}") for k, v in values.items()]
    print_pairs(rows)
