"""Dice secrets kept where readers of the ledger cannot read them (issue 13, item 2):
a separate 0600 file beside a SQLite ledger, a table no reader's role is granted on
PostgreSQL, every seed checked against its commitment before it is used or revealed."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from projections.reading import load
from ledger.secrets import DICE_SEED, file_beside
from ledger.store import Store
from tests import independent_verifier
from tests.conftest import Tally, kept_seed


def db_path(url: str) -> Path:
    return Path(url[len("sqlite:///"):])


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def holds(path: Path, seed: str) -> bool:
    """Whether the file's bytes hold the seed, as hex or as its 32 raw bytes."""
    data = path.read_bytes()
    return seed.encode() in data or bytes.fromhex(seed) in data


def sqlite_files(path: Path) -> list[Path]:
    return [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")) if p.exists()]


# -- the finding: the next rolls cannot be derived from the database file alone --------

def test_a_copy_of_the_database_file_alone_reads_and_verifies_but_cannot_roll(tally_sqlite, tmp_path):
    t = tally_sqlite
    t.ok("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01")
    t.ok("player", "add", "Ann")
    t.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "5", "--wealth", "2")
    t.ok("roll", "2d6")
    seed = kept_seed(t.url, 1)
    path = db_path(t.url)
    assert all(not holds(f, seed) for f in sqlite_files(path))  # the tester's prediction has nothing to start from
    elsewhere = tmp_path / "copy"
    elsewhere.mkdir()
    shutil.copy(path, elsewhere / "tally.db")
    copy = Tally(f"sqlite:///{elsewhere / 'tally.db'}")
    assert "chain intact" in copy.ok("verify").stdout
    assert copy.ok("char", "show", "Bo", "--json").json["name"] == "Bo"
    assert copy.ok("audit", "--json").json["ok"]
    for args in (("roll", "1d6"), ("dice", "reveal"), ("session", "open", "--activate", "Bo")):
        refused = copy.refused(*args).stderr
        assert "is not in the secrets file" in refused and str(elsewhere / "tally.db.secrets") in refused
    assert copy.ok("roll", "2d6", "--dice", "3,4", "--json").json["verifiable"] is False
    # where the secrets are, the next rolls are exactly what the seed says (and only there)
    for nonce in (1, 2, 3):
        rolled = t.ok("roll", "3d6", "--json").json
        assert rolled["nonce"] == nonce and rolled["dice"] == independent_verifier.faces(seed, "", nonce, "3d6")


def test_export_and_the_database_file_hold_no_unrevealed_seed(campaign, tmp_path):
    campaign.ok("roll", "2d6")
    seed = kept_seed(campaign.url, 1)
    out = tmp_path / "log.jsonl"
    campaign.ok("export", str(out))
    assert not holds(out, seed)
    if campaign.url.startswith("sqlite"):
        assert all(not holds(f, seed) for f in sqlite_files(db_path(campaign.url)))
        assert holds(file_beside(db_path(campaign.url)), seed)
    revealed = campaign.ok("dice", "reveal", "--json").json
    assert revealed["seed"] == seed
    campaign.ok("export", str(out), "--force")
    assert holds(out, seed)  # once revealed, it belongs to the log
    assert not holds(out, kept_seed(campaign.url, 2))


# -- file modes --------------------------------------------------------------------------

def test_a_new_ledger_and_its_secrets_are_created_0600(tally_sqlite):
    t = tally_sqlite
    os.umask(old := os.umask(0))  # the usual umask would give SQLite's 0644
    try:
        t.ok("campaign", "new", "G", "--start", "1024-03-01")
    finally:
        os.umask(old)
    path = db_path(t.url)
    secrets = file_beside(path)
    assert secrets == Path(f"{path}.secrets")
    assert mode(path) == 0o600 and mode(secrets) == 0o600
    _assert_sidecars(path, 0o600)
    _assert_sidecars(secrets, 0o600)


