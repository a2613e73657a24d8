"""tally keys new|show|witness|add-witness, tally checkpoint [cosign|add-cosignatures|list|show], tally proof"""

from __future__ import annotations

import base64
import os
from typing import Optional

import typer

from cli.context import options
from cli.output import JSON_OPTION, print_json, print_table
from commands import checkpoints as commands
from ledger.errors import BadInput, NotFound
from ledger.keys import ENV as KEY_ENV
from ledger.files import check_target, read_regular, refuse_ledger_file, writing
from ledger.engines import resolve_url

KEY_FILE = typer.Option(None, "--key-file", help="The referee's signing key file (default: TALLY_KEY_FILE, else "
                                                 "beside a SQLite ledger, its name plus .key).")

keys_app = typer.Typer(help="Signing keys: the referee's checkpoint key, the players' witness keys.",
                       no_args_is_help=True)
checkpoint_app = typer.Typer(help="Sign a checkpoint now (the log's Merkle tree head, a C2SP signed note); "
                                  "cosign, record cosignatures, list and show checkpoints.",
                             invoke_without_command=True)


def read_text(path: str, what: str) -> str:
    data = read_regular(path, what, 1 << 20)  # never a pipe or a device: they could hold the command up
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"cannot read {what} {path!r}: not UTF-8 text") from None


def _recorded(ctx: typer.Context, *types: str):
    """The campaign's checkpoint events of these types (projections/checkpoints.py)."""
    from projections.reading import resolve_campaign
    from projections import checkpoints

    opts = options(ctx)
    with opts.store().reading() as tx:
        return checkpoints.read(tx, resolve_campaign(tx, opts.campaign), types)


def _write_or_print(ctx: typer.Context, text: str, out: Optional[str], force: bool = False) -> None:
    if out is None:
        typer.echo(text, nl=False)
        return
    with writing(out, force=force, ledger=_url(ctx)) as handle:
        handle.write(text)


def _url(ctx: typer.Context) -> str:
    """The ledger in use, whose own files no --out may name."""
    return resolve_url(options(ctx).db)


@keys_app.command("new")
def keys_new(
    ctx: typer.Context,
    origin: Optional[str] = typer.Option(None, "--origin", help="The log's name on its checkpoints, e.g. "
                                                               "example.org/greyhawk (default: tallystick/CAMPAIGN/ID)."),
    key_file: Optional[str] = KEY_FILE,
    json: bool = JSON_OPTION,
) -> None:
    """Make the referee's checkpoint key: the private key in a file of its own (0600), the public key recorded."""
    opts = options(ctx)
    chosen = key_file or os.environ.get(KEY_ENV)
    if chosen:  # the key's own file, never another of the ledger's
        refuse_ledger_file(chosen, _url(ctx), keys=False)
    event, path, new = commands.new_key(opts.store(), opts.campaign, actor=opts.who(), key_file=key_file,
                                        origin=origin)
    p = event.payload
    if json:
        print_json({"position": event.position, "origin": p["origin"], "vkey": p["vkey"], "key_file": str(path),
                    "new_file": new})
        return
    typer.echo(f"{'made' if new else 'recorded the key already in'} {path} (keep it private; back it up)")
    typer.echo(f"verifier key, for players to keep: {p['vkey']}")


@keys_app.command("show")
def keys_show(ctx: typer.Context, json: bool = JSON_OPTION) -> None:
    """The verifier keys the campaign records: the log's and its witnesses'."""
    from projections.checkpoints import KEYS, WITNESSES

    recorded = _recorded(ctx, KEYS, WITNESSES)
    rows = [("log", e.payload["origin"], e.payload["vkey"], e.position) for e in recorded.log_keys] + \
           [("witness", e.payload["name"], e.payload["vkey"], e.position) for e in recorded.witnesses]
    if json:
        print_json([{"role": r, "name": n, "vkey": v, "position": p} for r, n, v, p in rows])
        return
    if not rows:
        typer.echo("no keys recorded: `tally keys new` makes the referee's checkpoint key")
        return
    print_table(["role", "name", "verifier key", "#"], rows)


