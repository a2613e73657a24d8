"""The scheduler's jobs as plain values: ``schedule_jobs`` (campaign, job,
next run) replaces APScheduler's ``scheduler_jobs``, whose ``job_state`` was a
pickle that APScheduler unpickled whenever it read the table, so whoever
could write the database could run code on the referee's machine.

The live jobs are recreated from the ledger's own ``schedule.added`` and
``schedule.removed`` events, which say what each job is. Of the old table
only the plain columns are read (``id``, ``next_run_time``, to keep each
job's next run); ``job_state`` is never selected, let alone unpickled. A job
the old table lacks, or holds only as a pickle, runs at the scheduler's next
start (the job body catches up each missed day once). The old table is dropped.

Revision ID: 0007
Revises: 0006
"""
import json
import math
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

from ledger.clock import format_instant, utc_now

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

OLD = "scheduler_jobs"


def _live_jobs(conn) -> list[tuple[str, str]]:
    """(campaign, job) of every job the ledger holds and has not removed."""
    live: dict[tuple[str, str], None] = {}
    for campaign, type_, payload in conn.execute(sa.text(
            "SELECT campaign, type, payload FROM events WHERE type IN ('schedule.added', 'schedule.removed') "
            "ORDER BY position")):
        job = json.loads(payload).get("job")
        if type_ == "schedule.added":
            live[(campaign, job)] = None
        else:
            live.pop((campaign, job), None)
    return list(live)


def _old_next_runs(conn) -> dict[str, str]:
    """APScheduler's next run of each job id, from its plain columns only."""
    if not sa.inspect(conn).has_table(OLD):
        return {}
    kept = {}
    for job_id, when in conn.execute(sa.text(f"SELECT id, next_run_time FROM {OLD}")):
        try:
            moment = datetime.fromtimestamp(float(when), timezone.utc) if when is not None else None
        except (TypeError, ValueError, OverflowError, OSError):
            moment = None
        if isinstance(job_id, str) and moment is not None and math.isfinite(moment.timestamp()):
            kept[job_id] = format_instant(moment)
    return kept


def upgrade() -> None:
    conn = op.get_bind()
    op.create_table(
        "schedule_jobs",
        sa.Column("campaign", sa.String(80), nullable=False),
        sa.Column("job", sa.String(40), nullable=False),
        sa.Column("next_run", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("campaign", "job", name="pk_schedule_jobs"),
    )
    kept = _old_next_runs(conn)
    now = format_instant(utc_now())
    rows = [{"campaign": campaign, "job": job, "next_run": kept.get(f"{campaign}/{job}", now)}
            for campaign, job in _live_jobs(conn)]
    if rows:
        conn.execute(sa.text("INSERT INTO schedule_jobs (campaign, job, next_run) VALUES (:campaign, :job, :next_run)"),
                     rows)
    if sa.inspect(conn).has_table(OLD):
        op.drop_table(OLD)


def downgrade() -> None:
    """Back to schema 0006, where APScheduler made its own table on first use:
    the jobs stay in the ledger, and `tally schedule add` puts one back."""
    op.drop_table("schedule_jobs")
