"""A fuzz of the chronicle's web routes: paths and query strings drawn by
hypothesis, asked of the real server on a small ledger, on SQLite and on
PostgreSQL. Every answer is a page, a redirect, a refusal or a 404 — never a
server error — and every answer carries the security headers."""

from __future__ import annotations

import http.client
from urllib.parse import quote, urlencode, urlsplit

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chronicle.security import HEADERS
from ledger.store import Store
from tests.chronicle_support import build_campaign, serving

ROUTES = ["/", "/character", "/why", "/event", "/dice", "/session", "/timeline", "/log", "/static/dice.js",
          "/static/chronicle.css", "/static/", "/static/../app.py", "/static/%2e%2e/app.py", "/nowhere",
          "//", "/log/", "/character/x", "/static/dice.js/"]
PARAMETERS = ["name", "subject", "field", "n", "epoch", "day", "date", "recorded", "type", "session", "character",
              "q", "before", "limit"]
VALUES = ["Nureddine", "nureddine", "rep:River Guild", "company", "stronghold:x", "cash", "wealth", "wealth.x",
          "1", "0", "-1", "999999999999", "9" * 13, "1e3", " 5 ", "day:0", "day:-5", "day:99999999999",
          "1024-03-05", "1024-02-30", "1023-01-01", "99999-01-01", "2026-11-01T21:30", "2026-13-01",
          "0001-01-01T00:00", "9999-12-31T23:59:59+14:00", "dice.rolled", "<!--<script>", "\x00", "\ud800"]

values = st.one_of(st.sampled_from(VALUES), st.text(max_size=30), st.integers(-10**15, 10**15).map(str))
queries = st.one_of(
    st.dictionaries(st.one_of(st.sampled_from(PARAMETERS), st.text(max_size=6)), values, max_size=4).map(
        lambda d: urlencode({k.encode("utf-8", "surrogatepass"): v.encode("utf-8", "surrogatepass")
                             for k, v in d.items()})),
    # raw query text: broken percent escapes, bytes that are no UTF-8, separators of every kind
    st.text(alphabet="%&=;+?#/0123456789abcdefzAZ.-_~", max_size=40).map(lambda t: quote(t, safe="%&=;+/")))
paths = st.one_of(st.sampled_from(ROUTES),
                  st.text(max_size=30).map(lambda t: "/" + quote(t.encode("utf-8", "surrogatepass"), safe="/%.")))


@pytest.fixture
def site(tally):
    build_campaign(tally)
    store = Store(tally.url, create=False)
    with serving(store) as base:
        yield base
    store.dispose()


def ask(base: str, target: str) -> http.client.HTTPResponse:
    where = urlsplit(base)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        response.read()
        return response
    finally:
        connection.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=paths, query=queries)
@example(path="/", query="day=999999999999")
@example(path="/", query="date=day:99999999999")
@example(path="/", query="recorded=9999-12-31T23:59:59%2B14:00")
@example(path="/event", query="n=999999999999")
@example(path="/why", query="subject=Nureddine&field=wealth.x")
@example(path="/log", query="before=999999999999&limit=500")
@example(path="/character", query="name=%ff%fe")
@example(path="/%ff", query="")
def test_no_route_fails_and_every_answer_is_guarded(site, path, query):
    response = ask(site, path + ("?" + query if query else ""))
    assert response.status in (200, 301, 302, 303, 307, 308, 400, 404), (path, query, response.status)
    for name, value in HEADERS.items():
        assert response.getheader(name) == value, (path, query, name)
