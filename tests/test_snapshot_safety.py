"""Snapshots hold plain data and are never believed blindly (issue 13, item 1).

Anyone who can write the database can plant a row in `snapshots`. A planted
old-style snapshot (a pickle that would run a command) is never executed; a
forged one is ignored when its digest, its event or its blobs do not check
out, and `tally verify` catches the rest by folding the log. Every test runs
on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import subprocess
import sys
import zlib
from pathlib import Path

import pytest
import sqlalchemy as sa

from ledger.store import Store, snapshot_digest
from projections import snapshots
from projections.frozen import replace
from tests.test_world_fold import played

CAMPAIGN = "Central Oregon"
NOTE = f"tally: note: the snapshot of campaign {CAMPAIGN} at event"


@pytest.fixture
def table(tally):
    """The open-table fixture campaign, snapshotted, then one more event after the snapshot."""
    played(tally, CAMPAIGN, None)
    tally.ok("db", "snapshot")
    tally.ok("cash", "Nureddine", "+1", "--why", "after the snapshot")
    return tally


def head(url: str) -> int:
    store = Store(url)
    with store.reading() as tx:
        position = tx.head()[0]
    store.dispose()
    return position


def put_row(url: str, position: int, state: bytes, *, blobs: dict[str, bytes] | None = None,
            event_hash: str | None = None, digest: str | None = None) -> None:
    """Write a snapshot row by hand at ``position`` — as an attacker with the
    database would — tiled after the last one, bound to the event there (or to
    ``event_hash``), with a digest computed as the store computes it (or ``digest``)."""
    blobs = blobs or {}
    store = Store(url)
    with store.transaction() as tx:
        last = tx.last_tile(CAMPAIGN)
        since = last.position if last else 0
        if last is not None and last.position == position:
            since = last.since
            tx.conn.execute(sa.text("DELETE FROM snapshots WHERE position = :p"), {"p": position})
            last = tx.snapshot_tiles(CAMPAIGN)[-1] if tx.snapshot_tiles(CAMPAIGN) else None
        first_day, last_day = tx.game_days(CAMPAIGN, since, position)
        last_day = max(last_day, last.max_game_time) if last else last_day
        bound = event_hash or tx.get(position).hash
        names = sorted(blobs)
        row = {"campaign": CAMPAIGN, "position": position, "since": since, "min_game_time": first_day,
               "max_game_time": last_day, "blobs": "[" + ",".join(f'"{n}"' for n in names) + "]",
               "event_hash": bound, "state": state,
               "digest": digest or snapshot_digest(CAMPAIGN, position, since=since, min_game_time=first_day,
                                                   max_game_time=last_day, event_hash=bound, blobs=names,
                                                   state=state)}
        tx.conn.execute(sa.text("INSERT INTO snapshots (campaign, position, since, min_game_time, max_game_time, "
                                "blobs, event_hash, digest, state) VALUES (:campaign, :position, :since, "
                                ":min_game_time, :max_game_time, :blobs, :event_hash, :digest, :state)"), row)
        for name, data in blobs.items():
            tx.conn.execute(sa.text("INSERT INTO snapshot_blobs (campaign, digest, data) "
                                    "SELECT :c, :d, :data WHERE NOT EXISTS (SELECT 1 FROM snapshot_blobs "
                                    "WHERE campaign = :c AND digest = :d)"), {"c": CAMPAIGN, "d": name, "data": data})
    store.dispose()


def the_world(url: str, position: int):
    from projections import replay
    from projections.timeline import Point

    store = Store(url)
    with store.reading() as tx:
        world = replay.world_at(tx, CAMPAIGN, Point(), use_snapshots=False, upto=position)
    store.dispose()
    return world


def with_cash(world, character: str, cash: int):
    characters = dict(world.stable.characters)
    characters[character] = replace(characters[character], cash=cash)
    return replace(world, stable=replace(world.stable, characters=characters))


def old_style_pickle(marker: Path) -> bytes:
    """An old-style snapshot state: a zlib-compressed pickle whose loading runs
    `touch MARKER` (protocol-0 opcodes written by hand: GLOBAL os.system, a
    string argument, REDUCE)."""
    return zlib.compress(b"cos\nsystem\n(S'touch " + str(marker).encode() + b"'\ntR.")


def test_the_planted_payload_is_live_so_the_tests_below_prove_something(tmp_path):
    marker = tmp_path / "proof"
    payload = tmp_path / "payload"
    payload.write_bytes(old_style_pickle(marker))
    # The old loader's way, in a throwaway process: unpickling it runs the command.
    subprocess.run([sys.executable, "-c", "import pickle, sys, zlib; "
                    "pickle.loads(zlib.decompress(open(sys.argv[1], 'rb').read()))", str(payload)], check=True)
    assert marker.exists()


def test_a_planted_pickle_never_runs_and_is_reported(table, tmp_path):
    true_cash = table.ok("char", "show", "Nureddine", "--json").json["cash"]
    position = head(table.url)
    marker = tmp_path / "pwned"
    put_row(table.url, position, old_style_pickle(marker))  # a correct-looking digest and event hash

    shown = table.ok("campaign", "show")
    assert f"{NOTE} {position} failed its check (its state is not a snapshot this tally wrote) and was " \
           "ignored; run tally verify, then tally db snapshot --drop" in shown.stderr
    assert len(shown.stderr.strip().splitlines()) == 1
    sheet = table.ok("char", "show", "Nureddine", "--json")
    assert sheet.json["cash"] == true_cash and NOTE in sheet.stderr
    table.ok("cash", "Nureddine", "+2", "--why", "a command after the planted row")
    assert table.ok("char", "show", "Nureddine", "--json").json["cash"] == true_cash + 2

    verified = table("verify")
    assert verified.exit_code == 1
    assert f"the snapshot of campaign {CAMPAIGN} at event {position} failed its check" in verified.stderr
    assert "tally db snapshot --drop rebuilds them" in verified.stderr
    assert len(verified.stderr.strip().splitlines()) == 1
    assert not marker.exists()

    table.ok("db", "snapshot", "--drop")
    assert table.ok("verify").stderr == ""
    assert not marker.exists()


def test_a_forged_cash_with_a_stale_digest_is_ignored(table):
    position = head(table.url)
    true_cash = table.ok("char", "show", "Nureddine", "--json").json["cash"]
    assert true_cash != 9999
    state, blobs = snapshots.dump(with_cash(the_world(table.url, position), "nureddine", 9999))
    put_row(table.url, position, state, blobs=blobs, digest="0" * 64)

    sheet = table.ok("char", "show", "Nureddine", "--json")
    assert sheet.json["cash"] == true_cash
    assert f"{NOTE} {position} failed its check (digest mismatch)" in sheet.stderr
    assert table("verify").exit_code == 1


def test_a_forged_cash_with_its_digest_recomputed_is_caught_by_verify(table):
    position = head(table.url)
    true_cash = table.ok("char", "show", "Nureddine", "--json").json["cash"]
    state, blobs = snapshots.dump(with_cash(the_world(table.url, position), "nureddine", 9999))
    put_row(table.url, position, state, blobs=blobs)

    # Only a fold of the log can tell this one from the truth: verify does.
    verified = table("verify")
    assert verified.exit_code == 1
    assert f"the snapshot of campaign {CAMPAIGN} at event {position} does not agree with the log " \
           "(its stable differs from the fold)" in verified.stderr
    assert "tally db snapshot --drop rebuilds them" in verified.stderr
    as_json = table("verify", "--json")
    assert as_json.exit_code == 1 and as_json.json["snapshot"] == {
        "campaign": CAMPAIGN, "position": position, "problem": "does not agree with the log (its stable differs "
                                                               "from the fold)"}

    table.ok("db", "snapshot", "--drop")
    assert table.ok("verify", "--json").json["ok"]
    assert table.ok("char", "show", "Nureddine", "--json").json["cash"] == true_cash


def test_a_snapshot_bound_to_another_event_is_ignored(table):
    position = head(table.url)
    true_cash = table.ok("char", "show", "Nureddine", "--json").json["cash"]
    store = Store(table.url)
    with store.reading() as tx:
        other = tx.get(position - 1).hash
    store.dispose()
    state, blobs = snapshots.dump(with_cash(the_world(table.url, position), "nureddine", 9999))
    put_row(table.url, position, state, blobs=blobs, event_hash=other)  # its digest recomputed over it

    sheet = table.ok("char", "show", "Nureddine", "--json")
    assert sheet.json["cash"] == true_cash
    assert f"{NOTE} {position} failed its check (its event hash is not the hash of event {position}" in sheet.stderr
    assert "its event hash" in table("verify").stderr


def test_a_tampered_blob_is_ignored(tally, monkeypatch):
    from projections import sessions

    monkeypatch.setattr(sessions, "ARCHIVE_EVERY", 2)  # the fixture's ten sessions fill a few archives
    played(tally, CAMPAIGN, None)
    tally.ok("db", "snapshot")
    position = head(tally.url)
    before = tally.ok("session", "show", "3", "--json").json  # session 3: in a packed archive
    store = Store(tally.url)
    with store.transaction() as tx:
        name = tx.conn.execute(sa.text("SELECT digest FROM snapshot_blobs")).scalars().first()
        tx.conn.execute(sa.text("UPDATE snapshot_blobs SET data = :d WHERE digest = :n"),
                        {"d": zlib.compress(b"[]"), "n": name})
    store.dispose()
    listed = tally.ok("session", "show", "3", "--json")
    assert listed.json == before
    assert f"{NOTE} {position} failed its check (blob {name[:12]}… does not match its digest)" in listed.stderr


@pytest.mark.parametrize("campaign, script", [("Central Oregon", None), ("Wolves", "wolves-start.tally"),
                                              ("Bifrost", "bifrost-gods.tally")])
def test_a_world_comes_back_from_its_snapshot_exactly_as_it_went_in(tally, monkeypatch, campaign, script):
    """decode(encode(world)) == world, field by field and type by type (a
    tuple is not a list), at every position of each fixture campaign."""
    from projections import sessions
    from projections import world as world_model
    from projections.timeline import visible

    monkeypatch.setattr(sessions, "ARCHIVE_EVERY", 3)  # closed sessions both packed and not
    store = Store(played(tally, campaign, script))
    envelopes = visible(store.read(campaign))
    store.dispose()
    world, archived = world_model.EMPTY, 0
    for e in envelopes:
        world = world_model.apply(world, e)
        state, blobs = snapshots.dump(world)
        back = snapshots.load(state, blobs)
        assert back == world, e.position
        archived = max(archived, len(back.sessions.archived))
    assert archived > 0 or campaign != "Central Oregon"
    assert_same_types(snapshots.load(*snapshots.dump(world)), world)


def assert_same_types(back, world, where="world"):
    """Equal is not enough where a list equals nothing but a list: the types must match all the way down."""
    import dataclasses

    assert type(back) is type(world), where
    if dataclasses.is_dataclass(world):
        for f in dataclasses.fields(world):
            assert_same_types(getattr(back, f.name), getattr(world, f.name), f"{where}.{f.name}")
    elif isinstance(world, dict):
        assert list(back) == list(world), where  # the order a listing shows, too
        for k in world:
            assert_same_types(back[k], world[k], f"{where}[{k!r}]")
    elif isinstance(world, (tuple, list)):
        for i, (b, w) in enumerate(zip(back, world)):
            assert_same_types(b, w, f"{where}[{i}]")
