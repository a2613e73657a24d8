"""The chronicle's recap and luck pages of a session (issue 27, items 2 and 3)
in Chromium (Playwright driving Debian's, never a downloaded browser), served
and static: they say what `tally recap` and `tally dice report` say, typed
markup shows as typed, and at 390 px wide nothing runs off the right edge."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.chronicle_support import browser, serving
from tests.conftest import Tally
from tests.test_recap import BO, INSIDE, build

PHONE = {"width": 390, "height": 844}
# Session 3's rolls, all by hand: (expression, faces, check).
ROLLS = [("2d6", "6,6", ()), ("1d20", "3", ("--under", "12")), ("6d6s4", "1,1,1,2,2,2", ("--ob", "3")),
         ("4d6dl1", "6,6,6,1", ()), ("1d6!", "6,6,2", ())]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """test_recap's campaign, then session 3 (1024-03-25): Nureddine's and Cy's rolls, by hand."""
    t = build(Tally(f"sqlite:///{tmp_path_factory.mktemp('reports') / 'tally.db'}"))
    t.ok("session", "open", "--game-date", "1024-03-25", "--activate", "Nureddine", "--activate", "Cy",
         "--no-income", "--client-seed", "third")
    for i, (expression, faces, check) in enumerate(ROLLS):
        t.ok("roll", expression, "--for", "Cy" if i % 2 else "Nureddine", "--dice", faces, *check)
    t.ok("session", "close", "--days", "1", "--haven", "Nureddine", "--haven", "Cy")
    return t


@pytest.fixture(scope="module")
def served(table):
    from ledger.store import Store

    store = Store(table.url, create=False)
    with serving(store) as base, browser() as launched:
        yield base, launched
    store.dispose()


def too_wide(page) -> int:
    """How far the page reaches past the viewport's right edge, in CSS pixels (0: it fits)."""
    return max(0, page.evaluate("document.documentElement.scrollWidth") - PHONE["width"])


def test_the_recap_page_says_what_tally_recap_says_on_a_phone(table, served):
    base, launched = served
    page = launched.new_page(viewport=PHONE)
    page.goto(base + "session?n=1")
    page.click("#session-reports a:text('Recap')")
    page.wait_for_selector("#recap-when")
    assert page.url.endswith("/recap?n=1")
    assert page.inner_text("#recap-when").startswith("In game: 1024-03-08 to 1024-03-10 (2 day(s) passed)")
    found = table.ok("recap", "--session", "1", "--format", "json").json
    shown = [li.inner_text() for li in page.locator("ul.recap > li").all()]
    assert shown == [f"{e['kind']}: {e['text']} #{e['position']}" for d in found["days"] for e in d["entries"]]
    assert [h.inner_text() for h in page.locator("h2.recap-day").all()] == ["1024-03-08", "1024-03-10"]
    # Typed markup is shown as typed: HTML as text, Markdown as its characters.
    assert any(s.startswith(f"Note: The door #3 — {INSIDE} #") for s in shown)
    assert page.locator("ul.recap b").count() == 0
    assert f"{BO} (Ben)" in page.inner_text("#recap-who")
    assert page.inner_text("#recap-totals").splitlines()[-1] == "Days passed: 2"
    # The Markdown to copy is the command's, whole.
    assert page.inner_text("#recap-markdown").strip() == table.ok("recap", "--session", "1").stdout.strip()
    assert too_wide(page) == 0, f"the recap runs {too_wide(page)} px off a 390 px screen"
    page.close()


def test_the_luck_page_shows_each_rolls_odds_and_a_chart_on_a_phone(table, served):
    base, launched = served
    found = table.ok("dice", "report", "--session", "3", "--json").json
    assert len(found["rolls"]) == len(ROLLS)
    page = launched.new_page(viewport=PHONE)
    page.goto(base + "session?n=3")
    page.click("#session-reports a:text('Luck')")
    page.wait_for_selector("#luck-rolls")
    assert page.url.endswith("/luck?n=3")
    rows = page.locator("#luck-rolls tbody tr").all()
    assert len(rows) == len(ROLLS)
    for row, r in zip(rows, found["rolls"]):
        cells = [c.inner_text() for c in row.locator("td").all()]
        assert cells[0] == str(r["position"]) and cells[4] == str(r["total"]) and cells[5] == r["p_at_least"]
        assert "by hand" in cells[8]
    assert found["rolls"][0]["p_at_least"] == "1/36" and Fraction(found["rolls"][1]["p_pass"]) == Fraction(11, 20)
    assert page.locator("#chart-luck circle").count() == len(ROLLS)
    assert page.locator("#chart-luck circle.hand").count() == len(ROLLS)
    summary = {tuple(c.inner_text() for c in row.locator("td").all()[:2]): row
               for row in page.locator("#luck-summary tbody tr").all()}
    assert set(summary) == {("Nureddine", "character"), ("Cy", "character"), ("Ann", "player"),
                            ("Ben", "player"), ("everyone", "table")}
    cy = next(s for s in found["characters"] if s["name"] == "Cy")
    cells = [c.inner_text() for c in summary[("Cy", "character")].locator("td").all()]
    assert cells[3] == f"{cy['mean_percentile'] * 100:.0f}%"
    assert cells[4].endswith(f"({cy['luckiest']['p_at_least']})")
    assert too_wide(page) == 0, f"the luck page runs {too_wide(page)} px off a 390 px screen"
    for box in (page.locator("#luck-rolls").bounding_box(), page.locator("#chart-luck").bounding_box()):
        assert box["x"] + box["width"] <= PHONE["width"] + 1
    page.close()


def test_the_static_sites_recap_and_luck_pages_fit_a_phone(table, served, tmp_path):
    _, launched = served  # one Playwright per thread: the module's
    out = tmp_path / "site"
    table.ok("chronicle", "--out", str(out))
    page = launched.new_page(viewport=PHONE)
    for name, selector in (("recap-1.html", "#recap-markdown"), ("luck-3.html", "#chart-luck")):
        assert (out / name).is_file(), name
        page.goto((out / name).as_uri())
        page.wait_for_selector(selector)
        assert too_wide(page) == 0, f"{name} runs {too_wide(page)} px off a 390 px screen"
    assert page.locator("#luck-rolls tbody tr").count() == len(ROLLS)
    page.close()
