"""The chronicle over plain HTTP, against the real server on a free loopback
port, on a SQLite file and on PostgreSQL: every page shows the figures the
ledger holds at the point asked, refuses bad addresses in one line, and
never writes. Then `tally serve` and `tally chronicle` refusing bad input."""

from __future__ import annotations

import html
import re
import socket
from pathlib import Path
from urllib.parse import quote

import pytest

from chronicle.links import SiteLinks, slug
from ledger.store import Store
from tests.chronicle_support import build_campaign, day_of, get, serving, tally_serve


def figure(page: str, name: str) -> str:
    found = re.search(r'data-figure="' + re.escape(name) + r'" href="([^"]*)">([^<]*)<', page)
    assert found, f"no figure {name} on the page"
    return found.group(2)


@pytest.fixture
def greyhawk(campaign_tally):
    return campaign_tally


@pytest.fixture
def campaign_tally(tally):
    build_campaign(tally)
    return tally


@pytest.fixture
def site(campaign_tally):
    store = Store(campaign_tally.url, create=False)
    with serving(store) as base:
        yield base, campaign_tally
    store.dispose()


def counts(url: str) -> tuple[int, int]:
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.connect() as conn:
        found = (conn.execute(sa.text("SELECT count(*) FROM events")).scalar(),
                 conn.execute(sa.text("SELECT count(*) FROM snapshots")).scalar())
    engine.dispose()
    return found


def test_campaign_page_shows_the_campaign_on_the_date_asked(site):
    base, tally = site
    status, now = get(base)
    assert status == 200
    assert figure(now, "Nureddine.wealth") == "6" and figure(now, "Nureddine.lifestyle") == "Bountiful"
    # The Wealth roll was on 1024-03-11: on the 5th she still had 5.
    assert figure(get(base + "?date=1024-03-05")[1], "Nureddine.wealth") == "5"
    assert figure(get(base + f"?day={day_of(tally, '1024-03-05')}")[1], "Nureddine.wealth") == "5"
    assert figure(get(base + f"?day={day_of(tally, '1024-03-11')}")[1], "Nureddine.wealth") == "6"
    assert 'id="today">1024-03-05<' in get(base + "?date=1024-03-05")[1]
    assert "<tr><th>started</th><td>1024-03-01 (10 days ago)</td></tr>" in now  # gregorian: no seasons, no week days
    assert "Reputation with River Guild" in now and figure(now, "rep:River Guild") == "+1"


def test_as_recorded_shows_what_the_ledger_said_then(site):
    base, tally = site
    events = tally.ok("log", "--json").json
    # The evening the week passed, before the Wealth roll was logged.
    advanced = next(e for e in events if e["type"] == "calendar.advanced")
    status, page = get(base + "?recorded=" + quote(advanced["recorded_at"]))
    assert status == 200 and figure(page, "Nureddine.wealth") == "5"
    assert "As the ledger stood at" in page


def test_character_page_charts_each_figure_and_links_it_to_why(site):
    base, _ = site
    status, page = get(base + "character?name=Nureddine")
    assert status == 200
    assert 'id="chart-wealth"' in page and 'id="chart-cash"' in page and 'id="chart-boons"' in page
    chart = page[page.index('id="chart-wealth"'):]
    chart = chart[:chart.index("</figure>")]
    assert re.findall(r"<title>([^<]*)</title>", chart) == ["1024-03-01: 5", "1024-03-11: 6"]
    assert 'href="why?subject=Nureddine&amp;field=wealth"' in chart
    assert figure(page, "Nureddine.wealth") == "6"


def test_why_rows_link_to_their_event_and_roll(site):
    base, tally = site
    events = {e["position"]: e for e in tally.ok("log", "--json").json}
    attempt = next(p for p, e in events.items() if e["type"] == "wealth.attempted")
    status, page = get(base + "why?subject=Nureddine&field=wealth")
    assert status == 200 and 'id="why-value">6<' in page
    row = page[page.index(f'href="event?n={attempt}"'):]
    roll = events[attempt]["cause"]
    assert f'class="roll" href="event?n={roll}"' in row[:row.index("</tr>")]
    status, shown = get(base + f"event?n={roll}")
    assert status == 200 and "24d6s4: [" + WEALTH_SHOWN + "] = 12" in html.unescape(shown)
    assert "rolled by hand, recorded, not verifiable" in shown
    assert f'href="event?n={attempt}"' in shown  # what the roll led to


