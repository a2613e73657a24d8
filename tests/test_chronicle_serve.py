"""`tally serve` as a DNS-rebinding page or a slow page would meet it: it
answers only the names it is reached by, every answer carries the same
security headers, and pages are rendered off the event loop, so one slow
page holds up no other request."""

from __future__ import annotations

import http.client
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

from chronicle.pages import Chronicle
from chronicle.security import HEADERS
from ledger.store import Store
from tests.chronicle_support import build_campaign, serving, tally_serve


@pytest.fixture
def greyhawk(tally):
    build_campaign(tally)
    return tally


@pytest.fixture
def site(greyhawk):
    store = Store(greyhawk.url, create=False)
    with serving(store) as base:
        yield base, greyhawk
    store.dispose()


def request(base: str, path: str, host: str | None = "", method: str = "GET") -> http.client.HTTPResponse:
    """``path`` asked of the server at ``base`` with the Host header given ("" for the right one, None for none)."""
    where = urlsplit(base)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
    connection.putrequest(method, path, skip_host=True)
    if host is not None:
        connection.putheader("Host", host or where.netloc)
    connection.endheaders()
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    return response


def assert_guarded(response) -> None:
    for name, value in HEADERS.items():
        assert response.getheader(name) == value, (name, response.status, response.getheaders())


def test_only_the_servers_own_names_are_answered(site):
    base, _ = site
    port = urlsplit(base).port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LOCALHOST:{port}"):
        assert request(base, "/", host).status == 200, host
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1", f"127.0.0.1:{port + 1}",
                 f"localhost.evil.example:{port}", f"127.0.0.1:{port}.evil.example", "", None):
        if host == "":
            continue
        for path in ("/", "/static/chronicle.css", "/character?name=Nureddine", "/nowhere"):
            refused = request(base, path, host)
            assert refused.status == 400, (host, path)
            assert refused.getheader("Content-Type").startswith("text/plain")
            text = refused.body.decode()
            assert "\n" not in text.strip() and "Nureddine" not in text
            if host is not None:  # (with none at all, HTTP/1.1 itself refuses the request)
                assert "answers only at the address tally serve printed" in text
            assert_guarded(refused)


def raw(base: str, data: bytes) -> bytes:
    """What the server answers to these bytes, sent as they are."""
    import socket

    where = urlsplit(base)
    with socket.create_connection((where.hostname, where.port), timeout=60) as connection:
        connection.sendall(data)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def test_a_request_without_a_host_is_refused_with_the_headers(site):
    base, _ = site
    for data in (b"GET / HTTP/1.0\r\n\r\n", b"GET / HTTP/1.1\r\n\r\n", b"GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n"):
        answer = raw(base, data)
        head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
        assert head.startswith("http/1.1 400"), answer
        for name, value in HEADERS.items():
            assert f"{name.lower()}: {value.lower()}" in head, (data, name)
        assert b"Nureddine" not in answer


def test_every_answer_carries_the_security_headers(site):
    base, _ = site
    answers = {
        "a page": request(base, "/character?name=Nureddine"),
        "a refusal": request(base, "/?day=x"),
        "a page not found": request(base, "/character?name=Nobody"),
        "an address not found": request(base, "/no/such/page"),
        "a static file": request(base, "/static/dice.js"),
        "a static file not found": request(base, "/static/none.js"),
        "a HEAD": request(base, "/timeline", method="HEAD"),
    }
    assert [a.status for a in answers.values()] == [200, 400, 404, 404, 200, 404, 200]
    for what, answer in answers.items():
        assert_guarded(answer)


def test_a_slow_page_holds_up_no_other_request(site, monkeypatch):
    """The campaign page is made to wait until the test lets it go: meanwhile the stylesheet
    (and another page) are answered. Rendered on the event loop, the slow page held up both
    until it gave up waiting, and answered first."""
    base, _ = site
    started, release, order = threading.Event(), threading.Event(), []
    render = Chronicle.campaign_page

    def slow(self, *args, **kwargs):
        started.set()
        release.wait(30)
        return render(self, *args, **kwargs)

    monkeypatch.setattr(Chronicle, "campaign_page", slow)
    with ThreadPoolExecutor(1) as pool:
        slow_page = pool.submit(lambda: (request(base, "/"), order.append("slow page")))
        assert started.wait(30), "the slow page never started"
        stylesheet = request(base, "/static/chronicle.css")
        order.append("stylesheet")
        timeline = request(base, "/timeline")
        order.append("another page")
        release.set()
        answered, _ = slow_page.result(60)
    assert order == ["stylesheet", "another page", "slow page"]
    assert stylesheet.status == 200 and b"font" in stylesheet.body
    assert timeline.status == 200 and answered.status == 200 and b"Nureddine" in answered.body


def test_pages_rendered_at_once_on_many_threads_agree(site):
    """Twenty pages asked at once, on the store's connections from several threads: each the same as asked alone."""
    base, _ = site
    paths = ["/", "/character?name=Nureddine", "/why?subject=Nureddine&field=cash", "/dice?epoch=1",
             "/session?n=1", "/timeline", "/log", "/event?n=3", "/?date=1024-03-05", "/character?name=Nobody"]
    alone = {path: request(base, path).body for path in paths}
    with ThreadPoolExecutor(10) as pool:
        together = list(pool.map(lambda path: (path, request(base, path)), paths * 2))
    for path, response in together:
        assert response.body == alone[path], path


def test_serve_answers_a_name_given_with_allow_host(tally_sqlite):
    build_campaign(tally_sqlite)
    with tally_serve(tally_sqlite.url, "--allow-host", "gm-laptop.example") as (base, _):
        port = urlsplit(base).port
        assert request(base, "/", f"gm-laptop.example:{port}").status == 200
        assert request(base, "/", f"GM-Laptop.example:{port}").status == 200
        assert request(base, "/", f"other.example:{port}").status == 400
        assert request(base, "/", f"localhost:{port}").status == 200


@pytest.mark.parametrize("name", ["gm laptop", "evil.example:80", "http://gm.example", "-gm", "a" * 300])
def test_serve_refuses_an_allowed_host_that_is_no_host_name(tally_sqlite, name):
    build_campaign(tally_sqlite)
    refused = tally_sqlite.refused("serve", "--allow-host", name)
    assert "is not a host name or address" in refused.stderr