@keys_app.command("witness")
def keys_witness(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The witness's key name, no spaces or '+', e.g. ann.example/witness."),
    out: str = typer.Option(..., "--out", help="The file to keep your private witness key in (created 0600)."),
    json: bool = JSON_OPTION,
) -> None:
    """A player's own witness key, written to a file; hand its verifier key to the referee. Needs no ledger."""
    refuse_ledger_file(out, _url(ctx), keys=False)  # a key where keys go, never over one: never another ledger file
    signer = commands.new_witness_key(name, out)
    if json:
        print_json({"name": signer.name, "vkey": signer.verifier.vkey, "key_file": out})
        return
    typer.echo(f"witness key written to {out} (keep it private)")
    typer.echo(f"verifier key, for the referee (`tally keys add-witness`): {signer.verifier.vkey}")


@keys_app.command("add-witness")
def keys_add_witness(
    ctx: typer.Context,
    vkey: str = typer.Argument(..., help="The witness's verifier key, as `tally keys witness` printed it."),
    json: bool = JSON_OPTION,
) -> None:
    """Record a player's witness key, so their cosignatures can be recorded and checked."""
    opts = options(ctx)
    event = commands.add_witness(opts.store(), opts.campaign, actor=opts.who(), vkey=vkey)
    if json:
        print_json({"position": event.position, **event.payload})
        return
    typer.echo(f"witness {event.payload['name']} recorded at position {event.position}")


@checkpoint_app.callback()
def checkpoint(
    ctx: typer.Context,
    key_file: Optional[str] = KEY_FILE,
    out: Optional[str] = typer.Option(None, "--out", help="Also write the checkpoint to this file."),
    json: bool = JSON_OPTION,
) -> None:
    """Sign a checkpoint of every event so far, record it, and print it for the players to keep."""
    if ctx.invoked_subcommand is not None:
        return
    from projections.checkpoints import note_of

    if out is not None:  # before anything is signed: a refusal records nothing
        check_target(out, ledger=_url(ctx), key_file=key_file)
    opts = options(ctx)
    event = commands.sign(opts.store(), opts.campaign, actor=opts.who(), key_file=key_file)
    note = note_of(event)
    if out is not None:
        with writing(out, ledger=_url(ctx), key_file=key_file) as handle:
            handle.write(note)
    if json:
        print_json({"position": event.position, **event.payload, "checkpoint": note})
        return
    typer.echo(note, nl=False)


