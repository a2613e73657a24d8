"""The tables, as SQLAlchemy Core metadata (Alembic's target)."""

from sqlalchemy import (
    BigInteger, Column, Index, Integer, LargeBinary, MetaData, String, Table, Text, UniqueConstraint,
)

# Named constraints from the first migration on: SQLite cannot drop an
# unnamed one later.
metadata = MetaData(naming_convention={
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})

# Append-only (triggers in the migration refuse UPDATE and DELETE).
events = Table(
    "events", metadata,
    Column("position", BigInteger().with_variant(Integer, "sqlite"),
           primary_key=True, autoincrement=False),
    Column("campaign", String(80), nullable=False),
    Column("stream", String(200), nullable=False),
    Column("version", Integer, nullable=False),
    Column("type", String(80), nullable=False),
    Column("schema", Integer, nullable=False),
    Column("game_time", Integer, nullable=False),
    # Stored as the exact ISO string that was hashed.
    Column("recorded_at", String(32), nullable=False),
    Column("session", Integer, nullable=True),
    Column("actor", String(80), nullable=False),
    Column("cause", BigInteger().with_variant(Integer, "sqlite"), nullable=True),
    # Canonical JSON text: the bytes hashed are the bytes stored.
    Column("payload", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    UniqueConstraint("campaign", "stream", "version", name="uq_events_stream_version"),
    Index("ix_events_campaign_game_time", "campaign", "game_time", "position"),
    Index("ix_events_type_campaign", "type", "campaign", "position"),
)

# Folded state at a position: derived data, never stale (checked at use),
# and deleting every row loses nothing.
snapshots = Table(
    "snapshots", metadata,
    Column("campaign", String(80), primary_key=True),
    Column("position", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    # The campaign's previous snapshot when this one was taken (0: none), and the
    # earliest game day among the campaign's events in (since, position]: a "tile"
    # of the log a query can skip without reading it.
    Column("since", BigInteger().with_variant(Integer, "sqlite"), nullable=False),
    Column("min_game_time", Integer, nullable=True),
    Column("max_game_time", Integer, nullable=False),  # the latest game day among events up to position
    Column("blobs", Text, nullable=False, default="[]"),  # the digests of the snapshot_blobs it names (JSON)
    # The hash of the campaign's event at ``position`` (the snapshot belongs to this chain, at this
    # point) and its MAC under the ledger's snapshot key (ledger/snapshot_mac.py): a row that fails either
    # is ignored.
    Column("event_hash", String(64), nullable=False),
    Column("digest", String(64), nullable=False),
    Column("state", LargeBinary, nullable=False),
)

# Large byte strings a snapshot holds (packed session archives), stored once
# and named by every snapshot that holds them. Derived data with the snapshots.
snapshot_blobs = Table(
    "snapshot_blobs", metadata,
    Column("campaign", String(80), primary_key=True),
    Column("digest", String(64), primary_key=True),
    Column("data", LargeBinary, nullable=False),
)

# The interior of the Merkle tree over the events' hashes (RFC 6962; ledger/tree.py):
# every complete perfect subtree of 16 leaves or more (level >= tree.STORED_FROM), (level, idx)
# covering leaves [idx << level, (idx + 1) << level). The leaves themselves are the events'
# hashes; the levels between are recomputed from them.
# Derived data, grown by every append; `tally db tree --rebuild` recomputes it.
merkle_nodes = Table(
    "merkle_nodes", metadata,
    Column("level", Integer, primary_key=True, autoincrement=False),
    Column("idx", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=False),
    Column("hash", LargeBinary, nullable=False),  # 32 bytes
    sqlite_with_rowid=False,  # the primary key is the row: half the size
)

# When the scheduler (`tally scheduler run`) next runs each job: plain values,
# never code. What a job means is in the ledger (schedule.added/removed); this
# table only remembers the schedule between runs, and the scheduler keeps it in
# step with the ledger. A planted row can at most move a job's next run.
schedule_jobs = Table(
    "schedule_jobs", metadata,
    Column("campaign", String(80), primary_key=True),
    Column("job", String(40), primary_key=True),
    Column("next_run", String(32), nullable=True),  # an instant in UTC, ISO 8601 (as recorded_at)
)

# Kept histories (projections/kept.py): each subject's figures (a character's
# sheet, the Company's) step by step in fold order — the fields an event
# changed, or a mark that it bore on them — so a chart or a figure's story is
# read instead of folded from the start. A row is a chunk of a subject's steps,
# keyed by its first (game day, position). Derived data like the snapshots:
# each row carries a MAC under the ledger's derived-data key (ledger/
# kept_rows.py), and deleting every row loses nothing.
kept_steps = Table(
    "kept_steps", metadata,
    Column("campaign", String(80), primary_key=True),
    Column("subject", String(200), primary_key=True),
    Column("game_time", Integer, primary_key=True, autoincrement=False),
    Column("position", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=False),
    Column("last_time", Integer, nullable=False),  # the game day of the chunk's last step
    Column("data", LargeBinary, nullable=False),  # MessagePack: [(day, position, kind, fields, void, late), …]
    Column("mac", LargeBinary, nullable=False),
    sqlite_with_rowid=False,
)

# How far each campaign's kept histories are caught up, and each subject's
# figures there (what the next step's changes are taken against).
kept_heads = Table(
    "kept_heads", metadata,
    Column("campaign", String(80), primary_key=True),
    Column("position", BigInteger().with_variant(Integer, "sqlite"), nullable=False),
    Column("data", LargeBinary, nullable=False),  # MessagePack, zlib: shape, days, each subject's figures
    Column("mac", LargeBinary, nullable=False),
)

# A ledger's secrets (dice seeds by commitment; later the referee's signing key).
# Never in the events' database file on SQLite: ledger/secrets.py keeps them in a
# file of their own there, in this table's shape. On PostgreSQL this table, which
# no role but the owner may read. Append-only; never exported.
secrets_metadata = MetaData(naming_convention=metadata.naming_convention)
ledger_secrets = Table(
    "ledger_secrets", secrets_metadata,
    Column("kind", String(40), primary_key=True),
    Column("campaign", String(80), primary_key=True),
    Column("name", String(200), primary_key=True),  # a dice seed's: its commitment
    Column("value", Text, nullable=False),
)


# PostgreSQL's write lock (ledger/store.py _lock): one row that writers lock FOR
# UPDATE, which needs the UPDATE privilege that no reader's role is granted
# (ledger/pgroles.py). SQLite writers take BEGIN IMMEDIATE instead.
lock_metadata = MetaData(naming_convention=metadata.naming_convention)
ledger_write_lock = Table(
    "ledger_write_lock", lock_metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
)


def target_metadata(backend: str) -> MetaData:
    """The tables a ledger's database holds on this backend (Alembic's target)."""
    if backend == "sqlite":
        return metadata
    both = MetaData(naming_convention=metadata.naming_convention)
    for table in (*metadata.tables.values(), *secrets_metadata.tables.values(), *lock_metadata.tables.values()):
        table.to_metadata(both)
    return both


SCHEMA_REVISION = "0010"