def _assert_sidecars(path: Path, expected: int) -> None:
    """While a connection is open in WAL mode, its -wal and -shm files exist: their modes."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE IF NOT EXISTS mode_probe (x)")  # a write, so the -wal file grows
        conn.execute("ROLLBACK")
        sidecars = [Path(f"{path}-wal"), Path(f"{path}-shm")]
        assert all(p.exists() for p in sidecars)
        assert [mode(p) for p in sidecars] == [expected, expected]
    finally:
        conn.close()


def test_tally_db_mode_asks_for_another_mode_for_the_ledger_but_never_for_its_secrets(tmp_path):
    t = Tally(f"sqlite:///{tmp_path / 'shared.db'}")
    assert t("campaign", "new", "G", "--start", "1024-03-01", env={"TALLY_DB_MODE": "0640"}).exit_code == 0
    path = db_path(t.url)
    assert mode(path) == 0o640 and mode(file_beside(path)) == 0o600
    _assert_sidecars(path, 0o640)
    _assert_sidecars(file_beside(path), 0o600)


@pytest.mark.parametrize("value", ["abc", "0400", "1777", "-1", "6 4 0"])
def test_a_bad_tally_db_mode_is_refused_in_one_line(tmp_path, value):
    t = Tally(f"sqlite:///{tmp_path / 'tally.db'}")
    outcome = t("campaign", "new", "G", "--start", "1024-03-01", env={"TALLY_DB_MODE": value})
    assert outcome.exit_code == 1 and outcome.stderr.count("\n") == 1, outcome
    assert "TALLY_DB_MODE must be an octal file mode" in outcome.stderr
    assert not (tmp_path / "tally.db").exists() and not (tmp_path / "tally.db.secrets").exists()


def test_a_secrets_file_others_may_read_is_refused_until_it_is_0600_again(tally_sqlite):
    t = tally_sqlite
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    secrets = file_beside(db_path(t.url))
    os.chmod(secrets, 0o644)  # say, copied by hand with a loose umask
    for args in (("roll", "1d6"), ("dice", "reveal")):
        assert f"(mode 0644), so they could predict its rolls: run `chmod 600 {secrets}`" in t.refused(*args).stderr
    os.chmod(secrets, 0o600)
    assert t.ok("roll", "1d6", "--json").json["verifiable"] is True


# -- each seed is checked against its commitment ----------------------------------------

def swap_seed(url: str, number: int, seed: str) -> None:
    """Replace an epoch's kept seed by hand, as someone with the secrets' file or table could."""
    store = Store(url, create=False)
    with store.reading() as tx:
        ctx = load(tx, None)
        name, commitment = ctx.name, ctx.dice.epoch(number).commitment
    if store.engine.dialect.name == "sqlite":
        conn = sqlite3.connect(store.secrets.path)
        conn.execute("DROP TRIGGER IF EXISTS ledger_secrets_no_update")
        conn.execute("UPDATE ledger_secrets SET value = ? WHERE name = ?", (seed, commitment))
        conn.commit()
        conn.close()
    else:
        with store.engine.begin() as conn:
            conn.execute(sa.text("DROP TRIGGER IF EXISTS ledger_secrets_no_change ON ledger_secrets"))
            conn.execute(sa.text("UPDATE ledger_secrets SET value = :v WHERE kind = :k AND campaign = :c "
                                 "AND name = :n"), {"v": seed, "k": DICE_SEED, "c": name, "n": commitment})
    store.dispose()


@pytest.mark.parametrize("planted", ["ab" * 32, "not a seed at all", ""])
def test_a_seed_that_does_not_match_its_commitment_is_neither_rolled_nor_revealed(campaign, planted):
    campaign.ok("roll", "2d6")
    true_seed = kept_seed(campaign.url, 1)
    swap_seed(campaign.url, 1, planted)
    for args in (("roll", "1d6"), ("dice", "reveal")):
        refused = campaign.refused(*args).stderr
        assert "does not match its commitment" in refused
    assert campaign.ok("dice", "epochs", "--json").json[0]["seed"] is None  # nothing was revealed
    swap_seed(campaign.url, 1, true_seed)
    assert campaign.ok("dice", "reveal", "--json").json["seed"] == true_seed
    assert campaign.ok("audit", "--json").json["ok"]


def test_session_open_and_close_check_the_seed_they_reveal(table):
    table.ok("session", "open", "--activate", "Nureddine")
    swap_seed(table.url, 2, "cd" * 32)  # the session's epoch
    assert "does not match its commitment" in table.refused("session", "close", "--days", "1").stderr


def test_a_secrets_file_that_is_not_sqlite_refuses_every_roll_and_new_epoch_writing_nothing(tally_sqlite):
    t = tally_sqlite
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    secrets = file_beside(db_path(t.url))
    secrets.write_bytes(b"this is not a database" * 100)
    for args in (("roll", "1d6"), ("dice", "reveal"), ("campaign", "new", "H", "--start", "1024-03-01")):
        assert "secrets file" in t.refused(*args).stderr
    # campaign new H draws a new seed: writing it failed first, so its events were never committed
    assert t.ok("campaign", "list", "--json").json and len(t.ok("campaign", "list", "--json").json) == 1


# -- the crash order: the secret is committed first ------------------------------------

CRASH = r"""
import os, sys
from projections.reading import load
from commands.dice import reveal_events
from ledger.store import Store
store = Store(sys.argv[1])
with store.transaction() as tx:
    ctx = load(tx, None, "referee")
    tx.append(ctx.name, reveal_events(ctx), actor="referee")  # reveals epoch 1, commits epoch 2
    tx.write_secrets()  # what the store does just before the commit
    print(tx.secrets.path, flush=True)
    os._exit(9)  # the machine dies between the secret's commit and the events'
