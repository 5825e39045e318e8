"""The database connection a long-lived handler thread keeps from one job to the next.

Channels runs each handler of a sync consumer inside `close_old_connections()` (before and
after), which, with the psycopg pool, gives the connection back to the pool after every
handler and takes it again, checked by a round trip to the server, before the next. A table's
handler thread (games/platform/consumers.py) runs every move and every update shown in its
process, one after another: it keeps its connection instead, and checks it without the
server's help.

A connection the server ended (a restarted or stopped PostgreSQL, a terminated backend) has
told the client already: its socket has the server's goodbye or the end of the stream waiting,
which a zero-timeout poll sees. Such a connection, one left in a transaction or one that saw
an error is closed before the next job, which then takes a fresh one from the pool (checked by
the pool, as every request's is).
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg import pq


def ready() -> None:
    """Before a job: close this thread's connection if it is not plainly fit to use."""
    conn = connections[DEFAULT_DB_ALIAS]
    raw = conn.connection
    if raw is None:
        return
    if conn.errors_occurred or conn.in_atomic_block or not plainly_idle(raw):
        conn.close()


def after() -> None:
    """After a job: a connection that saw an error goes now rather than at the next job."""
    conn = connections[DEFAULT_DB_ALIAS]
    if conn.connection is not None and conn.errors_occurred:
        conn.close()


def plainly_idle(raw: Any) -> bool:
    """Whether a psycopg connection is open, outside a transaction and has nothing the server
    sent unasked waiting to be read (most often its last words or the end of the stream).
    Anything but a psycopg connection (SQLite's) counts as idle: it has no server to lose."""
    pgconn = getattr(raw, "pgconn", None)
    if pgconn is None:
        return True
    try:
        if (pgconn.status != pq.ConnStatus.OK
                or pgconn.transaction_status != pq.TransactionStatus.IDLE):
            return False
        readable, _, _ = select.select([pgconn.socket], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        return False
    return not readable
