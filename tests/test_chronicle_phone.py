"""The chronicle on a phone (issue 27): every page readable at 390 px wide — a
wide table scrolls inside its own box, nothing runs off the page's right
edge — served and static, in Chromium (Playwright driving Debian's, never a
downloaded browser); and the campaign page says what "today" and "the
world's date" are, or leaves the world's date out where it adds nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.chronicle_support import browser, serving

FIXTURES = Path(__file__).parent.parent / "fixtures"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def open_table(tmp_path_factory):
    from tests.conftest import Tally

    url = f"sqlite:///{tmp_path_factory.mktemp('phone') / 'tally.db'}"
    t = Tally(url)
    t.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    return t


def too_wide(page) -> int:
    """How far the page reaches past the viewport's right edge, in CSS pixels (0: it fits)."""
    return max(0, page.evaluate("document.documentElement.scrollWidth") - PHONE["width"])


def test_every_kind_of_served_page_fits_a_phone(open_table):
    from ledger.store import Store

    store = Store(open_table.url, create=False)
    pages = ["", "character?name=Nureddine", "why?subject=Nureddine&field=cash", "event?n=40", "dice",
             "dice?epoch=3", "session?n=3", "timeline", "log", "log?type=wealth.attempted"]
    with serving(store) as base, browser() as launched:
        page = launched.new_page(viewport=PHONE)
        for address in pages:
            page.goto(base + address)
            assert page.locator("footer").is_visible(), address
            assert too_wide(page) == 0, f"/{address} runs {too_wide(page)} px off a 390 px screen"
        page.goto(base)  # the stables' table scrolls inside its own box
        box = page.locator("#stables").bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"] + 1
    store.dispose()


def test_every_static_page_fits_a_phone(open_table, tmp_path):
    out = tmp_path / "site"
    open_table.ok("chronicle", "--out", str(out))
    names = sorted(p.name for p in out.glob("*.html"))
    kinds = {}
    for name in names:  # one page of each kind
        kinds.setdefault(re.sub(r"[-.].*", "", name), name)
    assert {"index", "day", "character", "why", "dice", "session", "timeline", "log", "days"} <= set(kinds)
    with browser() as launched:
        page = launched.new_page(viewport=PHONE)
        for name in kinds.values():
            page.goto((out / name).as_uri())
            assert too_wide(page) == 0, f"{name} runs {too_wide(page)} px off a 390 px screen"


def test_the_campaign_page_leaves_out_a_worlds_date_that_never_moved(open_table, tmp_path):
    from ledger.store import Store

    # The open table never advanced the shared calendar: "the world's date" would be the start,
    # and every character "120 days ahead of the world" (issue 27): neither is shown.
    store = Store(open_table.url, create=False)
    with serving(store) as base, browser() as launched:
        page = launched.new_page(viewport=PHONE)
        page.goto(base)
        text = page.inner_text("main")
        assert "latest in-game day the ledger has reached" in text
        assert "the world's date" not in text and "ahead of the world" not in text
    store.dispose()


def test_the_campaign_page_explains_a_worlds_date_that_moved(tally_sqlite):
    from ledger.store import Store

    t = tally_sqlite
    t.ok("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "4")
    t.ok("calendar", "advance", "3d")
    t.ok("session", "open", "--activate", "Bo", "--game-date", "1024-03-10")
    t.ok("session", "close", "--days", "4", "--haven", "Bo")
    store = Store(t.url, create=False)
    with serving(store) as base, browser() as launched:
        page = launched.new_page(viewport=PHONE)
        page.goto(base)
        assert "moved on by tally calendar advance" in page.inner_text("#world-date")
        assert page.inner_text("#world-date").startswith("1024-03-04")
        assert "ahead of the world" in page.inner_text("main")
    store.dispose()
