"""The chronicle's check of sealed secrets in a real browser (Playwright driving
Debian's Chromium; never a downloaded browser): served by `tally serve` and
from file:// on the static site, the revealed secrets recomputed in the page
with WebCrypto (chronicle/static/secrets.js), an export checked with the line
each roll on a sealed table picked, and a tampered export failed; and
secrets.js held to ledger/sealed.py on hostile and non-ASCII text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger import sealed
from tests.chronicle_support import HOSTILE, browser, tally_serve

LABEL = "Wandering monsters"
TABLE = f"Wandering monsters, 1d6\n1-2 an ogre\n3 goblins \U0001F47A\n4\u20135 wolves\n6 {HOSTILE}"


@pytest.fixture
def sealed_campaign(tally_sqlite):
    t = tally_sqlite
    t.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    t.ok("secret", "seal", LABEL, TABLE)
    t.ok("secret", "seal", "Room 7", "An ogre, 300 gp")
    t.ok("roll", "1d6", "--on", LABEL, "--dice", "5", "--why", "night watch")  # event 5
    t.ok("roll", "1d6", "--on", LABEL, "--dice", "6")  # event 6
    t.ok("secret", "reveal", LABEL)  # event 7
    return t


@pytest.fixture
def chromium():
    with browser() as launched:
        yield launched.new_page()


def result(page) -> str:
    # (a selector, not a function: the pages' Content-Security-Policy forbids the eval a function wait uses)
    page.locator('#secret-result:not([data-ok=""])').wait_for(timeout=20000)
    return page.inner_text("#secret-result")


def tampered(t, tmp_path) -> tuple[Path, Path]:
    """The export as written, and a copy whose revealed text has one character changed."""
    kept = tmp_path / "kept.jsonl"
    t.ok("export", str(kept))
    lines = kept.read_text(encoding="utf-8").splitlines()
    for i, text in enumerate(lines):
        event = json.loads(text)
        if event["type"] == "secret.revealed":
            event["payload"]["text"] = event["payload"]["text"].replace("an ogre", "a dragon")
            lines[i] = json.dumps(event, ensure_ascii=False)
    changed = tmp_path / "tampered.jsonl"
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return kept, changed


PICKS = ("event 5 (1d6 = 5) picked line 4 of \u201cWandering monsters\u201d: 4\u20135 wolves; "
         f"event 6 (1d6 = 6) picked line 5 of \u201cWandering monsters\u201d: 6 {HOSTILE}")


def test_the_secrets_page_checks_the_revealed_secrets_in_the_browser(sealed_campaign, chromium, tmp_path):
    kept, changed = tampered(sealed_campaign, tmp_path)
    with tally_serve(sealed_campaign.url) as (base, _):
        chromium.goto(base)
        chromium.click("text=Secrets")
        assert chromium.inner_text("h1") == "Sealed secrets"
        assert TABLE in chromium.inner_text("pre.secret-text")  # shown as text, not markup
        assert chromium.locator("pre.secret-text svg").count() == 0
        assert "An ogre, 300 gp" not in chromium.content()  # Room 7 is still sealed
        chromium.click("#check-secrets")
        assert result(chromium) == ("PASS (this page): 1 revealed secret(s) hash to their commitments, "
                                    "1 still sealed")
        chromium.reload()
        chromium.set_input_files("#secret-file", str(kept))
        assert result(chromium) == ("PASS (kept.jsonl): 1 revealed secret(s) hash to their commitments, "
                                    f"1 still sealed; {PICKS}")
        chromium.reload()
        chromium.set_input_files("#secret-file", str(changed))
        assert result(chromium) == ("FAIL (tampered.jsonl): event 7: the revealed text and salt of "
                                    "\u201cWandering monsters\u201d do not hash to its commitment")
        # a roll's event page names its table and, now it is revealed, the line it picked
        chromium.goto(base + "event?n=5")
        assert chromium.inner_text("#table").endswith("line 4: 4\u20135 wolves")
        chromium.goto(base + "log")
        assert "\u2192 line 4 of 'Wandering monsters': 4\u20135 wolves" in chromium.inner_text("tr#e5")


def test_the_static_site_checks_its_secrets_from_file(sealed_campaign, chromium, tmp_path):
    out = tmp_path / "chronicle"
    sealed_campaign.ok("chronicle", "--out", str(out))
    _, changed = tampered(sealed_campaign, tmp_path)
    chromium.goto((out / "index.html").as_uri())
    chromium.click("text=Secrets")
    chromium.click("#check-secrets")
    assert result(chromium).startswith("PASS (this page): 1 revealed secret(s)")
    chromium.reload()
    chromium.set_input_files("#secret-file", str(out / "export.jsonl"))
    assert result(chromium).endswith(PICKS)
    chromium.reload()
    chromium.set_input_files("#secret-file", str(changed))
    assert result(chromium).startswith("FAIL (tampered.jsonl): event 7")
    chromium.goto((out / "log.html").as_uri())
    assert "\u2192 line 5 of 'Wandering monsters'" in chromium.inner_text("tr#e6")


TEXTS = [TABLE, "x", 'quotes " and \\ backslash\ttab', "é – 漢 \U0001F409 emoji \u00a0", "a\u2028b",
         "  indented\n\nblank", "<!--<script>", "\u0007 a bell"]
TABLES = ["1-2 a\n3 b\n4\u20135 c\n6 d", "a\n\nb\nc", "Heading 1d6\n01-50 x\n51\u201495 y\n96-00 z\nnote",
          "1. a\n2: b\n3) c\n4\td\n5", "1-3 a\n3-6 b", "\u0663 not a digit\n2nd floor\n1d6 words", "6-1 backwards\n2 x"]


def test_secrets_js_agrees_with_the_ledger(sealed_campaign, chromium):
    salt = "ab" * 32
    with tally_serve(sealed_campaign.url) as (base, _):
        chromium.goto(base + "secrets")
        hashed = chromium.evaluate("async ([salt, texts]) => Promise.all(texts.map(t => secretCommitment("
                                   "'Wandering monsters', salt, t)))", [salt, TEXTS])
        picks = chromium.evaluate("(tables) => tables.map(t => Array.from({length: 103}, (_, n) => "
                                  "{ const e = pickedLine(t, n - 1); return e ? [e.line, e.text] : null; }))", TABLES)
    assert hashed == [sealed.commitment(LABEL, salt, text) for text in TEXTS]
    expected = [[(lambda e: [e.line, e.text] if e else None)(sealed.picked(table, n - 1)) for n in range(103)]
                for table in TABLES]
    assert picks == expected
    assert any(row for row in expected[2] if row and row[1] == "96-00 z")
