"""The schema's history: an empty database upgrades to head with no drift,
and an old or foreign database is refused with what to do."""

from pathlib import Path

import pytest
import sqlalchemy as sa

from ledger.errors import StoreError
from ledger.schema import SCHEMA_REVISION, metadata
from ledger.store import Store


def test_upgrade_from_empty_matches_the_metadata(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    store = Store(db_url)  # a new database is migrated on first use
    assert store.schema_revision() == SCHEMA_REVISION
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []
    store.dispose()


def test_an_older_schema_is_refused_until_db_upgrade(tmp_path):
    from tests.conftest import Tally

    url = f"sqlite:///{tmp_path / 'old.db'}"
    Store(url).dispose()
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0000'"))
    engine.dispose()
    with pytest.raises(StoreError, match="run `tally db upgrade`"):
        Store(url)
    tally = Tally(url)
    refused = tally("campaign", "list")
    assert refused.exit_code == 1 and "tally db upgrade" in refused.stderr


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
