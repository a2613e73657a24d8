"""Kept histories (projections/kept.py) tell every figure's story and chart
exactly as a fold from the start does (projections/why.py), after the
ledger grows by appends, facts logged late and voids; and a kept row that a
writer of the database forged is never believed."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from ledger.store import Store
from projections import kept, views
from projections.reading import load
from projections.timeline import Pin, Point
from projections.why import story, subject_figure

FIXTURES = Path(__file__).parent.parent / "fixtures"
# Every field a sheet of these rulebooks has that is not moved by the day alone (a Wolves sheet's
# wages owed grow each day, and each way of telling them counts the days it folded).
DAY_BOUND = {"wages_owed", "wages_shortfall", "hirelings"}


def fresh_and_kept(store: Store, point: Pin = Pin()):
    """For every figure of every subject at the point: the story and the chart told by a fold
    from the start, and told from the kept histories."""
    kept.keep_up(store, None)
    out = []
    with store.reading() as tx:
        ctx = load(tx, None, point=point)
        folded = views.fold(ctx)
        subjects = [(c.name, f) for c in ctx.world.stable.characters.values()
                    for f in (views.sheet(ctx.world, c.name) or {}) if f not in DAY_BOUND]
        gained = {(e.payload["character"], e.payload["item"]) for e in tx.read(ctx.name, types=["item.gained"])}
        subjects += [(who, f"item:{item}") for who, item in gained]  # an item's chain of custody
        subjects += [("company", None)] + [(f"rep:{name}", None) for name, _ in ctx.world.company.reputation.values()]
        subjects += [(f"stronghold:{s.name}", f) for s in ctx.world.company.strongholds.values()
                     for f in ("rating", "tags", "economy")]
        assert views._kept_steps(ctx, "company") is not None, "the kept histories did not answer"
        for subject, field in subjects:
            told = subject_figure(subject, field)
            fresh = story((), ctx.point, told, cause_of=ctx.event, folded=folded)
            steps = views._kept_steps(ctx, told.kept)
            out.append(((subject, field), fresh, kept.story(steps, told, tx.get_many)[0]))
        for c in ctx.world.stable.characters.values():
            fresh = views.series(ctx, c.name, folded)
            out.append(((c.name, "chart"), fresh, views.series(ctx, c.name)))
    return out


def assert_same(store: Store, point: Pin = Pin()) -> int:
    compared = fresh_and_kept(store, point)
    for what, fresh, from_kept in compared:
        assert from_kept == fresh, what
    assert any(fresh for _, fresh, _ in compared)
    return len(compared)


def test_kept_stories_and_charts_equal_a_fold_from_the_start_as_the_ledger_grows(tally):
    t = tally  # both backends
    t.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    store = Store(t.url, create=False)
    assert assert_same(store) > 50
    assert_same(store, Pin(as_of="1024-04-20"))  # a game date: the steps up to it
    # An append on the last day: the histories fold the new events alone.
    t.ok("cash", "Dagny", "+2", "--why", "a finder's fee")
    assert_same(store)
    # A fact logged late: the steps from its day on are folded again.
    t.ok("cash", "Nureddine", "+3", "--why", "a debt repaid", "--game-date", "1024-03-10")
    t.ok("rep", "River Guild", "-1", "--why", "a late slight", "--game-date", "1024-03-12")
    assert_same(store)
    # A void of an event long folded, and of the late fact itself.
    late = t.ok("log", "--type", "cash.changed", "--json").json[-1]["position"]
    t.ok("void", str(late), "--why", "never happened")
    assert_same(store)
    assert_same(store, Pin(as_of="1024-03-11"))
    store.dispose()


@pytest.mark.parametrize("script", ["wolves-start.tally", "bifrost-gods.tally", "skirmish-battle.tally"])
def test_kept_histories_tell_the_other_rulebooks_figures_as_a_fold_does(tally_sqlite, script):
    t = tally_sqlite
    t.ok("script", str(FIXTURES / script), "--quiet")
    store = Store(t.url, create=False)
    assert_same(store)
    store.dispose()


def test_a_point_before_the_head_is_told_by_a_fold(tally_sqlite):
    t = tally_sqlite
    t.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    store = Store(t.url, create=False)
    kept.keep_up(store, None)
    with store.reading() as tx:
        ctx = load(tx, None, point=Pin(at_event=100))
        assert views._kept_steps(ctx, "company") is None  # it sees less than the whole log
    shown = t.ok("why", "Nureddine", "cash", "--at-event", "100", "--json").json
    assert shown["changes"] and all(r["position"] <= 100 for r in shown["changes"])
    store.dispose()


def test_a_forged_kept_step_is_never_believed(tally_sqlite):
    import msgspec

    t = tally_sqlite
    t.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    honest = t.ok("why", "Nureddine", "cash", "--json").json
    store = Store(t.url, create=False)
    with store.transaction() as tx:
        # A writer of the database, without the ledger's secrets, turns a step into Cash 9999.
        row = tx.conn.execute(sa.text("SELECT subject, game_time, position, data FROM kept_steps "
                                      "WHERE subject = 'character:nureddine' ORDER BY game_time DESC LIMIT 1")).first()
        chunk = msgspec.msgpack.decode(bytes(row.data))
        day, position, kind, fields, void, late = chunk[-1]
        chunk[-1] = [day, position, kind, {**fields, "cash": 9999}, void, late]
        tx.conn.execute(sa.text("UPDATE kept_steps SET data = :d WHERE subject = :s AND position = :p"),
                        {"d": msgspec.msgpack.encode(chunk), "s": row.subject, "p": row.position})
    shown = t.ok("why", "Nureddine", "cash", "--json")
    assert shown.json == honest and 9999 not in [r["after"] for r in shown.json["changes"]]
    assert "kept histories" in shown.stderr and "ignored" in shown.stderr
    store.dispose()


def test_a_kept_row_copied_from_another_subject_is_never_believed(tally_sqlite):
    t = tally_sqlite
    t.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    honest = t.ok("why", "Dagny", "cash", "--json").json
    store = Store(t.url, create=False)
    with store.transaction() as tx:  # Nureddine's chunks, MACs and all, filed as Dagny's
        tx.conn.execute(sa.text("DELETE FROM kept_steps WHERE subject = 'character:dagny'"))
        tx.conn.execute(sa.text("INSERT INTO kept_steps SELECT campaign, 'character:dagny', game_time, position, "
                                "last_time, data, mac FROM kept_steps WHERE subject = 'character:nureddine'"))
    shown = t.ok("why", "Dagny", "cash", "--json")
    assert shown.json == honest and "ignored" in shown.stderr
    store.dispose()


def test_without_the_ledgers_secrets_the_kept_histories_are_not_used(tally_sqlite, tmp_path):
    t = tally_sqlite
    t.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    store = Store(t.url, create=False)
    kept.keep_up(store, None)
    with store.reading() as tx:
        ctx = load(tx, None)
        assert views._kept_steps(ctx, "company") is not None
        key_ = kept.derived_key(tx, create=False)
    assert key_ is not None
    # A copy of the database file alone (its secrets stay with the referee) folds afresh.
    import shutil
    copy = tmp_path / "copy.db"
    shutil.copy(t.url.removeprefix("sqlite:///"), copy)
    other = Store(f"sqlite:///{copy}", create=False)
    with other.reading() as tx:
        ctx = load(tx, None)
        assert views._kept_steps(ctx, "company") is None
        assert views.figure_story(ctx, "Nureddine", "cash")[2] == views.figure_story(ctx, "Nureddine", "cash",
                                                                                       views.fold(ctx))[2]
    other.dispose()
    store.dispose()


def test_a_reader_role_is_told_the_same_story_without_the_derived_data_key(pg_server):
    from tests.conftest import Tally, reader_role

    url = pg_server.new_database()
    referee = Tally(url)
    referee.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    honest = referee.ok("why", "Dagny", "cash", "--json").json  # keeps the histories, under the referee's key
    referee.ok("cash", "Dagny", "+1", "--why", "after the histories were kept")
    with reader_role(pg_server, url, referee, "reader") as (reader, _):
        told = reader.ok("why", "Dagny", "cash", "--json").json  # folded: the key is not the reader's to read
        assert told["changes"][:-1] == honest["changes"] and told["value"] == honest["value"] + 1
        assert told == referee.ok("why", "Dagny", "cash", "--json").json


def test_small_chunks_are_rewritten_right_as_the_ledger_grows(tally_sqlite, monkeypatch):
    from ledger import kept_rows

    monkeypatch.setattr(kept_rows, "CHUNK", 3)  # every history spans many rows: appends and refolds cross them
    t = tally_sqlite
    t.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    store = Store(t.url, create=False)
    assert_same(store)
    t.ok("cash", "Dagny", "+2", "--why", "a finder's fee")
    t.ok("cash", "Dagny", "+1", "--why", "another")
    assert_same(store)
    t.ok("cash", "Dagny", "+3", "--why", "late", "--game-date", "1024-03-10")
    assert_same(store)
    with store.reading() as tx:
        sizes = [len(__import__("msgspec").msgpack.decode(bytes(d))) for (d,) in
                 tx.conn.execute(sa.text("SELECT data FROM kept_steps"))]
    assert max(sizes) <= 3 and len(sizes) > 30
    store.dispose()


def test_a_page_of_a_story_is_the_end_of_the_whole_story(tally):
    t = tally
    t.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    store = Store(t.url, create=False)
    kept.keep_up(store, None)
    with store.reading() as tx:
        ctx = load(tx, None)
        whole = views.figure_story(ctx, "Dagny", "cash", views.fold(ctx))[2]
        pages, before = [], None
        while True:  # walked back a page of three rows at a time, as the why page's links do
            _, _, rows, before = views.figure_story_page(ctx, "Dagny", "cash", before=before, count=3)
            pages = rows + pages
            if before is None:
                break
        assert len(whole) > 6 and pages == whole


@pytest.mark.parametrize("script", ["open-table.tally", "bifrost-gods.tally", "skirmish-battle.tally",
                                    "wolves-start.tally"])
def test_only_the_wolves_sheet_reads_the_campaigns_days(tally_sqlite, script):
    """The histories skip the sheets of an event that moved only the campaign's days (kept.py
    ``_day_alone``): that holds while no sheet but the Wolves one reads today or the world's date.
    Moved a year on, every other rulebook's sheets are the same; a Wolves sheet's are not (its
    wages owed grow by the day), which shows the comparison can tell."""
    from msgspec.structs import replace

    tally_sqlite.ok("script", str(FIXTURES / script), "--quiet")
    store = Store(tally_sqlite.url, create=False)
    with store.reading() as tx:
        world = load(tx, None).world
    later = replace(world, campaign=replace(world.campaign, today=world.campaign.today + 365,
                                            world_day=world.campaign.world_day + 365))
    subjects = kept._subjects(world)
    assert len(subjects) > 1
    now = {s: kept._figures(world, s) for s in subjects}
    moved = {s: kept._figures(later, s) for s in subjects}
    assert (now != moved) == world.campaign.runs("wolves")
    assert kept._day_alone(world.campaign, later.campaign) == (not world.campaign.runs("wolves"))
    store.dispose()
