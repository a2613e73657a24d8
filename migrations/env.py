"""Alembic environment: runs on the connection tally hands it."""

from alembic import context

from ledger.schema import target_metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=target_metadata(connection.dialect.name),
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
