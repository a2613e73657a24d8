"""tally secret seal|reveal|list|verify: sealed secrets (docs/secrets.md)."""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import (AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, GAME_DATE, JSON_OPTION, RULING, print_json,
                        print_table)
from commands import sealed as commands
from ledger import sealed as rules
from ledger.errors import BadInput
from projections.reading import query
from projections.sealed import secrets_view
from projections.timeline import Pin

app = typer.Typer(help="Sealed secrets: a text (a random table, a room key) committed to now, revealed later, "
                       "checked by anyone.", no_args_is_help=True)

LABEL = typer.Argument(..., help="The secret's label (a name, up to 200 characters), e.g. \"Wandering monsters\".")


@app.command("seal")
def seal(
    ctx: typer.Context,
    label: str = LABEL,
    text: Optional[str] = typer.Argument(None, help="The secret itself (or --file); lines and tabs are kept."),
    file: Optional[str] = typer.Option(None, "--file", help="Seal a whole file's text (UTF-8, up to 256 KiB): a "
                                                            "random table, a room key."),
    json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING,
) -> None:
    """Seal a secret: record its commitment now; its text and a random salt wait in the secrets store until
    `tally secret reveal`."""
    if (text is None) == (file is None):
        raise BadInput("give the secret's text or --file FILE (one of them): "
                       "tally secret seal LABEL \"TEXT\" or tally secret seal LABEL --file FILE")
    if file is not None:
        from ledger.files import read_regular

        text = rules.file_text(read_regular(file, "the secret's file", rules.FILE_LIMIT), file)
    opts = options(ctx)
    event = commands.seal(opts.store(), opts.campaign, label, text, actor=opts.who(), **opts.late(game_date, ruling))
    p = event.payload
    if json:
        print_json({"position": event.position, "label": p["label"], "commitment": p["commitment"]})
        return
    typer.echo(f"sealed {p['label']!r} (event {event.position}): commitment {p['commitment']}")
    typer.echo("its text and salt stay in the secrets store until `tally secret reveal`; then SHA-256 of the "
               "canonical JSON of its label, salt and text must give this commitment (docs/secrets.md)")


@app.command("reveal")
def reveal(ctx: typer.Context, label: str = LABEL, json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Reveal a sealed secret: record its text and salt, which anyone can hash to its commitment."""
    opts = options(ctx)
    event = commands.reveal(opts.store(), opts.campaign, label, actor=opts.who(), **opts.late(game_date, ruling))
    p = event.payload
    if json:
        print_json({"position": event.position, "label": p["label"], "commitment": p["commitment"],
                    "salt": p["salt"], "text": p["text"]})
        return
    typer.echo(f"revealed {p['label']!r} (event {event.position}): commitment {p['commitment']}")
    typer.echo(f"salt {p['salt']}")
    typer.echo("text:")
    typer.echo(p["text"])


@app.command("list")
def list_(ctx: typer.Context, at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
          as_recorded: Optional[str] = AS_RECORDED, at_session: Optional[str] = AT_SESSION,
          json: bool = JSON_OPTION) -> None:
    """The campaign's secrets, sealed and revealed, with their commitments and dates."""
    opts = options(ctx)
    found = query(opts.store(), opts.campaign, secrets_view, point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(found)
        return
    print_table(["label", "commitment", "sealed", "revealed"],
                [(s["label"], s["commitment"], f"{s['sealed_on']} (#{s['sealed_event']}, {s['sealed_recorded_at']})",
                  f"{s['revealed_on']} (#{s['revealed_event']}, {s['revealed_recorded_at']})" if s["revealed"]
                  else "not yet") for s in found],
                title=f"{len(found)} secret(s)")


@app.command("verify")
def verify(ctx: typer.Context, label: str = LABEL, json: bool = JSON_OPTION) -> None:
    """Recompute a secret's commitment from its revealed text and salt (or, while sealed, from what the
    secrets store keeps); exit 1 if it does not hold. Lists the rolls made on it."""
    opts = options(ctx)
    found = commands.verify(opts.store(), opts.campaign, label)
    if json:
        print_json(found)
    else:
        if found["ok"] and found["revealed"]:
            typer.echo(f"{found['label']!r}: its revealed text and salt hash to its commitment "
                       f"{found['commitment']} (event {found['revealed_event']})")
        elif found["ok"]:
            typer.echo(f"{found['label']!r} is sealed (event {found['sealed_event']}): the text kept for its reveal "
                       f"still makes its commitment {found['commitment']}")
        if found["rolls"]:
            print_table(["#", "game date", "roll", "total", "line"],
                        [(r["position"], r["game_date"], r["expression"], r["total"],
                          f"{r['line']}: {r['text']}" if r["line"] is not None else
                          "sealed" if not found["revealed"] else "no single line")
                         for r in found["rolls"]],
                        title=f"{len(found['rolls'])} roll(s) on {found['label']!r}")
    if not found["ok"]:
        typer.echo(f"tally: {found['problem']}", err=True)
        raise typer.Exit(1)
