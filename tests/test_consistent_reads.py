"""A reading is one consistent snapshot of the ledger (issue 25, item 9): a
page read while an import or an append commits sees the ledger as it stood
when the reading opened — never part of the import, never a head from before
it beside rows from after — and the next reading sees all of it. On SQLite
and on PostgreSQL, with the writer on its own connection in another thread,
as the web view's pages and a referee's import are."""

from __future__ import annotations

import threading

import pytest

from projections.reading import load
from ledger.store import Store
from tests.conftest import Tally
from tests.test_world_fold import played

CAMPAIGN = "Central Oregon"


def in_another_thread(work) -> None:
    """Run ``work`` on a thread of its own (its own connection) and wait for it to finish."""
    failed = []

    def run():
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), "the writer did not finish"
    if failed:
        raise failed[0]


def seen(tx) -> tuple:
    """What a page would show: the head, the campaigns, the events, Nureddine's Cash."""
    ctx = load(tx, CAMPAIGN)
    return (tx.head()[0], tuple(tx.campaigns()), len(list(tx.read(CAMPAIGN))),
            ctx.world.stable.character("Nureddine").cash)


@pytest.fixture
def halves(db_url, tmp_path):
    """The open-table campaign's log cut in two files: its first 150 events, and all of it;
    and a ledger (on the backend) that holds the first file."""
    source = Tally(f"sqlite:///{tmp_path / 'source.db'}")
    played(source, CAMPAIGN, None)
    whole = tmp_path / "whole.jsonl"
    source.ok("export", str(whole))
    first = tmp_path / "first.jsonl"
    first.write_text("".join(whole.read_text().splitlines(keepends=True)[:150]))
    t = Tally(db_url)
    t.ok("import", str(first))
    return t, whole


@pytest.mark.parametrize("queried_first", [True, False], ids=["queried", "just-opened"])
def test_a_reading_sees_none_of_an_import_that_commits_while_it_is_open(halves, queried_first):
    t, whole = halves
    store = Store(t.url)
    try:
        with store.reading() as tx:
            before = seen(tx) if queried_first else None
            # The import commits on another thread's connection, and its snapshots after it.
            in_another_thread(lambda: t.ok("import", str(whole)))
            during = seen(tx)
            assert during[0] == 150
            if before is not None:
                assert during == before
            assert len(list(tx.raw_rows())) == 150
        with store.reading() as tx:
            after = seen(tx)
        assert after[0] == len(whole.read_text().splitlines()) and after[2] > during[2]
        assert after[3] != during[3]  # Nureddine's Cash moved on in the second half
    finally:
        store.dispose()


def test_a_reading_sees_none_of_appends_made_while_it_is_open(halves):
    t, whole = halves
    t.ok("import", str(whole))
    store = Store(t.url)
    try:
        with store.reading() as tx:
            before = seen(tx)

            def appends():
                for amount in ("+3", "+4"):
                    t.ok("cash", "Nureddine", amount, "--why", "while a page was read")

            in_another_thread(appends)
            assert seen(tx) == before
            assert tx.campaign_head(CAMPAIGN) == before[0]
        with store.reading() as tx:
            after = seen(tx)
        assert after[0] == before[0] + 2 and after[3] == before[3] + 7
    finally:
        store.dispose()


def test_a_served_page_is_read_from_one_snapshot(halves):
    """The chronicle renders a page from one reading: an import committing while it
    renders leaves the whole page before it — the sheet, and the campaign's last
    day that the page's scrubber reaches, read after the sheet."""
    from chronicle.pages import Chronicle
    from projections import views
    from projections.timeline import Pin

    t, whole = halves

    def sheet_then_an_import(ctx):
        found = views.character(ctx, "Nureddine")
        in_another_thread(lambda: t.ok("import", str(whole)))
        return found

    store = Store(t.url)
    try:
        found, point = Chronicle(store, CAMPAIGN).read(Pin(), sheet_then_an_import)
        with store.reading() as tx:
            then = load(tx, CAMPAIGN, point=Pin(at_event=150))
            last_then = max(tx.last_day(CAMPAIGN, 150), then.campaign.today)
            now = load(tx, CAMPAIGN)
            last_now = max(tx.last_day(CAMPAIGN, tx.head()[0]), now.campaign.today)
        assert last_now > last_then and point["last_day"] == last_then
        assert point["today_day"] == then.campaign.today
        assert found["cash"] == then.world.stable.character("Nureddine").cash
    finally:
        store.dispose()


def test_a_readings_isolation_goes_with_it(pg_server):
    """PostgreSQL: a reading is REPEATABLE READ, READ ONLY; the pooled connection it
    used then writes at READ COMMITTED, as the write lock needs (a writer that waited
    for the lock must see the commit it waited for)."""
    t = Tally(pg_server.new_database())
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    store = Store(t.url)
    show = lambda tx: (tx.conn.exec_driver_sql("SHOW transaction_isolation").scalar(),  # noqa: E731
                       tx.conn.exec_driver_sql("SHOW transaction_read_only").scalar())
    try:
        for _ in range(2):
            with store.reading() as tx:
                assert show(tx) == ("repeatable read", "on")
                head = tx.head()[0]
            with store.transaction() as tx:
                assert show(tx) == ("read committed", "off")
                tx.conn.exec_driver_sql("SELECT 1 FROM events FOR UPDATE").close()  # refused if read only
            t.ok("player", "add", f"P{head}")
            with store.transaction() as tx:
                assert tx.head()[0] == head + 1
    finally:
        store.dispose()
