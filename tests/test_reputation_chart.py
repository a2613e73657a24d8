"""The chronicle's Reputation chart plots the running total in game-date
order (issue 28: "The chronicle's Reputation chart plots each change's
value as decided, not the total in game-date order: after −6 on 01-07, +5 on
01-05 and +4 on 01-03 `rep show` says 0 and the chart says "now −6"."), on
the served page and the static site."""

from __future__ import annotations

import re

from ledger.store import Store
from tests.chronicle_support import get, serving


def _three_changes_logged_backwards(tally) -> None:
    tally.ok("campaign", "new", "C", "--rules", "coeac", "--start", "1024-01-01")
    tally.ok("calendar", "advance", "6d")
    tally.ok("rep", "River Guild", "-6", "--why", "burnt the barge", "--new")
    tally.ok("rep", "River Guild", "+5", "--why", "paid the toll", "--game-date", "1024-01-05")
    tally.ok("rep", "River Guild", "+4", "--why", "saved a pilot", "--game-date", "1024-01-03")
    assert tally.ok("rep", "show", "--json").json == {"River Guild": 0}


def _chart(page: str) -> tuple[str, list[str]]:
    """The chart's "now" figure and its dots (date: value), oldest first."""
    found = re.search(r'<figure class="chart" id="chart-rep-0">(.*?)</figure>', page, re.S)
    assert found, "no Reputation chart on the page"
    chart = found.group(1)
    now = re.search(r'now <span class="value">([^<]*)</span>', chart).group(1)
    return now, re.findall(r"<title>([^<]*)</title>", chart)


# 004 l.201: ±6 at most, so +4 then +5 is 6 on the 5th, and −6 brings it to 0 on the 7th.
RUNNING = ["1024-01-03: 4", "1024-01-05: 6", "1024-01-07: 0"]


def test_the_served_chart_shows_the_running_total(tally):
    _three_changes_logged_backwards(tally)
    store = Store(tally.url, create=False)
    try:
        with serving(store) as base:
            status, page = get(base)
    finally:
        store.dispose()
    assert status == 200
    assert _chart(page) == ("0", RUNNING)


def test_the_static_chart_shows_the_running_total(tally, tmp_path):
    _three_changes_logged_backwards(tally)
    tally.ok("chronicle", "--out", str(tmp_path / "site"))
    assert _chart((tmp_path / "site" / "index.html").read_text()) == ("0", RUNNING)