WEALTH_SHOWN = "4, 5, 6, 4, 5, 6, 4, 5, 6, 4, 5, 6, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3"


def test_dice_page_shows_the_epoch_and_its_rolls(site):
    base, tally = site
    epochs = tally.ok("dice", "epochs", "--json").json
    status, page = get(base + "dice?epoch=1")
    assert status == 200
    assert epochs[0]["commitment"] in page and epochs[0]["seed"] in page
    assert "Ann&#39;s pick" in page and 'id="check-page"' in page and 'src="static/dice.js"' in page
    assert get(base + "static/dice.js")[0] == 200
    status, index = get(base + "dice")
    assert status == 200 and all(f"dice?epoch={e['epoch']}" in index for e in epochs)


def test_session_timeline_and_log_pages(site):
    base, tally = site
    status, page = get(base + "session?n=1")
    assert status == 200 and "1024-03-01 to 1024-03-04" in page and "Athletics at the ford" in page
    status, page = get(base + "timeline")
    assert status == 200 and "Session 1</a>" in page and "1024-03-04</td><td>1024-03-11" in page
    status, page = get(base + "log?type=wealth.attempted")
    assert status == 200
    assert re.findall(r'<tr id="e(\d+)"', page) == [str(e["position"]) for e in tally.ok(
        "log", "--type", "wealth.attempted", "--json").json]
    status, page = get(base + "log?session=1&q=athletics")
    assert status == 200 and len(re.findall(r'<tr id="e', page)) == 1
    # newest first, a page at a time: the older page carries the filters on
    everything = [e["position"] for e in tally.ok("log", "--json").json]
    newest = sorted(everything, reverse=True)
    first = get(base + "log?limit=5")[1]
    assert [int(p) for p in re.findall(r'<tr id="e(\d+)"', first)] == newest[:5]
    older = html.unescape(re.search(r'id="older" href="([^"]*)"', first).group(1))
    assert [int(p) for p in re.findall(r'<tr id="e(\d+)"', get(base + older)[1])] == newest[5:10]
    rolls = [e["position"] for e in tally.ok("log", "--type", "dice.rolled", "--json").json][::-1]
    page = get(base + "log?type=dice.rolled&limit=1")[1]
    older = html.unescape(re.search(r'id="older" href="([^"]*)"', page).group(1))
    assert "type=dice.rolled" in older
    assert [int(p) for p in re.findall(r'<tr id="e(\d+)"', get(base + older)[1])] == rolls[1:2]


@pytest.mark.parametrize("address, status, message", [
    ("character?name=Nobody", 404, "no character named &#39;Nobody&#39;"),
    ("character", 400, "which character: add ?name=… to the address"),
    ("?day=x", 400, "day= takes a whole number, not &#39;x&#39;"),
    ("?date=1023-01-01", 400, "campaign Greyhawk begins on 1024-03-01, after 1023-01-01"),
    ("?date=someday", 400, "cannot read &#39;someday&#39;"),
    ("?recorded=yesterday", 400, "cannot read &#39;yesterday&#39; as a time"),
    ("event?n=999", 404, "no event 999"),
    ("dice?epoch=99", 404, "no dice epoch 99"),
    ("session?n=7", 404, "no session 7"),
    ("session?n=0", 404, "no session 0"),  # was a 500: 0 read as "the latest"
    ("?recorded=9999-12-31T23:59:59-14:00", 400, "falls outside the years 1 to 9999 in UTC"),  # was a 500
    ("why?subject=Nureddine&field=nonsense", 400, "Nureddine has no field &#39;nonsense&#39;"),
    ("log?session=one", 400, "session= takes a whole number"),
    ("log?limit=0", 400, "limit= takes 1 to 500 rows, not 0"),
    ("log?type=dice.thrown", 400, "type= takes an event type such as dice.rolled"),
])
def test_a_bad_address_is_refused_in_one_line(site, address, status, message):
    base, _ = site
    got, page = get(base + address)
    assert got == status
    refusal = re.search(r'id="refused">([^<]*)<', page).group(1)
    assert message in refusal and "\n" not in refusal and "Traceback" not in page


def test_pages_never_write(site):
    base, tally = site
    before = counts(tally.url)
    for address in ("", "?date=1024-03-05", "character?name=Nureddine", "why?subject=Nureddine&field=cash",
                    "event?n=5", "dice", "dice?epoch=1", "session?n=1", "timeline", "log", "character?name=Nobody"):
        get(base + address)
    assert counts(tally.url) == before


