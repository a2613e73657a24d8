"""tally serve | chronicle: the campaign as web pages, live on loopback or as a static site."""

from __future__ import annotations

import errno
import ipaddress
import socket

import typer

from cli.context import options
from cli.output import JSON_OPTION, print_json
from ledger.errors import BadInput

LOOPBACK_NAMES = {"localhost"}


def _loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # connections made once the address is printed wait for the server
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise BadInput(f"port {port} on {host} is in use: choose another with --port (0 picks a free one)") from None
        raise BadInput(f"cannot listen on {host} port {port} ({exc.strerror or exc}): give --host an address "
                       "of this machine") from None
    except (ValueError, TypeError, UnicodeError):
        raise BadInput(f"--host {host!r} is not an address: give one like 127.0.0.1") from None
    return sock


def serve(
    ctx: typer.Context,
    port: int = typer.Option(8018, "--port", help="The port to listen on (0: any free port)."),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on (loopback unless --allow-remote)."),
    allow_remote: bool = typer.Option(False, "--allow-remote", help="Listen on an address others can reach: the "
                                                                  "whole campaign becomes readable to them."),
) -> None:
    """Show the campaign as read-only web pages on this machine.

    The campaign at any date, sheets and charts, why, sessions, timeline, log, and a dice check that runs
    in the reader's browser."""
    from chronicle.app import create_app
    from projections.reading import load

    opts = options(ctx)
    if opts.game_date is not None:
        raise BadInput("`tally serve` records nothing: drop --game-date")
    if not 0 <= port <= 65535:
        raise BadInput(f"--port takes 0 to 65535, not {port}")
    if not host.strip() or not host.isprintable():
        raise BadInput(f"--host {host!r} is not an address: give one like 127.0.0.1")
    if not _loopback(host) and not allow_remote:
        raise BadInput(f"{host} is not a loopback address: anyone who reaches it could read the whole campaign; "
                       "give --allow-remote to mean it, or leave --host at 127.0.0.1")
    store = opts.store()
    with store.reading() as tx:
        name = load(tx, opts.campaign).name  # a wrong --campaign is refused before anything listens
    sock = _bind(host, port)
    import uvicorn

    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"serving {name} read-only at http://{shown}:{sock.getsockname()[1]}/ (Ctrl-C stops)")
    server = uvicorn.Server(uvicorn.Config(create_app(store, name), log_level="warning", access_log=False,
                                           lifespan="off"))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C is how a read-only server is meant to stop
        pass
    typer.echo("stopped")


def chronicle(
    ctx: typer.Context,
    out: str = typer.Option(..., "--out", help="The folder to write (new or empty)."),
    force: bool = typer.Option(False, "--force", help="Write into a folder that is not empty."),
    json: bool = JSON_OPTION,
) -> None:
    """Write the campaign's pages as a static site players can keep, with the export and latest checkpoint.

    The site opens from file:// (a USB stick, a file share), and its dice check runs there too."""
    from chronicle.site import build, check_out

    opts = options(ctx)
    if opts.game_date is not None:
        raise BadInput("`tally chronicle` records nothing: drop --game-date")
    check_out(out, force)
    result = build(opts.store(), opts.campaign, out, force=force)
    if json:
        print_json(result)
        return
    typer.echo(f"wrote {result['pages']} page(s) to {result['out']} (open index.html), the export of "
               f"{result['events']} event(s)" + (" and the latest checkpoint" if result["checkpoint"]
                                                else "; no checkpoint signed yet"))
