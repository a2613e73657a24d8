"""What every answer of `tally serve` carries, and whom it answers.

The headers (a Content-Security-Policy that lets a page load only its own
scripts and styles, no framing, no sniffing, no referrer, no caching) go on
every response: pages, refusals, 404s, static files, this guard's own 400.
The static site carries the same policy in a <meta> tag (less what a meta
tag cannot say: frame-ancestors).

The Host check stops DNS rebinding: a page on evil.example whose name is
made to resolve to 127.0.0.1 can send the referee's browser to the chronicle,
and the browser lets that page read the answer, but it still sends
``Host: evil.example``. So only the names this server is reached by are
answered: the loopback names, the address it is bound to, and the names
given with `--allow-host`, each with the port it listens on; anything else
(or no Host at all) gets a short plain 400."""

from __future__ import annotations

from typing import Iterable

# The policy a static page carries in its <meta> tag; served pages add frame-ancestors.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'none'; "
          "object-src 'none'; base-uri 'none'; form-action 'self'")
HEADERS = {"Content-Security-Policy": POLICY + "; frame-ancestors 'none'", "X-Content-Type-Options": "nosniff",
           "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
           "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Resource-Policy": "same-origin"}
_RAW = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in HEADERS.items()]
_OURS = {k for k, _ in _RAW}
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")


def shown_host(host: str) -> str:
    """An address as a Host header names it: an IPv6 address in brackets, names in lower case."""
    host = host.strip().lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def allowed_hosts(port: int, bound: str = "127.0.0.1", names: Iterable[str] = ()) -> frozenset[str]:
    """The Host values answered: each name with the port, and bare when the port is HTTP's own."""
    hosts = {shown_host(h) for h in (*LOOPBACK, bound, *names)}
    return frozenset({f"{h}:{port}" for h in hosts} | (hosts if port == 80 else set()))


class Guarded:
    """An ASGI application answering only the allowed Host values, every answer with HEADERS."""

    def __init__(self, app, hosts: Iterable[str]) -> None:
        self.app, self.hosts = app, frozenset(hosts)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _OURS]
                message = {**message, "headers": kept + _RAW}
            await send(message)

        given = [v for k, v in scope.get("headers", []) if k.lower() == b"host"]
        host = given[0].decode("latin-1").lower() if len(given) == 1 else None
        if host not in self.hosts:
            body = (b"400 Bad Request: this chronicle answers only at the address tally serve printed "
                    b"(the Host header names another)\n")
            await with_headers({"type": "http.response.start", "status": 400,
                                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                            (b"content-length", str(len(body)).encode())]})
            await with_headers({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, with_headers)


def http_protocol():
    """uvicorn's HTTP/1.1 protocol (h11), its own refusals of requests it cannot parse
    (no Host, a broken request line) carrying HEADERS too: they never reach Guarded."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        def send_400_response(self, msg: str) -> None:
            send = self.conn.send

            def with_headers(event):
                if isinstance(event, h11.Response):
                    kept = [(k, v) for k, v in event.headers if k.lower() not in _OURS]
                    event = h11.Response(status_code=event.status_code, headers=kept + _RAW, reason=event.reason)
                return send(event)

            self.conn.send = with_headers
            try:
                super().send_400_response(msg)
            finally:
                self.conn.send = send

    return Protocol