"""


def test_a_crash_between_the_secret_and_its_commitment_leaves_only_an_orphan_secret(tally_sqlite):
    t = tally_sqlite
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    first = t.ok("roll", "2d6", "--json").json
    crashed = subprocess.run([sys.executable, "-c", CRASH, t.url], capture_output=True, text=True)
    assert crashed.returncode == 9, crashed.stderr
    kept = sqlite3.connect(crashed.stdout.strip())
    assert kept.execute("SELECT count(*) FROM ledger_secrets").fetchone()[0] == 2  # epoch 1's, and the orphan
    kept.close()
    assert [e["type"] for e in t.ok("log", "--json").json][-1] == "dice.rolled"  # nothing of the reveal
    assert t.ok("roll", "2d6", "--json").json["nonce"] == first["nonce"] + 1  # epoch 1 rolls on
    revealed = t.ok("dice", "reveal", "--json").json
    assert revealed["epoch"] == 1 and revealed["rolls"] == 2
    assert t.ok("roll", "2d6", "--json").json["epoch"] == 2
    assert t.ok("audit", "--json").json["ok"]


def test_a_refused_command_keeps_no_secret(tally_sqlite):
    t = tally_sqlite
    t.ok("campaign", "new", "G", "--start", "1024-03-01")
    secrets = file_beside(db_path(t.url))
    count = lambda: sqlite3.connect(secrets).execute("SELECT count(*) FROM ledger_secrets").fetchone()[0]  # noqa: E731
    before = count()
    t.refused("session", "close")  # no session is open
    t.refused("campaign", "new", "G", "--start", "1024-03-01")
    assert count() == before


# -- PostgreSQL: a reader's role ---------------------------------------------------------

def test_grant_reader_lets_a_role_read_the_ledger_but_not_its_secrets(pg_server, tmp_path):
    import psycopg

    url = pg_server.new_database()
    referee = Tally(url)
    referee.ok("campaign", "new", "G", "--rules", "coeac", "--start", "1024-03-01")
    referee.ok("player", "add", "Ann")
    referee.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "5")
    referee.ok("roll", "2d6")
    role = f"player_{os.getpid()}"
    database = url.rsplit("/", 1)[1]
    admin = f"host=127.0.0.1 port={pg_server.port} user=tally dbname=postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN')  # loopback trusts every role (ledger/pgserver.py)
    try:
        assert "no PostgreSQL role named 'nobody'" in referee.refused("db", "grant-reader", "nobody").stderr
        assert "can read the dice secrets whatever is granted" in referee.refused("db", "grant-reader", "tally").stderr
        assert "not ledger_secrets" in referee.ok("db", "grant-reader", role).stdout
        reader = Tally(url.replace("tally@", f"{role}@"))
        assert reader.ok("char", "show", "Bo", "--json").json["player"] == "Ann"
        assert len(reader.ok("log", "--json").json) == 5
        assert "chain intact" in reader.ok("verify").stdout
        # Refused at the write lock, before any secret is asked for (a reader cannot take it: ledger/pgroles.py);
        # that the secrets themselves stay unreadable is shown below, straight to the table.
        assert "only reads the ledger" in reader.refused("roll", "1d6").stderr
        assert "only reads the ledger" in reader.refused("dice", "reveal").stderr
        assert "only reads the ledger" in reader.refused("roll", "1d6", "--dice", "3").stderr
        assert "only reads the ledger" in reader.refused("player", "add", "Cy").stderr
        referee.ok("keys", "new", "--key-file", str(tmp_path / "referee.key"))
        referee.ok("checkpoint", "--key-file", str(tmp_path / "referee.key"))
        assert reader.ok("proof", "3").stdout.startswith("c2sp.org/tlog-proof@v1\n")  # the tree is theirs to read
        assert "1 recorded checkpoint(s) hold" in reader.ok("verify").stdout
        with psycopg.connect(f"host=127.0.0.1 port={pg_server.port} user={role} dbname={database}") as conn:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("SELECT * FROM ledger_secrets")
        process = subprocess.run([str(Path(sys.executable).parent / "tally"), "--db", reader.url, "roll", "1d6"],
                                 capture_output=True, text=True)
        assert process.returncode == 1 and process.stderr.count("\n") == 1 and "Traceback" not in process.stderr
        assert referee.ok("roll", "1d6", "--json").json["nonce"] == 1  # the referee rolls on
    finally:
        with psycopg.connect(admin.replace("dbname=postgres", f"dbname={database}"),
                             autocommit=True) as conn:
            conn.execute(f'DROP OWNED BY "{role}"')  # its grants, in this database
            conn.execute(f'DROP ROLE "{role}"')


def test_grant_reader_on_sqlite_is_refused_in_one_line(tally_sqlite):
    tally_sqlite.ok("campaign", "new", "G", "--start", "1024-03-01")
    refused = tally_sqlite.refused("db", "grant-reader", "ann").stderr
    assert "for PostgreSQL" in refused and "0600" in refused


def test_no_role_but_the_owner_may_read_the_secrets_table(pg_server):
    url = pg_server.new_database()
    Tally(url).ok("campaign", "new", "G", "--start", "1024-03-01")
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        acl = conn.execute(sa.text("SELECT relacl::text FROM pg_class WHERE relname = 'ledger_secrets'")).scalar()
        public = conn.execute(sa.text("SELECT has_table_privilege('public', 'ledger_secrets', 'SELECT')")).scalar()
    engine.dispose()
    assert public is False
    assert acl is None or not any(entry.startswith("=") for entry in acl.strip("{}").split(","))