@checkpoint_app.command("show")
def checkpoint_show(
    ctx: typer.Context,
    event: Optional[int] = typer.Argument(None, help="The checkpoint's event (default: the latest)."),
    out: Optional[str] = typer.Option(None, "--out", help="Write it to this file instead of printing it."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists."),
) -> None:
    """Print a recorded checkpoint, with the cosignatures recorded for it, for a player to keep."""
    from projections import checkpoints

    recorded = _recorded(ctx, checkpoints.SIGNED, checkpoints.COSIGNED)
    chosen = [e for e in recorded.checkpoints if event is None or e.position == event]
    if not chosen:
        raise NotFound(f"no checkpoint recorded at event {event} (see `tally checkpoint list`)" if event is not None
                       else "no checkpoint signed yet: `tally checkpoint` signs one")
    signed = chosen[-1]
    note = checkpoints.with_cosignatures(checkpoints.note_of(signed), [
        c for c in recorded.cosignatures if (c.payload["size"], c.payload["root"]) ==
        (signed.payload["size"], signed.payload["root"])])
    _write_or_print(ctx, note, out, force)


@checkpoint_app.command("list")
def checkpoint_list(ctx: typer.Context, json: bool = JSON_OPTION) -> None:
    """The campaign's checkpoints: their size, root, when and why signed, and who cosigned them."""
    from projections.checkpoints import COSIGNED, SIGNED

    recorded = _recorded(ctx, SIGNED, COSIGNED)
    rows = []
    for e in recorded.checkpoints:
        p = e.payload
        witnesses = sorted({c.payload["witness"] for c in recorded.cosignatures
                            if (c.payload["size"], c.payload["root"]) == (p["size"], p["root"])})
        rows.append({"position": e.position, "size": p["size"], "root": p["root"], "occasion": p["occasion"],
                     "recorded_at": e.recorded_at, "cosigned_by": witnesses})
    if json:
        print_json(rows)
        return
    print_table(["#", "events", "root", "signed", "recorded at", "cosigned by"],
                [(r["position"], r["size"], r["root"], r["occasion"], r["recorded_at"], ", ".join(r["cosigned_by"]))
                 for r in rows], title=f"{len(rows)} checkpoint(s)")


@checkpoint_app.command("cosign")
def checkpoint_cosign(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="The checkpoint to cosign (as `tally checkpoint show` printed it)."),
    key: str = typer.Option(..., "--key", help="Your witness key file (`tally keys witness` made it)."),
    log_key: Optional[str] = typer.Option(None, "--log-key", help="The referee's verifier key as you were given "
                                                                  "it (default: the keys the ledger records)."),
    out: Optional[str] = typer.Option(None, "--out", help="Write the cosigned checkpoint to this file."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists."),
) -> None:
    """A player, as witness: check a checkpoint against the ledger and cosign it (C2SP tlog-cosignature)."""
    opts = options(ctx)
    cosigned = commands.cosign(opts.store(), opts.campaign, text=read_text(file, "the checkpoint"), key_file=key,
                               log_key=log_key, what=file)
    _write_or_print(ctx, cosigned, out, force)


@checkpoint_app.command("add-cosignatures")
def checkpoint_add_cosignatures(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A checkpoint cosigned by the campaign's witnesses."),
    json: bool = JSON_OPTION,
) -> None:
    """Record the cosignatures a checkpoint carries from the campaign's witnesses."""
    opts = options(ctx)
    recorded = commands.record_cosignatures(opts.store(), opts.campaign, actor=opts.who(),
                                            text=read_text(file, "the checkpoint"), what=file)
    if json:
        print_json([{"position": e.position, **e.payload} for e in recorded])
        return
    if not recorded:
        typer.echo(f"nothing new: the cosignatures in {file} are already recorded")
    for e in recorded:
        typer.echo(f"witness {e.payload['witness']} has seen {e.payload['size']} events (position {e.position})")


def proof(
    ctx: typer.Context,
    event: int = typer.Argument(..., help="The event to prove, by its position (e.g. a disputed roll)."),
    against: Optional[str] = typer.Option(None, "--checkpoint", help="A checkpoint you kept, to prove the event "
                                                                     "against (default: the latest recorded)."),
    out: Optional[str] = typer.Option(None, "--out", help="Write the proof to this file (a .tlog-proof)."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists."),
    json: bool = JSON_OPTION,
) -> None:
    """An inclusion proof of an event (C2SP tlog-proof): the event, its audit path and a signed checkpoint."""
    from projections.reading import resolve_campaign
    from ledger.tlog import parse_checkpoint
    from projections.checkpoints import inclusion

    opts = options(ctx)
    kept = parse_checkpoint(read_text(against, "the checkpoint"), against) if against else None
    with opts.store().reading() as tx:
        found = inclusion(tx, resolve_campaign(tx, opts.campaign), event, kept)
    if json:
        print_json({"position": found.position, "index": found.position - 1, "event": found.event,
                    "leaf_hash": found.leaf_hash.hex(), "root": base64.b64encode(found.root).decode(),
                    "proof": [base64.b64encode(h).decode() for h in found.path], "checkpoint": found.checkpoint,
                    "tlog_proof": found.text})
        return
    _write_or_print(ctx, found.text, out, force)