def test_pages_load_nothing_from_elsewhere(site):
    base, _ = site
    for address in ("", "character?name=Nureddine", "dice?epoch=1"):
        page = get(base + address)[1]
        assert not re.search(r'(src|href)="(https?:)?//', page)


# -- the commands --------------------------------------------------------------

def test_serve_prints_its_address_and_answers(tally_sqlite):
    build_campaign(tally_sqlite)
    with tally_serve(tally_sqlite.url) as (base, process):
        status, page = get(base)
        assert status == 200 and figure(page, "Nureddine.wealth") == "6"
    assert process.returncode == 0 and process.stdout.read().strip() == "stopped"  # Ctrl-C stops it


@pytest.mark.parametrize("args, message", [
    (["--host", "0.0.0.0"], "0.0.0.0 is not a loopback address"),
    (["--host", "192.168.1.10"], "give --allow-remote to mean it"),
    (["--port", "70000"], "--port takes 0 to 65535, not 70000"),
    (["--host", "no.such.host.invalid", "--allow-remote"], "cannot listen on no.such.host.invalid port 8018"),
    (["--host", "bad\x00host", "--allow-remote"], "is not an address"),
])
def test_serve_refuses_bad_options(tally_sqlite, args, message):
    build_campaign(tally_sqlite)
    refused = tally_sqlite.refused("serve", *args)
    assert message in refused.stderr


def test_serve_refuses_a_port_in_use_and_an_unknown_campaign(tally_sqlite):
    build_campaign(tally_sqlite)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        assert f"port {port} on 127.0.0.1 is in use" in tally_sqlite.refused("serve", "--port", str(port)).stderr
    finally:
        taken.close()
    assert "no campaign named 'Nope'" in tally_sqlite.refused("--campaign", "Nope", "serve").stderr


def test_chronicle_writes_a_site_whose_links_all_resolve(tally_sqlite, tmp_path):
    build_campaign(tally_sqlite)
    out = tmp_path / "site"
    done = tally_sqlite.ok("chronicle", "--out", str(out), "--json").json
    assert done["pages"] > 10 and (out / "index.html").exists() and (out / "static" / "dice.js").exists()
    exported = (out / "export.jsonl").read_text().splitlines()
    assert len(exported) == tally_sqlite.event_count() == done["events"]
    for page in out.glob("*.html"):
        for link in re.findall(r'(?:href|src)="([^"#?]+)', page.read_text()):
            assert (out / link).exists(), f"{page.name} links to {link}, which was not written"
    # the campaign page pre-rendered for the day the session ended, its figures as they were then (not
    # linked: the why pages tell the campaign now); the list of such days on a page of its own
    past = (out / f"day-{day_of(tally_sqlite, '1024-03-04')}.html").read_text()
    row = re.search(r'<tr><td><a href="[^"]*">Nureddine</a></td><td>Ann</td><td>active</td>\s*<td>(\w+)</td>'
                    r'<td>(\d+)</td>', past)
    assert row and row.group(2) == "5" and 'data-figure="Nureddine.wealth"' not in past
    assert figure((out / "index.html").read_text(), "Nureddine.wealth") == "6"
    assert f'href="day-{day_of(tally_sqlite, "1024-03-04")}.html"' in (out / "days.html").read_text()


def test_chronicle_writes_the_latest_checkpoint_beside_the_pages(tally_sqlite, tmp_path):
    build_campaign(tally_sqlite)
    tally_sqlite.ok("keys", "new")
    signed = tally_sqlite.ok("checkpoint").stdout
    out = tmp_path / "site"
    tally_sqlite.ok("chronicle", "--out", str(out))
    assert (out / "checkpoint.txt").read_text() == signed
    assert 'href="checkpoint.txt"' in (out / "index.html").read_text()


