"""Hostile text on every page, in a real browser (Playwright driving Debian's
Chromium). A player's client seed, a --why, a name or a calendar's month of
`<!--<script>` once put the browser's tokenizer in its double-escaped state
inside a page's <script type="application/json"> block, which then swallowed
the rest of the page: the dice page's dice.js never loaded, and the
player's own check of the rolls was dead. Here every free-text field the
pages show holds such text, and every page, served and static, is loaded:
no script of the text runs, every page ends with its footer, the text shows
as text, and the dice check still gives its result."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest

from chronicle.links import slug
from ledger.store import Store
from tests.chronicle_support import HOSTILE, browser, build_hostile_campaign, serving

ROUTES = {"/", "/character", "/why", "/event", "/dice", "/session", "/timeline", "/log"}


@pytest.fixture
def hostile(tally_sqlite, tmp_path):
    names = build_hostile_campaign(tally_sqlite, tmp_path)
    return tally_sqlite, names


@pytest.fixture
def chromium():
    with browser() as launched:
        page = launched.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.dialogs = dialogs
        yield page


def assert_whole_and_inert(page, where: str) -> None:
    """No script of the planted text ran, and the page is whole: its footer, the last element, is there."""
    assert page.dialogs == [], f"{where}: a planted script opened a dialog: {page.dialogs}"
    assert page.evaluate("() => window.__pwned === undefined"), f"{where}: a planted script ran"
    assert page.locator("body > footer").count() == 1, f"{where}: the page lost its footer"
    assert page.evaluate("() => document.body.lastElementChild.tagName") == "FOOTER", where
    assert page.locator("svg[onload], img[onerror]").count() == 0, f"{where}: planted markup became elements"


def check_dice(page, where: str) -> None:
    """The dice page's own check runs and passes."""
    page.click("#check-page")
    page.locator('#check-result:not([data-ok=""])').wait_for(timeout=20000)
    result = page.inner_text("#check-result")
    assert result.startswith("PASS (this page's rolls)"), f"{where}: {result}"


def links_of(page) -> list[str]:
    return page.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))")


def test_every_served_page_stays_whole_with_hostile_text(hostile, chromium):
    tally, names = hostile
    store = Store(tally.url, create=False)
    try:
        with serving(store) as base:
            seen, queue, dice_checked = set(), [base], 0
            while queue:
                url = queue.pop()
                if url in seen:
                    continue
                seen.add(url)
                response = chromium.goto(url)
                assert response.status == 200, url
                assert_whole_and_inert(chromium, url)
                path = urlsplit(url)
                if path.path == "/dice" and "epoch=" in path.query and chromium.locator("#check-page").is_enabled():
                    check_dice(chromium, url)
                    dice_checked += 1
                for href in links_of(chromium):
                    found = urljoin(url, href)
                    if urlsplit(found).netloc == urlsplit(base).netloc and urlsplit(found).path in ROUTES:
                        queue.append(found.split("#")[0])
            assert len(seen) > 40 and dice_checked == 2
            chromium.goto(base + "character?name=" + names["character"].replace("&", "%26"))
            assert chromium.inner_text("h1") == names["character"]  # the text shows as text
            chromium.goto(base)
            assert HOSTILE in chromium.inner_text("#today")  # the campaign's date, in the hostile month
            # the scrubber's labels (a JSON block of the calendar's words) are read by scrubber.js
            chromium.locator("#day").evaluate("(range) => { range.value = range.min; "
                                              "range.dispatchEvent(new Event('input')); }")
            assert chromium.inner_text("#day-shown") == "1 Thaw 1024"
            chromium.locator("#day").evaluate("(range) => { range.value = String(Number(range.min) + 4); "
                                              "range.dispatchEvent(new Event('input')); }")
            assert chromium.inner_text("#day-shown") == f"2 Mo{HOSTILE} 1024"
            assert_whole_and_inert(chromium, "the campaign page after the scrubber moved")
    finally:
        store.dispose()


def test_every_static_page_stays_whole_with_hostile_text(hostile, chromium, tmp_path):
    tally, names = hostile
    out = tmp_path / "site"
    tally.ok("chronicle", "--out", str(out))
    pages = sorted(out.glob("*.html"))
    assert len(pages) > 40
    dice_checked = 0
    for page in pages:
        chromium.goto(page.as_uri())
        assert_whole_and_inert(chromium, page.name)
        if page.name.startswith("dice-") and chromium.locator("#check-page").is_enabled():
            check_dice(chromium, page.name)
            dice_checked += 1
    assert dice_checked == 2
    chromium.goto((out / f"character-{slug(names['character'])}.html").as_uri())
    assert chromium.inner_text("h1") == names["character"]
    chromium.goto((out / "dice.html").as_uri())  # the whole export, with its hostile text, checks out
    chromium.set_input_files("#check-file", str(out / "export.jsonl"))
    chromium.locator('#check-result:not([data-ok=""])').wait_for(timeout=20000)
    assert chromium.inner_text("#check-result").startswith("PASS (export.jsonl): 2 derived roll(s)")
    assert_whole_and_inert(chromium, "dice.html after the export's check")
