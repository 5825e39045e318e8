"""A table's handler thread keeps its database connection from one handler to the next
(chudopoly_site/held_connection.py): a healthy one is used again without asking the server,
one the server ended is replaced before the next handler uses it."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import ProgrammingError, connection

from chudopoly_site import held_connection


@pytest.fixture
def postgres(transactional_db: None) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("about PostgreSQL connections: needs DATABASE_URL")


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _terminate(pid: int) -> None:
    """End a backend from another connection, as a restarted server ends them all."""
    params = connection.get_connection_params()
    params.pop("pool", None)
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    time.sleep(0.3)  # the server's goodbye reaches this side's socket


def test_a_healthy_connection_is_kept_and_checked_without_a_round_trip(postgres: None) -> None:
    pid = _backend_pid()
    raw = connection.connection
    sent: list[object] = []
    real_execute = raw.execute
    raw.execute = lambda *args, **kwargs: sent.append(args) or real_execute(*args, **kwargs)
    try:
        held_connection.ready()
    finally:
        del raw.execute
    assert sent == []
    assert connection.connection is raw
    assert _backend_pid() == pid


def test_a_connection_the_server_ended_is_replaced_before_the_next_handler(
        postgres: None) -> None:
    pid = _backend_pid()
    _terminate(pid)
    held_connection.ready()
    assert _backend_pid() != pid


def test_a_connection_that_saw_an_error_is_closed_after_its_handler(postgres: None) -> None:
    connection.ensure_connection()
    with pytest.raises(ProgrammingError), connection.cursor() as cursor:
        cursor.execute("SELECT * FROM no_such_table")
    assert connection.errors_occurred
    held_connection.after()
    assert connection.connection is None


def test_a_connection_left_in_a_transaction_is_not_plainly_idle(postgres: None) -> None:
    connection.ensure_connection()
    raw = connection.connection
    assert held_connection.plainly_idle(raw)
    with connection.cursor() as cursor:
        cursor.execute("BEGIN")
        assert not held_connection.plainly_idle(raw)
        cursor.execute("ROLLBACK")
