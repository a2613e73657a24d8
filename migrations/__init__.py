"""Alembic environment and the schema's history (run through `tally db upgrade`)."""
