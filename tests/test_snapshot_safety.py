"""Snapshots hold plain data and are never believed blindly (issue 13, item 1;
issue 25, item 2).

Anyone who can write the database can plant a row in `snapshots`, and can
recompute any digest that needs no secret. A planted old-style snapshot (a
pickle that would run a command) is never executed. A snapshot is believed
only if its MAC holds under the ledger's snapshot key, kept with its secrets
(the 0600 file beside a SQLite ledger, a table a reader's role cannot read
on PostgreSQL): a well-formed forgery with its plain digest recomputed, or
with a MAC copied from another row or campaign, or made under another key,
is ignored by every query, with a one-line note. `tally verify` holds every
snapshot against a fold of the log, so it catches even one sealed with the
ledger's own key. Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
import sqlalchemy as sa
from msgspec.structs import replace

from ledger import snapshot_mac
from ledger.store import Store
from projections import snapshots
from tests.forgery import plain_digest
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


SEALED = "sealed"  # put_row's digest: a MAC made with the ledger's own key (a holder of its secrets)


def put_row(url: str, position: int, state: bytes, *, blobs: dict[str, bytes] | None = None,
            event_hash: str | None = None, digest: str | None = None, campaign: str = CAMPAIGN,
            key: bytes | None = None) -> None:
    """Write a snapshot row by hand at ``position`` — as an attacker with the
    database would — tiled after the last one, bound to the event there (or to
    ``event_hash``), with a plain digest recomputed over it as the store once
    computed it (or ``digest``; SEALED: a MAC made with ``key``, by default
    the ledger's own)."""
    blobs = blobs or {}
    store = Store(url)
    with store.transaction() as tx:
        last = tx.last_tile(campaign)
        since = last.position if last else 0
        if last is not None and last.position == position:
            since = last.since
            tx.conn.execute(sa.text("DELETE FROM snapshots WHERE campaign = :c AND position = :p"),
                            {"c": campaign, "p": position})
            last = tx.snapshot_tiles(campaign)[-1] if tx.snapshot_tiles(campaign) else None
        first_day, last_day = tx.game_days(campaign, since, position)
        last_day = max(last_day, last.max_game_time) if last else last_day
        bound = event_hash or tx.get(position).hash
        names = sorted(blobs)
        fields = dict(since=since, min_game_time=first_day, max_game_time=last_day, event_hash=bound, blobs=names,
                      state=state)
        if digest == SEALED:
            digest = snapshot_mac.seal(key or tx.snapshot_key(), campaign, position, **fields)
        row = {"campaign": campaign, "position": position, "since": since, "min_game_time": first_day,
               "max_game_time": last_day, "blobs": json.dumps(names), "event_hash": bound, "state": state,
               "digest": digest or plain_digest(campaign, position, **fields)}
        tx.conn.execute(sa.text("INSERT INTO snapshots (campaign, position, since, min_game_time, max_game_time, "
                                "blobs, event_hash, digest, state) VALUES (:campaign, :position, :since, "
                                ":min_game_time, :max_game_time, :blobs, :event_hash, :digest, :state)"), row)
        for name, data in blobs.items():
            tx.conn.execute(sa.text("INSERT INTO snapshot_blobs (campaign, digest, data) "
                                    "SELECT :c, :d, :data WHERE NOT EXISTS (SELECT 1 FROM snapshot_blobs "
                                    "WHERE campaign = :c AND digest = :d)"), {"c": campaign, "d": name, "data": data})
    store.dispose()


def stored_digest(url: str, campaign: str, position: int) -> str:
    store = Store(url)
    with store.reading() as tx:
        digest = tx.conn.execute(sa.text("SELECT digest FROM snapshots WHERE campaign = :c AND position = :p"),
                                 {"c": campaign, "p": position}).scalar_one()
    store.dispose()
    return digest


def the_world(url: str, position: int, campaign: str = CAMPAIGN):
    from projections import replay
    from projections.timeline import Point

    store = Store(url)
    with store.reading() as tx:
        world = replay.world_at(tx, campaign, Point(), use_snapshots=False, upto=position)
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
    assert f"{NOTE} {position} carries no MAC (an older tally's, or forged) and was ignored" in shown.stderr
    assert len(shown.stderr.strip().splitlines()) == 1
    sheet = table.ok("char", "show", "Nureddine", "--json")
    assert sheet.json["cash"] == true_cash and NOTE in sheet.stderr

    verified = table("verify")  # held against the fold all the same: it is no snapshot at all
    assert verified.exit_code == 1
    assert f"the snapshot of campaign {CAMPAIGN} at event {position} failed its check (its state is not a " \
           "snapshot this tally wrote)" in verified.stderr
    assert "tally db snapshot --drop rebuilds them" in verified.stderr
    assert len(verified.stderr.strip().splitlines()) == 1
    assert not marker.exists()

    # The next command's snapshot replaces it (a row without a MAC is never used: nothing is lost).
    table.ok("cash", "Nureddine", "+2", "--why", "a command after the planted row")
    after = table.ok("char", "show", "Nureddine", "--json")
    assert after.json["cash"] == true_cash + 2 and after.stderr == ""
    assert table.ok("verify").stderr == ""
    assert not marker.exists()


def forged_cash(url: str, position: int):
    state, blobs = snapshots.dump(with_cash(the_world(url, position), "nureddine", 9999))
    return state, blobs


FORGERIES = ["plain digest recomputed", "MAC of the true row", "MAC of another campaign's row",
             "another campaign's row whole", "MAC under another key"]


def forge(table, how: str) -> tuple[int, str]:
    """Plant a well-formed forgery at the head the way ``how`` says; the position and the note's reason."""
    position = head(table.url)
    if how == "plain digest recomputed":  # what anyone who can write the database can do
        state, blobs = forged_cash(table.url, position)
        put_row(table.url, position, state, blobs=blobs)
        return position, "carries no MAC"
    if how == "MAC of the true row":  # the row the ledger wrote there, its state swapped
        table.ok("db", "snapshot")
        genuine = stored_digest(table.url, CAMPAIGN, position)
        assert snapshot_mac.signed(genuine)
        state, blobs = forged_cash(table.url, position)
        put_row(table.url, position, state, blobs=blobs, digest=genuine)
        return position, "failed its check (its MAC does not hold)"
    if how in ("MAC of another campaign's row", "another campaign's row whole"):
        store = Store(table.url)
        with store.reading() as tx:
            row = tx.conn.execute(sa.text("SELECT * FROM snapshots WHERE campaign = 'Bifrost'")).one()
            theirs = dict(tx.snapshot("Bifrost", row.position)[1])
        store.dispose()
        if how == "MAC of another campaign's row":
            state, blobs = forged_cash(table.url, position)
            put_row(table.url, position, state, blobs=blobs, digest=row.digest)
        else:  # their state, blobs and MAC, fitted into this campaign's tiling and bound to its event
            put_row(table.url, position, row.state, blobs=theirs, digest=row.digest)
        return position, "failed its check (its MAC does not hold)"
    state, blobs = forged_cash(table.url, position)  # a MAC over exactly this row, under a key not the ledger's
    put_row(table.url, position, state, blobs=blobs, digest=SEALED, key=bytes(range(32)))
    return position, "failed its check (its MAC does not hold)"


@pytest.fixture
def two_campaigns(tally):
    """The open-table fixture campaign and the Bifrost one, in one ledger, both snapshotted, then
    one more event of the first after its snapshot."""
    played(tally, CAMPAIGN, None)
    played(tally, "Bifrost", "bifrost-gods.tally")
    tally.ok("db", "snapshot")
    tally.ok("--campaign", CAMPAIGN, "cash", "Nureddine", "+1", "--why", "after the snapshot")
    return tally


@pytest.mark.parametrize("how", FORGERIES)
def test_a_well_formed_forgery_is_ignored_by_every_query(two_campaigns, how):
    from tests.chronicle_support import get, serving
    from tests.test_chronicle_http import figure

    t = two_campaigns
    ask = lambda *args: t.ok("--campaign", CAMPAIGN, *args)  # noqa: E731
    truth = ask("char", "show", "Nureddine", "--json").json
    today = ask("campaign", "show", "--json").json["today"]
    told = ask("why", "Nureddine", "cash", "--json").json["value"]
    assert truth["cash"] == told != 9999
    position, reason = forge(t, how)

    note = f"{NOTE} {position} {reason}"
    for args in (("char", "show", "Nureddine", "--json"), ("char", "show", "Nureddine", "--as-of", today, "--json"),
                 ("char", "show", "Nureddine", "--at-event", str(position), "--json")):
        sheet = ask(*args)
        assert sheet.json["cash"] == truth["cash"], args
        assert note in sheet.stderr and len(sheet.stderr.strip().splitlines()) == 1, args
    why = ask("why", "Nureddine", "cash", "--json")
    assert why.json["value"] == told and note in why.stderr
    listed = {c["name"]: c for c in ask("char", "list", "--json").json}
    assert listed["Nureddine"]["cash"] == truth["cash"]

    store = Store(t.url, create=False)  # the chronicle, served: every page reads the campaign the same way
    try:
        with serving(store, CAMPAIGN) as base:
            assert figure(get(base)[1], "Nureddine.cash") == str(truth["cash"])
            assert figure(get(base + "character?name=Nureddine")[1], "Nureddine.cash") == str(truth["cash"])
            assert re.search(r"\b9999\b", get(base + "why?subject=Nureddine&field=cash")[1]) is None
    finally:
        store.dispose()

    verified = t("verify")
    assert verified.exit_code == 1 and f"the snapshot of campaign {CAMPAIGN} at event {position}" in verified.stderr


def test_a_forged_cash_sealed_with_the_ledgers_own_key_is_caught_by_verify(table):
    position = head(table.url)
    true_cash = table.ok("char", "show", "Nureddine", "--json").json["cash"]
    state, blobs = forged_cash(table.url, position)
    put_row(table.url, position, state, blobs=blobs, digest=SEALED)  # a holder of the secrets (or a bug)

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
    put_row(table.url, position, state, blobs=blobs, event_hash=other, digest=SEALED)  # its MAC made over it

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
    import msgspec

    assert type(back) is type(world), where
    if isinstance(world, msgspec.Struct):
        for name in world.__struct_fields__:
            assert_same_types(getattr(back, name), getattr(world, name), f"{where}.{name}")
    elif isinstance(world, dict):
        assert list(back) == list(world), where  # the order a listing shows, too
        for k in world:
            assert_same_types(back[k], world[k], f"{where}[{k!r}]")
    elif isinstance(world, (tuple, list)):
        for i, (b, w) in enumerate(zip(back, world)):
            assert_same_types(b, w, f"{where}[{i}]")
