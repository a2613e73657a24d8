"""The chronicle in a real browser (Playwright driving Debian's Chromium):
against `tally serve` started on a free loopback port, and from file:// on
the static site. Move the scrubber and see a figure change to its known
value; follow a figure to its roll; re-derive an epoch's rolls in the
browser and see the check pass, and fail on a tampered export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.chronicle_support import browser, build_campaign, day_of, follow, tally_serve

VECTORS = Path(__file__).parent.parent / "fixtures" / "dice-vectors.json"


@pytest.fixture
def greyhawk(tally_sqlite):
    build_campaign(tally_sqlite)
    return tally_sqlite


@pytest.fixture
def chromium():
    with browser() as launched:
        page = launched.new_page()
        yield page


def wealth(page) -> str:
    return page.inner_text('[data-figure="Nureddine.wealth"]')


def check_result(page) -> str:
    # (a selector, not a function: the pages' Content-Security-Policy forbids the eval a function wait uses)
    page.locator('#check-result:not([data-ok=""])').wait_for(timeout=20000)
    return page.inner_text("#check-result")


def tampered_export(tally, tmp_path, part: str = "dice") -> tuple[Path, Path, int]:
    """The export as written, and a copy with one face (or the total) of one derived roll changed:
    (kept, tampered, position)."""
    kept = tmp_path / "kept.jsonl"
    if not kept.exists():
        tally.ok("export", str(kept))
    lines = kept.read_text().splitlines()
    for i, text in enumerate(lines):
        event = json.loads(text)
        if event["type"] == "dice.rolled" and event["payload"]["verifiable"]:
            if part == "dice":
                faces = event["payload"]["dice"]
                event["payload"]["dice"] = [faces[0] % 6 + 1, *faces[1:]]
            else:
                event["payload"]["total"] += 1
            lines[i] = json.dumps(event)
            break
    tampered = tmp_path / f"tampered-{part}.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    return kept, tampered, event["position"]


def test_moving_the_scrubber_shows_the_figure_on_that_day(greyhawk, chromium):
    with tally_serve(greyhawk.url) as (base, _):
        chromium.goto(base)
        assert wealth(chromium) == "6"
        with chromium.expect_navigation():  # let go of the thumb on the 5th
            chromium.fill("#day", str(day_of(greyhawk, "1024-03-05")))
        assert wealth(chromium) == "5" and chromium.inner_text("#today") == "1024-03-05"
        assert chromium.inner_text("#day-shown") == "1024-03-05"
        with chromium.expect_navigation():
            chromium.fill("#day", str(day_of(greyhawk, "1024-03-11")))
        assert wealth(chromium) == "6"
        chromium.fill("input[name=date]", "1024-03-10")
        follow(chromium, "#show")
        assert wealth(chromium) == "5" and "as of 1024-03-10" in chromium.inner_text("#point")


def test_a_figure_leads_to_its_roll_and_the_roll_checks_out_in_the_browser(greyhawk, chromium):
    income = next(e for e in greyhawk.ok("log", "--json").json if e["type"] == "income.rolled")
    roll = next(e for e in greyhawk.ok("log", "--json").json if e["position"] == income["cause"])
    with tally_serve(greyhawk.url) as (base, _):
        chromium.goto(base)
        follow(chromium, '[data-figure="Nureddine.cash"]')
        assert "Nureddine's cash" in chromium.inner_text("h1")
        follow(chromium, f'#why a.roll[href*="n={roll["position"]}"]')
        shown = chromium.inner_text("#roll")
        faces = ", ".join(map(str, roll["payload"]["dice"]))
        assert f"5d6s4: [{faces}] = {roll['payload']['total']}" in shown and "roll n=0 of epoch 1" in shown
        follow(chromium, "#roll a")
        assert chromium.inner_text("h1") == "Dice epoch 1"
        chromium.click("#check-page")
        assert check_result(chromium).startswith("PASS (this page's rolls): 1 derived roll(s) re-derived")


def test_the_browser_check_fails_on_a_tampered_export(greyhawk, chromium, tmp_path):
    kept, tampered, position = tampered_export(greyhawk, tmp_path)
    with tally_serve(greyhawk.url) as (base, _):
        chromium.goto(base + "dice?epoch=1")
        chromium.set_input_files("#check-file", str(kept))
        assert check_result(chromium).startswith("PASS (kept.jsonl): 2 derived roll(s) re-derived")
        chromium.reload()
        chromium.set_input_files("#check-file", str(tampered))
        result = check_result(chromium)
        assert result.startswith("FAIL (tampered-dice.jsonl)") and f"event {position}: faces" in result
        _, tampered, position = tampered_export(greyhawk, tmp_path, part="total")
        chromium.reload()
        chromium.set_input_files("#check-file", str(tampered))
        assert f"event {position}: total" in check_result(chromium)


def test_the_scrubber_works_without_javascript(greyhawk, tmp_path):
    with browser() as launched, tally_serve(greyhawk.url) as (base, _):
        page = launched.new_page(java_script_enabled=False)
        page.goto(base)
        page.fill("#day", str(day_of(greyhawk, "1024-03-05")))
        follow(page, "#show")
        assert wealth(page) == "5"


def test_the_browser_derivation_agrees_with_the_published_vectors(greyhawk, chromium):
    """Every published vector (rerolls, keep and drop, explosions, average dice) re-derived by dice.js."""
    vectors = json.loads(VECTORS.read_text())
    with tally_serve(greyhawk.url) as (base, _):
        chromium.goto(base + "dice?epoch=1")
        derived = chromium.evaluate(
            "async ([seed, vectors]) => Promise.all(vectors.map(v => roll(seed, v.client_seed, v.nonce, v.expression)))",
            [vectors["seed"], vectors["vectors"]])
    assert [d["faces"] for d in derived] == [v["dice"] for v in vectors["vectors"]]
    assert [d["total"] for d in derived] == [v["total"] for v in vectors["vectors"]]


# Every operator docs/dice.md names, with arithmetic around the terms.
EXPRESSIONS = ["2d6", "d20", "3d6", "d%", "dA", "2dA", "3d6*10", "1d6/2", "1d12+3", "-(1d6)", "2d6kh1", "3d6kh2",
               "2d6kl1", "4d6dl1", "4d6dh1", "6d6s4", "4d6rr1", "4d6rr<=2", "4d6ro1", "8d6mi2", "4d6ma5", "1d6!",
               "1d6x", "1d6e6", "2d6e>=5", "1d6!>=5", "1d6x>=5", "1d10xo10", "2d6kh1!", "6d6!s4", "4d6rr1kh3!",
               "(2d6+3)*2-1d4", "1d8/3+2d4-(1d6*2)", "12d6s4+1", "3d6mi2ma5"]


def test_the_browser_rolls_every_operator_as_the_ledger_does(greyhawk, chromium):
    """dice.js against ledger/dice/derivation.py: faces and totals of every operator, at many nonces."""
    from ledger.dice.derivation import derive
    from ledger.dice.expression import parse

    seed, client = "5a" * 32, "a player's pick"
    cases = [(expression, nonce) for expression in EXPRESSIONS for nonce in (0, 1, 7, 123)]
    with tally_serve(greyhawk.url) as (base, _):
        chromium.goto(base + "dice?epoch=1")
        derived = chromium.evaluate(
            "async ([seed, client, cases]) => Promise.all(cases.map(([x, n]) => roll(seed, client, n, x)))",
            [seed, client, cases])
    expected = [derive(parse(expression), seed, client, nonce) for expression, nonce in cases]
    assert [(d["faces"], d["total"]) for d in derived] == [(list(f), t) for f, t in expected]


def test_the_static_site_works_from_file(greyhawk, chromium, tmp_path):
    out = tmp_path / "chronicle"
    greyhawk.ok("chronicle", "--out", str(out))
    _, tampered, position = tampered_export(greyhawk, tmp_path)
    chromium.goto((out / "index.html").as_uri())
    assert wealth(chromium) == "6"
    follow(chromium, "#days-list")  # the pre-rendered days, listed on a page of their own
    follow(chromium, "a.day >> text=1024-03-04")
    shown = chromium.inner_text('#stables tr:has(a:text-is("Nureddine")) td:nth-child(5)')
    assert shown == "5" and "as of 1024-03-04" in chromium.inner_text("#point")
    follow(chromium, "text=now")
    follow(chromium, '[data-figure="Nureddine.wealth"]')
    follow(chromium, "#why a.roll")  # to the roll's row in the log, its details below it
    roll = chromium.url.rpartition("#")[2]
    row = chromium.locator(f"tr#{roll}")
    row.locator("summary").click()
    assert "rolled by hand, recorded, not verifiable" in row.locator(".roll").inner_text()
    chromium.goto((out / "dice-1.html").as_uri())
    chromium.click("#check-page")
    assert check_result(chromium).startswith("PASS (this page's rolls)")
    chromium.reload()
    chromium.set_input_files("#check-file", str(out / "export.jsonl"))
    assert check_result(chromium).startswith("PASS (export.jsonl): 2 derived roll(s)")
    chromium.reload()
    chromium.set_input_files("#check-file", str(tampered))
    assert f"event {position}: faces" in check_result(chromium)
    chromium.goto((out / "dice.html").as_uri())  # the whole export, from the epochs' list
    chromium.set_input_files("#check-file", str(out / "export.jsonl"))
    assert check_result(chromium).startswith("PASS (export.jsonl): 2 derived roll(s)")
    chromium.goto((out / "log.html").as_uri())
    rows = chromium.locator("#log tbody tr:visible").count()
    chromium.fill("#log-filter", "athletics")
    # the filter's own doing: more rows showed before it
    expect(chromium.locator("#log tbody tr:visible")).to_have_count(1, timeout=20000)
    assert rows > 1
