"""The schema's history: an empty database upgrades to head with no drift,
and an old or foreign database is refused with what to do."""

import os
from pathlib import Path

import pytest
import sqlalchemy as sa

from ledger.errors import StoreError
from ledger.schema import SCHEMA_REVISION, target_metadata
from ledger.store import Store


def test_upgrade_from_empty_matches_the_metadata(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    store = Store(db_url)  # a new database is migrated on first use
    assert store.schema_revision() == SCHEMA_REVISION
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), target_metadata(conn.dialect.name))
    assert diff == []
    store.dispose()


def test_an_older_schema_is_refused_until_db_upgrade(tmp_path):
    from tests.conftest import Tally

    url = f"sqlite:///{tmp_path / 'old.db'}"
    Store(url).dispose()
    engine = sa.create_engine(url)
    older = Store.known_revisions()[-2]
    with engine.begin() as conn:
        conn.execute(sa.text(f"UPDATE alembic_version SET version_num = '{older}'"))
    engine.dispose()
    with pytest.raises(StoreError, match=f"has schema revision {older}, this tally uses {SCHEMA_REVISION}: "
                                         "run `tally db upgrade`"):
        Store(url)
    tally = Tally(url)
    refused = tally("campaign", "list")
    assert refused.exit_code == 1 and "tally db upgrade" in refused.stderr


NEWER = "0099_from_a_later_tally"


def test_a_schema_newer_than_this_tally_is_refused_in_one_line_by_every_command(db_url):
    # A ledger a later tally migrated: db upgrade cannot go back, and no command reads it as its own.
    from tests.conftest import Tally

    tally = Tally(db_url)
    tally.ok("campaign", "new", "Greyhawk", "--start", "1024-03-01")
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(sa.text(f"UPDATE alembic_version SET version_num = '{NEWER}'"))
    try:
        for command in (("db", "upgrade"), ("db", "status"), ("log",), ("roll", "1d6")):
            outcome = tally(*command)
            assert outcome.exit_code == 1 and outcome.stdout == "", (command, outcome)
            (line,) = outcome.stderr.splitlines()
            assert f"has schema revision '{NEWER}', which this tally does not know (the newest it knows is " \
                   f"{SCHEMA_REVISION}): a newer tally wrote it; upgrade tally" in line, (command, line)
            assert "internal error" not in line
        with engine.connect() as conn:  # db upgrade changed nothing, not even the revision
            assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == NEWER
            assert conn.execute(sa.text("SELECT count(*) FROM events")).scalar() == 2
    finally:
        engine.dispose()


def test_db_upgrade_creates_and_reports(tmp_path):
    from tests.conftest import Tally

    tally = Tally(f"sqlite:///{tmp_path / 'new.db'}")
    assert f"none -> {SCHEMA_REVISION}" in tally.ok("db", "upgrade").stdout
    assert f"{SCHEMA_REVISION} -> {SCHEMA_REVISION}" in tally.ok("db", "upgrade").stdout
    status = tally.ok("db", "status", "--json").json
    assert status["schema"] == SCHEMA_REVISION and status["events"] == 0


def test_a_database_that_is_not_a_ledger_is_refused_for_reading(tmp_path):
    path = tmp_path / "other.db"
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE notes (x int)"))
    engine.dispose()
    with pytest.raises(StoreError, match=r"is a SQLite database that is not a tally ledger \(it has tables notes\)"):
        Store(f"sqlite:///{path}", create=False)


def test_db_upgrade_migrates_a_ledger_at_the_previous_revision(tmp_path):
    from alembic import command
    from alembic.config import Config

    import migrations
    from tests.conftest import Tally

    url = f"sqlite:///{tmp_path / 'v1.db'}"
    engine = sa.create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
    engine.dispose()
    tally = Tally(url)
    assert "run `tally db upgrade`" in tally("campaign", "list").stderr
    assert f"0001 -> {SCHEMA_REVISION}" in tally.ok("db", "upgrade").stdout
    tally.ok("campaign", "new", "G", "--start", "1024-03-01")
    tally.ok("db", "snapshot")


def _at_revision(url: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    import migrations

    engine = sa.create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        if sa.inspect(conn).has_table("alembic_version"):
            command.downgrade(config, revision)
        else:
            command.upgrade(config, revision)
    engine.dispose()


def test_0005_moves_an_unrevealed_seed_out_of_the_ledger_and_the_roll_still_derives(db_url, tmp_path):
    """A ledger at 0004 kept its seeds in dice_secrets, beside the events: after the
    upgrade the same epoch rolls on from the same seed, and the ledger itself holds none."""
    from ledger.secrets import file_beside
    from tests import independent_verifier
    from tests.conftest import Tally
    from tests.test_secrets import holds, kept_seed

    # The events a 0004 tally recorded (a campaign, one roll), and its seed in dice_secrets.
    source = Tally(f"sqlite:///{tmp_path / 'source.db'}")
    source.ok("campaign", "new", "G", "--start", "1024-03-01")
    source.ok("dice", "client-seed", "ours")
    source.ok("roll", "2d6")
    seed = kept_seed(source.url, 1)
    _at_revision(db_url, "0004")
    engine = sa.create_engine(db_url)
    with sa.create_engine(source.url).connect() as read, engine.begin() as write:
        rows = [dict(row._mapping) for row in read.execute(sa.text("SELECT * FROM events ORDER BY position"))]
        write.execute(sa.text(f"INSERT INTO events ({', '.join(rows[0])}) VALUES "
                              f"({', '.join(':' + c for c in rows[0])})"), rows)
        write.execute(sa.text("INSERT INTO dice_secrets VALUES ('G', 1, :s)"), {"s": seed})
    engine.dispose()
    tally = Tally(db_url)
    sqlite = db_url.startswith("sqlite")
    path = Path(db_url[len("sqlite:///"):]) if sqlite else None
    if sqlite:
        assert holds(path, seed) and not file_beside(path).exists()  # the finding, at 0004

    assert f"0004 -> {SCHEMA_REVISION}" in tally.ok("db", "upgrade").stdout
    rolled = tally.ok("roll", "3d6", "--json").json
    assert (rolled["epoch"], rolled["nonce"]) == (1, 1)
    assert rolled["dice"] == independent_verifier.faces(seed, "ours", 1, "3d6")
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        assert not sa.inspect(conn).has_table("dice_secrets")
    engine.dispose()
    if sqlite:
        assert file_beside(path).exists() and os.stat(file_beside(path)).st_mode & 0o777 == 0o600
        for part in (path, Path(f"{path}-wal")):
            assert not part.exists() or not holds(part, seed)
    revealed = tally.ok("dice", "reveal", "--json").json
    assert revealed["seed"] == seed and revealed["rolls"] == 2
    assert tally.ok("audit", "--json").json["ok"]


def test_0005_downgrades_back_into_dice_secrets(db_url):
    from tests.conftest import Tally
    from tests.test_secrets import kept_seed

    tally = Tally(db_url)
    tally.ok("campaign", "new", "G", "--start", "1024-03-01")
    tally.ok("dice", "reveal")
    seeds = {1: kept_seed(db_url, 1), 2: kept_seed(db_url, 2)}
    _at_revision(db_url, "0004")
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        assert dict(conn.execute(sa.text("SELECT epoch, seed FROM dice_secrets")).all()) == seeds
        assert not sa.inspect(conn).has_table("ledger_secrets")
    engine.dispose()
    tally.ok("db", "upgrade")
    assert tally.ok("roll", "1d6", "--json").json["epoch"] == 2
    assert tally.ok("dice", "reveal", "--json").json["seed"] == seeds[2]
