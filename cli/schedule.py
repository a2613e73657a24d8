"""tally schedule add|list|remove | scheduler run"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import JSON_OPTION, print_json, print_table
from cli.session import _print_events
from commands import schedule as commands
from projections.reading import query

app = typer.Typer(help="Real-time jobs: one in-game day per real day, reminders.", no_args_is_help=True)
runner_app = typer.Typer(help="Run the scheduler.", no_args_is_help=True)


@app.command("add")
def add(ctx: typer.Context, kind: str = typer.Argument(..., help="advance-daily or remind."),
        job: Optional[str] = typer.Option(None, "--id", help="The job's id (default: its kind)."),
        text: Optional[str] = typer.Option(None, "--text", help="What a reminder says."),
        json: bool = JSON_OPTION) -> None:
    """Add a job: advance-daily moves the calendar one day per real day; remind records a daily reminder."""
    opts = options(ctx)
    _print_events(commands.add(opts.store(), opts.campaign, kind, job=job, text=text, actor=opts.who()), json)


@app.command("list")
def list_(ctx: typer.Context, json: bool = JSON_OPTION) -> None:
    """The campaign's jobs, and when the scheduler will next run each."""
    opts = options(ctx)
    live = query(opts.store(), opts.campaign, lambda c: (c.name, commands.jobs(c)))
    name, jobs = live
    stored = {j["id"]: j["next_run_time"] for j in commands.stored_jobs(opts.store())}
    rows = [{"job": job, "kind": spec["kind"], "since": spec["anchor_date"], "text": spec.get("text"),
             "next_run": stored.get(f"{name}/{job}")} for job, spec in jobs.items()]
    if json:
        print_json(rows)
        return
    print_table(["job", "kind", "since", "next run", "text"],
                [(r["job"], r["kind"], r["since"], r["next_run"] or "(not in the job store)", r["text"] or "")
                 for r in rows])


@app.command("remove")
def remove(ctx: typer.Context, job: str = typer.Argument(..., help="The job's id."), json: bool = JSON_OPTION) -> None:
    """Remove a job."""
    opts = options(ctx)
    _print_events(commands.remove(opts.store(), opts.campaign, job, actor=opts.who()), json)


@runner_app.command("run")
def run(ctx: typer.Context, once: bool = typer.Option(
        False, "--once", help="Catch up every job once and exit (for cron, or to test).")) -> None:
    """Run the scheduler in the foreground (Ctrl-C stops it); a restart catches up missed days once."""
    opts = options(ctx)
    store = opts.store()
    if once:
        with store.reading() as tx:
            names = tx.campaigns()
        count = sum(commands.catch_up(store, name) for name in names if not opts.campaign or name == opts.campaign)
        typer.echo(f"caught up: {count} event(s) recorded")
        return
    typer.echo("scheduler running; Ctrl-C to stop")
    try:
        commands.run_forever(store)
    except KeyboardInterrupt:  # the way to stop it: each job's events are recorded whole or not at all
        typer.echo("scheduler stopped")
