"""tally db upgrade|status|snapshot|tree|grant-reader|grant-writer"""

from __future__ import annotations

import typer

from cli.context import options
from cli.output import JSON_OPTION, print_json, print_pairs
from ledger.engines import describe, resolve_url
from ledger.schema import SCHEMA_REVISION
from ledger.store import Store

app = typer.Typer(help="The database itself: migrate it, see its state.", no_args_is_help=True)


@app.command("upgrade")
def upgrade(ctx: typer.Context) -> None:
    """Migrate the database to this tally's schema (creates it if new)."""
    url = resolve_url(options(ctx).db)
    store = Store(url, create=True, check_schema=False)
    store.refuse_foreign()  # never install tally's tables into another application's database
    before = store.schema_revision()
    store.upgrade()
    store.dispose()
    typer.echo(f"{describe(url)}: schema {before or 'none'} -> {SCHEMA_REVISION}")


@app.command("status")
def status(ctx: typer.Context, json: bool = JSON_OPTION) -> None:
    """Where the ledger is, its schema revision, size and head."""
    store = options(ctx).store()
    with store.reading() as tx:
        count, head, recorded = tx.head()
        campaigns = tx.campaigns()
    info = {"database": describe(store.url), "schema": store.schema_revision(), "events": count,
            "head": head, "last_recorded_at": recorded, "campaigns": campaigns,
            "secrets": store.secrets.where}
    if json:
        print_json(info)
    else:
        print_pairs([(k, ", ".join(v) if isinstance(v, list) else v) for k, v in info.items()])


@app.command("tree")
def tree_(
    ctx: typer.Context,
    rebuild: bool = typer.Option(False, "--rebuild", help="Recompute it from the events' hashes (derived data: "
                                                         "nothing is lost)."),
    json: bool = JSON_OPTION,
) -> None:
    """The Merkle tree over the whole log (RFC 6962): its size and root, or rebuilt from the events."""
    import base64

    from ledger import tree

    store = options(ctx).store()
    with (store.transaction() if rebuild else store.reading()) as tx:
        size = tree.build(tx.conn) if rebuild else tx.head()[0]
        root = base64.b64encode(tree.root(tx.conn, size)).decode()
    if json:
        print_json({"size": size, "root": root, "rebuilt": rebuild})
    else:
        typer.echo(f"{'rebuilt: ' if rebuild else ''}the tree of {size} event(s), root {root}")


@app.command("snapshot")
def snapshot(ctx: typer.Context,
             drop: bool = typer.Option(False, "--drop", help="Delete every snapshot (derived data: nothing is lost).")) -> None:
    """Snapshot every campaign's folded state (every 1,000 events through its history, and now) and
    bring its kept histories up to date, or drop them all."""
    from commands.derived import build_all
    from ledger import kept_rows

    store = options(ctx).store()
    if drop:
        with store.transaction() as tx:
            typer.echo(f"dropped {tx.drop_snapshots()} snapshot(s) and {kept_rows.drop_all(tx)} kept step(s)")
        return
    for name, taken in build_all(store).items():
        if taken:
            typer.echo(f"{name}: {len(taken)} snapshot(s), the last at event {taken[-1]}")
        else:
            typer.echo(f"{name}: already snapshotted at its last event")


@app.command("grant-reader")
def grant_reader(ctx: typer.Context,
                 role: str = typer.Argument(..., help="An existing PostgreSQL role (CREATE ROLE … LOGIN).")) -> None:
    """PostgreSQL: let ROLE read the ledger (log, sheets, audit, verify) but not its dice secrets; it cannot record."""
    from ledger.pgroles import WITHHELD, grant_reader as grant

    store = options(ctx).store()
    tables = grant(store, role)
    typer.echo(f"{role} may read {describe(store.url)}: {', '.join(tables)} "
               f"(not {' or '.join(WITHHELD)}); it cannot record")


@app.command("grant-writer")
def grant_writer(ctx: typer.Context,
                 role: str = typer.Argument(..., help="An existing PostgreSQL role (CREATE ROLE … LOGIN).")) -> None:
    """PostgreSQL: let ROLE (the referee's) record without owning the tables: it cannot change or delete events."""
    from ledger.pgroles import OWNER, grant_writer as grant

    store = options(ctx).store()
    tables = grant(store, role)
    typer.echo(f"{role} may record in {describe(store.url)}: {', '.join(tables)}; the tables stay {OWNER}'s, "
               "so it cannot change or delete an event, nor disable the triggers that refuse it")
