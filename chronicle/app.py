"""`tally serve`: the chronicle as a local, read-only web application."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from chronicle.links import ServerLinks
from chronicle.pages import ENV, Chronicle, _whole, log_filters, pin_of
from ledger.errors import NotFound, TallyError
from ledger.store import Store

STATIC = Path(__file__).parent / "static"
# No page loads anything from elsewhere, and none may be framed or sniffed.
HEADERS = {"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                                      "img-src 'self' data:; connect-src 'none'; frame-ancestors 'none'",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}


def create_app(store: Store, campaign: Optional[str] = None) -> Starlette:
    chronicle = Chronicle(store, campaign)

    def page(render):
        async def endpoint(request: Request) -> HTMLResponse:
            params = dict(request.query_params)
            try:
                pin = pin_of(params)
                links = ServerLinks({"day": params.get("day") if not params.get("date") else None,
                                     "date": params.get("date"), "recorded": params.get("recorded")})
                return HTMLResponse(render(pin, links, params), headers=HEADERS)
            except TallyError as exc:
                status = 404 if isinstance(exc, NotFound) else 400
                return HTMLResponse(ENV.get_template("error.html").render(message=str(exc)), status_code=status,
                                    headers=HEADERS)
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
        Route("/timeline", page(lambda pin, links, p: chronicle.timeline_page(
            pin, links, _whole(p["last"], "last=") if (p.get("last") or "").strip() else None))),
        Route("/log", page(lambda pin, links, p: chronicle.log_page(pin, links, log_filters(p)))),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)


def raise_bad(message: str) -> None:
    from ledger.errors import BadInput

    raise BadInput(message)


@contextmanager
def serving_in_thread(store: Store, campaign: Optional[str] = None, start_within: float = 20) -> Iterator[str]:
    """The chronicle served by uvicorn in a thread of this process on a free
    loopback port, for the benchmark and the tests: its address."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(store, campaign), log_level="warning", lifespan="off",
                                           access_log=False))
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
