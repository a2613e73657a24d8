"""tally log | verify | void | export | import"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import JSON_OPTION, RULING, print_json, print_table
from ledger.commands.base import load
from ledger.commands.void import void as void_event
from ledger.errors import BadInput
from ledger.events.registry import known_types
from ledger.store import describe
from projections.describe import line


def log(
    ctx: typer.Context,
    stream: Optional[str] = typer.Option(None, help="Only this stream, e.g. epoch:1 or campaign."),
    type_: Optional[list[str]] = typer.Option(None, "--type", help="Only this event type (repeatable)."),
    session: Optional[int] = typer.Option(None, help="Only events logged in this session."),
    since_event: int = typer.Option(0, "--since-event", help="Only events after this position."),
    json: bool = JSON_OPTION,
) -> None:
    """List the campaign's events in the order they were recorded."""
    for name in type_ or []:
        if name not in known_types():
            raise BadInput(f"unknown event type {name!r}: known types are {', '.join(known_types())}")
    opts = options(ctx)
    with opts.store().reading() as tx:
        campaign = load(tx, opts.campaign)
        calendar = campaign.campaign.calendar
        voided = {e.payload["target"]: e.position for e in campaign.envelopes if e.type == "ledger.voided"}
        envelopes = [e for e in campaign.envelopes if e.position > since_event
                     and (stream is None or e.stream == stream)
                     and (not type_ or e.type in type_)
                     and (session is None or e.session == session)]
    if json:
        print_json([e.to_dict() for e in envelopes])
        return
    print_table(
        ["#", "game date", "type", "by", "what"],
        [(e.position, calendar.format(e.game_time), e.type, e.actor,
          line(e) + (f"  [voided by {voided[e.position]}]" if e.position in voided else ""))
         for e in envelopes],
        title=f"{campaign.name}: {len(envelopes)} event(s)",
    )


def verify(ctx: typer.Context, json: bool = JSON_OPTION) -> None:
    """Walk the hash chain of the whole database, and check every snapshot
    against the log; exit 1 at the first break or the first bad snapshot."""
    from ledger.errors import ChainBroken, SnapshotRefuted
    from ledger.verification import verify_database

    store = options(ctx).store()
    try:
        verified = verify_database(store)
    except ChainBroken as broken:
        if json:
            print_json({"ok": False, "position": broken.position, "reason": broken.reason})
        typer.echo(f"tally: {broken}", err=True)
        raise typer.Exit(1)
    except SnapshotRefuted as refuted:
        if json:
            print_json({"ok": False, "chain_intact": True, "snapshot": {
                "campaign": refuted.campaign, "position": refuted.position, "problem": refuted.problem}})
        typer.echo(f"tally: {refuted}", err=True)
        raise typer.Exit(1)
    if json:
        print_json({"ok": True, "events": verified.events, "head": verified.head,
                    "snapshots": verified.snapshots, "stale_snapshots": verified.stale})
        return
    typer.echo(f"chain intact: {verified.events} event(s), head {verified.head}; "
               f"{verified.snapshots} snapshot(s) agree with the log")
    if verified.stale:
        typer.echo(f"tally: note: {verified.stale} snapshot(s) were written for read models of another shape and "
                   "are never used; run tally db snapshot --drop, then tally db snapshot", err=True)


def void(
    ctx: typer.Context,
    event: int = typer.Argument(..., help="The position of the event to withdraw."),
    why: str = typer.Option(..., "--why", help="The ruling: why the event is withdrawn."),
    json: bool = JSON_OPTION,
    ruling: Optional[str] = RULING,
) -> None:
    """Withdraw an event from now on (the event itself stays in the log)."""
    opts = options(ctx)
    voided = void_event(opts.store(), opts.campaign, event, why=why, actor=opts.who(), ruling=ruling)
    if json:
        print_json(voided.to_dict())
    else:
        typer.echo(f"event {event} ({voided.payload['target_type']}) voided at position {voided.position}")


def export(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="The FILE.jsonl to write."),
    force: bool = typer.Option(False, "--force", help="Replace the file if it exists."),
) -> None:
    """Write the whole log, with hashes, as JSON Lines (dice secrets stay behind)."""
    from ledger.transfer import export as run_export

    store = options(ctx).store()
    count = run_export(store, file, force=force)
    typer.echo(f"exported {count} event(s) from {describe(store.url)} to {file}")


def import_(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A FILE.jsonl written by tally export."),
    json: bool = JSON_OPTION,
) -> None:
    """Re-verify an exported log and append what this database lacks."""
    from ledger.transfer import import_file

    result = import_file(options(ctx).store(create=True), file)
    if json:
        print_json(result.__dict__)
        return
    if result.added:
        typer.echo(f"imported {result.added} event(s) from {file} ({result.already} already here)")
    else:
        typer.echo(f"nothing new: all {result.already} event(s) of {file} are already here")
    for missing in result.secrets_missing:
        typer.echo(f"note: {missing} is unrevealed and its secret seed is not in this database; "
                   "derived rolls must continue where it was rolled")
