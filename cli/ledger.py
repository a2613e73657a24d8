"""tally log | verify | void | export | import"""

from __future__ import annotations

import base64
from typing import Optional

import typer

from cli.context import options
from cli.output import JSON_OPTION, RULING, print_json, print_table
from projections.reading import load, query
from commands.void import void as void_event
from ledger.errors import BadInput
from ledger.events.registry import known_types
from ledger.engines import describe
from projections.consequences import consequences
from projections.describe import line
from projections.sealed import pick_note


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
        sealed = campaign.world.sealed  # a roll on a sealed table shows its line once the table is revealed
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
          line(e) + (pick_note(e.payload, sealed) if e.type == "dice.rolled" else "")
          + (f"  [voided by {voided[e.position]}]" if e.position in voided else ""))
         for e in envelopes],
        title=f"{campaign.name}: {len(envelopes)} event(s)",
    )


def verify(
    ctx: typer.Context,
    against: Optional[list[str]] = typer.Option(
        None, "--against", help="A checkpoint you kept (repeatable): prove the log now extends it, "
                                "and name where the histories part if it does not."),
    key: Optional[list[str]] = typer.Option(
        None, "--key", help="The referee's verifier key as you were given it (repeatable); with --against, "
                            "only it is trusted (default: the keys the ledger records)."),
    refold: bool = typer.Option(
        False, "--refold", help="Fold the log under every snapshot again, even those an earlier verify "
                                "folded and gave a receipt (by default only snapshots written since are folded)."),
    json: bool = JSON_OPTION,
) -> None:
    """Walk the hash chain of the whole database, recompute its Merkle tree,
    check every recorded checkpoint and every snapshot against the log, and
    hold the log against checkpoints you kept; exit 1 at the first problem."""
    from cli.checkpoints import read_text
    from ledger.errors import ChainBroken, CheckpointRefuted, SnapshotRefuted, TreeBroken
    from ledger.notes import parse_vkey
    from ledger.tlog import parse_checkpoint
    from projections.verification import check_kept, verify_database

    kept = [(path, parse_checkpoint(read_text(path, "the checkpoint"), path)) for path in against or []]
    keys = [parse_vkey(k, "--key") for k in key or []]
    store = options(ctx).store()
    try:
        verified = verify_database(store, receipts=True, refold=refold)
    except (ChainBroken, TreeBroken, CheckpointRefuted, SnapshotRefuted) as failed:
        if json:
            print_json({"ok": False, **_failure(failed)})
        typer.echo(f"tally: {failed}", err=True)
        raise typer.Exit(1)
    revealed, secrets_wrong = _revealed_secrets(store)
    if secrets_wrong:
        if json:
            print_json({"ok": False, "chain_intact": True, "secrets": secrets_wrong})
        more = f" (and {len(secrets_wrong) - 1} more)" if len(secrets_wrong) > 1 else ""
        typer.echo(f"tally: {secrets_wrong[0]}{more}", err=True)
        raise typer.Exit(1)
    report = {"ok": True, "events": verified.events, "head": verified.head,
              "root": base64.b64encode(verified.root).decode(), "checkpoints": verified.checkpoints,
              "witnesses": list(verified.witnesses), "snapshots": verified.snapshots,
              "stale_snapshots": verified.stale, "unsigned_snapshots": verified.unsigned,
              "snapshots_by_receipt": verified.receipted,
              "snapshot_macs_checked": not verified.unkeyed, "revealed_secrets": revealed}
    lines = [f"chain intact: {verified.events} event(s), head {verified.head}; "
             f"{verified.snapshots} snapshot(s) agree with the log"
             + (f" ({verified.receipted} folded by an earlier verify, their rows unchanged since)"
                if verified.receipted else ""),
             f"Merkle tree of {verified.events} event(s) matches them, root {report['root']}; "
             f"{verified.checkpoints} recorded checkpoint(s) hold"]
    lines += [f"{revealed} revealed secret(s) hash to their commitments"] if revealed else []
    lines += [f"witness {w['witness']} ({w['campaign']}) has seen {w['size']} events" for w in verified.witnesses]
    parting = None
    if kept:
        results, parting = check_kept(store, kept, keys or None)
        report["against"] = [_kept(r) for r in results]
        lines += [f"{r.source}: its {r.size} events are the log's first, and the {r.head} now extend them "
                  f"(consistency proof of {len(r.proof)} hashes)"
                  + (f"; cosigned by {', '.join(n for n, _ in r.witnesses)}" if r.witnesses else "")
                  for r in results if r.consistent]
        if parting is not None:
            report.update(ok=False, parting={"after": parting.after, "by": parting.by})
    if json:
        print_json(report)
    else:
        typer.echo("\n".join(lines))
    if verified.stale:
        typer.echo(f"tally: note: {verified.stale} snapshot(s) were written for read models of another shape and "
                   "are never used; tally db snapshot takes them again", err=True)
    if verified.unsigned:
        typer.echo(f"tally: note: {verified.unsigned} snapshot(s) carry no MAC (an older tally wrote them) and are "
                   "never used, though they agree with the log; tally db snapshot replaces them", err=True)
    if verified.unkeyed and verified.snapshots:
        typer.echo(f"tally: note: the snapshots' MACs were not checked ({verified.unkeyed}): only that they agree "
                   "with the log", err=True)
    if parting is not None:
        first = next(r for r in results if not r.consistent and r.size == min(
            x.size for x in results if not x.consistent))
        where = (f"after event {parting.after} (where a kept checkpoint still agrees) and at or before event "
                 f"{parting.by}" if parting.after else f"at or before event {parting.by}")
        double = ""
        if first.double and first.same_key:
            double = (f"; the ledger records another checkpoint of {first.size} events at event {first.double}, "
                      f"signed by the same key ({first.key_name}): that key signed two histories")
        elif first.double:
            double = (f"; the ledger records another checkpoint of {first.size} events at event {first.double}, "
                      f"signed by key {first.double_key}, not by {first.key_name}, the key that signed "
                      f"{first.source}: the keys differ")
        typer.echo(f"tally: the log is not an extension of {first.source}: {first.problem}; the histories part "
                   f"{where}{double}", err=True)
        raise typer.Exit(1)


