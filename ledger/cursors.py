"""Statements straight to the driver's cursor, for the paths every append
and every fold runs (ledger/store.py, ledger/tree.py): the SQL layer's
bookkeeping around each statement cost more than running it."""

from __future__ import annotations

import itertools
from contextlib import suppress
from typing import Iterator

from sqlalchemy.engine import Connection


# The append path's statements go straight to the driver's cursor: every
# append runs them, and the SQL layer's bookkeeping around each statement
# cost more than running it. Written with ? and adapted to the driver's markers.
def driver_cursor(conn: Connection, sql: str, params=(), *, many: bool = False):
    if conn.dialect.paramstyle != "qmark":
        sql = sql.replace("?", "%s")
    cursor = conn.connection.driver_connection.cursor()
    (cursor.executemany if many else cursor.execute)(sql, params)
    return cursor


_CURSORS = itertools.count()


def stream_rows(conn: Connection, sql: str, params: tuple = ()) -> Iterator[tuple]:
    """A query's rows as tuples, streamed with flat memory: on SQLite straight
    from the driver's cursor, on PostgreSQL from a server-side cursor.
    Written with ? like driver_cursor."""
    if conn.dialect.name == "sqlite":
        cursor = conn.connection.driver_connection.cursor()
        try:
            cursor.execute(sql, params)
            while batch := cursor.fetchmany(5000):
                yield from batch
        finally:  # if the caller stopped early, the connection may already be gone
            with suppress(conn.dialect.dbapi.Error):
                cursor.close()
        return
    # A named cursor is a server-side one: the rows come 5,000 at a time. (The SQL
    # layer's yield_per on exec_driver_sql fetched the whole result into memory.)
    cursor = conn.connection.driver_connection.cursor(name=f"tally_rows_{next(_CURSORS)}")
    try:
        cursor.execute(sql.replace("?", "%s"), params)
        while batch := cursor.fetchmany(5000):
            yield from batch
    finally:
        with suppress(conn.dialect.dbapi.Error):
            cursor.close()
