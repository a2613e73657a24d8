"""tally serve | chronicle: the campaign as web pages, live on loopback or as a static site."""

from __future__ import annotations

import errno
import ipaddress
import re
import socket

import typer

from cli.context import options
from cli.output import JSON_OPTION, print_json
from ledger.errors import BadInput

LOOPBACK_NAMES = {"localhost"}
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_DNS_NAME = re.compile(rf"(?=.{{1,253}}$){_LABEL}(\.{_LABEL})*")


def _loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_name(name: str) -> bool:
    """A DNS name (letters, digits, hyphens, dots) or an IP address, as a Host header would carry it."""
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        return bool(_DNS_NAME.fullmatch(name))


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
    allow_host: list[str] = typer.Option([], "--allow-host", help="Another name the server is reached by "
                                                                  "(repeatable): only its own names are answered."),
) -> None:
    """Show the campaign as read-only web pages on this machine.

    The campaign at any date, sheets and charts, why, sessions, timeline, log, and a dice check that runs
    in the reader's browser. It answers only requests that name it by a loopback name, the address it
    listens on or an --allow-host name (with its port)."""
    from chronicle.app import create_app, uvicorn_server
    from chronicle.security import allowed_hosts
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
    for name in allow_host:
        if not _host_name(name):
            raise BadInput(f"--allow-host {name!r} is not a host name or address: give one like "
                           "gm-laptop.local or 192.168.1.10, without a port")
    store = opts.store()
    with store.reading() as tx:
        name = load(tx, opts.campaign).name  # a wrong --campaign is refused before anything listens
    sock = _bind(host, port)
    shown, bound = f"[{host}]" if ":" in host else host, sock.getsockname()[1]
    typer.echo(f"serving {name} read-only at http://{shown}:{bound}/ (Ctrl-C stops)")
    server = uvicorn_server(create_app(store, name, hosts=allowed_hosts(bound, host, allow_host)))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C is how a read-only server is meant to stop
        pass
    typer.echo("stopped")


def chronicle(
    ctx: typer.Context,
    out: str = typer.Option(..., "--out", help="The folder to write (new or empty)."),
    force: bool = typer.Option(False, "--force", help="Replace a chronicle written there before (only a folder "
                                                      "tally made: it holds .tally-chronicle)."),
    json: bool = JSON_OPTION,
) -> None:
    """Write the campaign's pages as a static site players can keep, with the export and latest checkpoint.

    The site opens from file:// (a USB stick, a file share), and its dice check runs there too. It is
    built beside the folder and put in place whole. Its export holds this campaign's events; other
    campaigns' events are there only as their hashes, so the checkpoint's root still recomputes."""
    from chronicle.site import build

    opts = options(ctx)
    if opts.game_date is not None:
        raise BadInput("`tally chronicle` records nothing: drop --game-date")
    result = build(opts.store(), opts.campaign, out, force=force)
    if json:
        print_json(result)
        return
    withheld = f", {result['withheld']} of other campaigns as hashes only" if result["withheld"] else ""
    typer.echo(f"wrote {result['pages']} page(s) to {result['out']} (open index.html), the export of "
               f"{result['events']} event(s){withheld}" + (" and the latest checkpoint" if result["checkpoint"]
                                                          else "; no checkpoint signed yet"))
