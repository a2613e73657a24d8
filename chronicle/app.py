"""`tally serve`: the chronicle as a local, read-only web application."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Optional

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from chronicle import reports
from chronicle.links import ServerLinks
from chronicle.pages import ENV, Chronicle, _whole, log_filters, pin_of
from chronicle.security import Guarded, allowed_hosts, http_protocol
from ledger.errors import NotFound, TallyError
from ledger.store import Store

STATIC = Path(__file__).parent / "static"
# Pages rendered at once, each on a worker thread with a connection of its own (the store's pool
# holds five): the event loop itself only passes requests on, so a slow page holds up no other.
RENDERING = 4


def create_app(store: Store, campaign: Optional[str] = None, *, hosts: Iterable[str]) -> Guarded:
    """The chronicle's routes, answering only the ``hosts`` (chronicle/security.py)."""
    chronicle = Chronicle(store, campaign)
    limiter = anyio.CapacityLimiter(RENDERING)

    def answer(render, params: dict) -> HTMLResponse:
        try:
            pin = pin_of(params)
            links = ServerLinks({"day": params.get("day") if not params.get("date") else None,
                                 "date": params.get("date"), "recorded": params.get("recorded")})
            return HTMLResponse(render(pin, links, params))
        except TallyError as exc:
            status = 404 if isinstance(exc, NotFound) else 400
            return HTMLResponse(ENV.get_template("error.html").render(message=str(exc)), status_code=status)

    def page(render):
        async def endpoint(request: Request) -> HTMLResponse:
            return await anyio.to_thread.run_sync(answer, render, dict(request.query_params), limiter=limiter)
        return endpoint

    def required(params: dict, name: str, what: str) -> str:
        value = (params.get(name) or "").strip()
        if not value:
            raise_bad(f"{what}: add ?{name}=… to the address")
        return value

    routes = [
        Route("/", page(lambda pin, links, p: chronicle.campaign_page(pin, links))),
        Route("/character", page(lambda pin, links, p: chronicle.character_page(
            pin, links, required(p, "name", "which character")))),
        Route("/why", page(lambda pin, links, p: chronicle.why_page(
            pin, links, required(p, "subject", "whose figure"), (p.get("field") or "").strip() or None,
            (p.get("before") or "").strip() or None))),
        Route("/event", page(lambda pin, links, p: chronicle.event_page(
            pin, links, _whole(required(p, "n", "which event"), "n=")))),
        Route("/dice", page(lambda pin, links, p: chronicle.dice_page(pin, links, _whole(p["epoch"], "epoch="))
                            if (p.get("epoch") or "").strip() else chronicle.dice_index(
                                pin, links, _whole(p["before"], "before=") if (p.get("before") or "").strip()
                                else None))),
        Route("/session", page(lambda pin, links, p: chronicle.session_page(
            pin, links, _whole(required(p, "n", "which session"), "n=")))),
        Route("/recap", page(lambda pin, links, p: reports.recap_page(
            chronicle, pin, links, _whole(required(p, "n", "which session"), "n=")))),
        Route("/luck", page(lambda pin, links, p: reports.luck_page(
            chronicle, pin, links, _whole(required(p, "n", "which session"), "n=")))),
        Route("/timeline", page(lambda pin, links, p: chronicle.timeline_page(
            pin, links, _whole(p["last"], "last=") if (p.get("last") or "").strip() else None))),
        Route("/log", page(lambda pin, links, p: chronicle.log_page(pin, links, log_filters(p)))),
        Route("/secrets", page(lambda pin, links, p: chronicle.secrets_page(pin, links))),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    return Guarded(Starlette(routes=routes), hosts)


def raise_bad(message: str) -> None:
    from ledger.errors import BadInput

    raise BadInput(message)


def uvicorn_server(app):
    """The server `tally serve` and the tests run: quiet, and every answer with the headers."""
    import uvicorn

    return uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                         http=http_protocol()))


@contextmanager
def serving_in_thread(store: Store, campaign: Optional[str] = None, start_within: float = 20) -> Iterator[str]:
    """The chronicle served by uvicorn in a thread of this process on a free
    loopback port, for the benchmark and the tests: its address."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn_server(create_app(store, campaign, hosts=allowed_hosts(sock.getsockname()[1])))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_within
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the chronicle server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(10)