def _revealed_secrets(store) -> tuple[int, list[str]]:
    """The revealed secrets checked against their commitments (projections/sealed.py)."""
    from projections.sealed import revealed_problems

    with store.reading() as tx:
        return revealed_problems(tx)


def _failure(failed) -> dict:
    from ledger.errors import ChainBroken, SnapshotRefuted, TreeBroken

    if isinstance(failed, ChainBroken):
        return {"position": failed.position, "reason": failed.reason}
    if isinstance(failed, TreeBroken):
        return {"chain_intact": True, "tree": {"level": failed.level, "index": failed.index, "problem": failed.problem}}
    if isinstance(failed, SnapshotRefuted):
        return {"chain_intact": True, "snapshot": {"campaign": failed.campaign, "position": failed.position,
                                                   "problem": failed.problem}}
    return {"chain_intact": True, "checkpoint": str(failed)}


def _kept(r) -> dict:
    return {"file": r.source, "origin": r.origin, "size": r.size, "root": base64.b64encode(r.root).decode(),
            "key": r.key, "consistent": r.consistent, "head": r.head,
            "head_root": base64.b64encode(r.head_root).decode(),
            "consistency_proof": [base64.b64encode(h).decode() for h in r.proof],
            "witnesses": [{"name": n, "timestamp": t} for n, t in r.witnesses],
            "problem": r.problem or None, "double_signed_at_event": r.double,
            "double_signed_by": r.double_key, "double_signed_by_the_same_key": r.same_key}


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
    standing = query(opts.store(), opts.campaign, lambda c: consequences(c.events(after=event), event))
    if json:
        print_json({**voided.to_dict(), "still_standing": [e.to_dict() for e in standing]})
        return
    typer.echo(f"event {event} ({voided.payload['target_type']}) voided at position {voided.position}")
    if standing:
        typer.echo(f"the void does not undo what followed from event {event}; still standing:")
        for e in standing:
            typer.echo(f"{e.position:>6}  {line(e)}")
        typer.echo(f"void those too if they should go, the latest first: "
                   f"`tally void {standing[-1].position} --why \"…\"`")


def export(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="The FILE.jsonl to write."),
    force: bool = typer.Option(False, "--force", help="Replace the file if it exists."),
) -> None:
    """Write the whole log, with hashes, as JSON Lines (dice secrets stay behind)."""
    from commands.transfer import export as run_export

    store = options(ctx).store()
    count = run_export(store, file, force=force)
    typer.echo(f"exported {count} event(s) from {describe(store.url)} to {file}")


def import_(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A FILE.jsonl written by tally export."),
    json: bool = JSON_OPTION,
) -> None:
    """Re-verify an exported log and append what this database lacks."""
    from commands.transfer import import_file

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