def test_chronicle_refuses_a_folder_that_is_not_empty_even_forced(tally_sqlite, tmp_path):
    """--force replaces only a chronicle tally wrote: the referee's own files are never deleted."""
    build_campaign(tally_sqlite)
    out = tmp_path / "kept"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "maps").mkdir()
    (out / "maps" / "cave.png").write_bytes(b"png")
    for forced in ((), ("--force",)):
        refused = tally_sqlite.refused("chronicle", "--out", str(out), *forced)
        assert "is not empty and is no chronicle tally wrote" in refused.stderr
        assert "--force replaces only a chronicle tally wrote" in refused.stderr
        assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == ["maps", "maps/cave.png", "notes.txt"]
        assert (out / "notes.txt").read_text() == "mine"
    (tmp_path / "a-file").write_text("x")
    assert "is a file, not a folder" in tally_sqlite.refused("chronicle", "--out", str(tmp_path / "a-file")).stderr
    assert "does not exist" in tally_sqlite.refused("chronicle", "--out", str(tmp_path / "no" / "site")).stderr
    for bad in ("", " ", "line\nbreak", "\x1b[31mred", "\ud800"):
        assert "is not a folder path" in tally_sqlite.refused("chronicle", "--out", bad).stderr
    assert "is the filesystem's root" in tally_sqlite.refused("chronicle", "--out", "/", "--force").stderr
    assert "cannot write the chronicle to" in tally_sqlite.refused("chronicle", "--out", "x" * 5000).stderr
    assert "no campaign named 'Nope'" in tally_sqlite.refused(
        "--campaign", "Nope", "chronicle", "--out", str(tmp_path / "new")).stderr
    assert not (tmp_path / "new").exists()
    assert not list(tmp_path.glob(".chronicle-*")), "a staging folder was left behind"


def test_chronicle_replaces_its_own_earlier_site_only_when_forced(tally_sqlite, tmp_path):
    build_campaign(tally_sqlite)
    out = tmp_path / "site"
    tally_sqlite.ok("chronicle", "--out", str(out))
    assert (out / ".tally-chronicle").is_file()
    refused = tally_sqlite.refused("chronicle", "--out", str(out))
    assert "holds a chronicle written before: give --force to replace it" in refused.stderr
    (out / "stale.html").write_text("from an older build")
    tally_sqlite.ok("cash", "Nureddine", "+5", "--why", "sold a saddle")
    tally_sqlite.ok("chronicle", "--out", str(out), "--force")
    assert not (out / "stale.html").exists(), "the old site is replaced whole, not merged into"
    assert "sold a saddle" in (out / "export.jsonl").read_text()
    assert not list(tmp_path.glob(".chronicle-*")), "a staging folder was left behind"
    empty = tmp_path / "empty"
    empty.mkdir()
    tally_sqlite.ok("chronicle", "--out", str(empty))  # an empty folder needs no --force
    assert (empty / "index.html").exists()


def test_pages_show_what_is_recorded_while_they_are_served(site):
    """The server keeps a point's fold for the next page: a new event is a new point, never a stale page."""
    base, tally = site
    before = get(base + "character?name=Nureddine")[1]
    cash = int(figure(before, "Nureddine.cash"))
    assert get(base + "why?subject=Nureddine&field=cash")[0] == 200
    tally.ok("cash", "Nureddine", "+5", "--why", "sold a saddle")
    after = get(base + "character?name=Nureddine")[1]
    assert int(figure(after, "Nureddine.cash")) == cash + 5
    chart = after[after.index('id="chart-cash"'):]
    # the chart's point for the day (1024-03-11) moves to the new figure
    assert re.findall(r"<title>([^<]*)</title>", chart[:chart.index("</figure>")])[-1] == f"1024-03-11: {cash + 5}"
    assert "sold a saddle" in get(base + "why?subject=Nureddine&field=cash")[1]


def test_a_gods_campaign_charts_black_marks_and_links_only_what_why_can_tell(pantheon, tmp_path):
    """Bifrost (gods, no coeac): the static site is whole, the black marks are charted and
    linked to their story, and a field the sheet leaves empty (no class) links nowhere."""
    pantheon.ok("god", "mark", "Aud", "--why", "fled the shieldwall")
    out = tmp_path / "site"
    pantheon.ok("chronicle", "--out", str(out))
    page = (out / f"character-{slug('Aud')}.html").read_text()
    assert 'id="chart-black_marks"' in page and figure(page, "Aud.black_marks") == "1"
    assert re.search(r'<span class="fig" data-figure="Aud.class">–</span>', page)
    assert re.search(r"<tr><th>season</th><td>\w+</td></tr>", (out / "index.html").read_text())  # bifrost's
    why = (out / SiteLinks().why("Aud", "black_marks")).read_text()
    assert "fled the shieldwall" in why
