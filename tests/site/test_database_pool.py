"""A live Daphne on PostgreSQL holds a bounded number of database connections under load.

With persistent connections (CONN_MAX_AGE > 0) under ASGI, every request served concurrently
left its own connection open: a burst of parallel clients used up the server's
`max_connections` and requests failed. The site now uses Django's psycopg pool, whose size
comes from the environment; this test bursts requests at a real Daphne and counts the server's
connections to the test database in `pg_stat_activity`.
"""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import _free_port, _stop, _test_database_env, _wait_for_http

ROOT = Path(__file__).resolve().parents[2]
POOL_MAX = 4
CLIENTS = 40  # parallel clients, each sending GETS requests one after another
GETS = 5
APP_NAME = "chudopoly-pool-test"


def _server_connections() -> int:
    """Connections the live Daphne holds to this database (libpq names them from PGAPPNAME)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s", [APP_NAME]
        )
        return cursor.fetchone()[0]


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            response.read()
            return response.status
    except OSError as exc:
        return getattr(exc, "code", 0) or 0


def _burst(url: str) -> list[int]:
    with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
        return list(pool.map(_get, [url] * (CLIENTS * GETS)))


@pytest.fixture
def pooled_daphne(transactional_db: None) -> str:
    if connection.vendor != "postgresql":
        pytest.skip("counts PostgreSQL connections: needs DATABASE_URL")
    env = _test_database_env()
    # The embedded channel layer and tasks: this test is about the database alone.
    for name in ("REDIS_URL", "TASK_BACKEND", "CONN_MAX_AGE"):
        env.pop(name, None)
    env["DB_POOL_MIN_SIZE"] = "1"
    env["DB_POOL_MAX_SIZE"] = str(POOL_MAX)
    env["PGAPPNAME"] = APP_NAME
    port = _free_port()
    log = open(ROOT / ".daphne-pool-test.log", "w")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "chudopoly_site.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        _wait_for_http(f"http://127.0.0.1:{port}/healthz", server)
        yield f"http://127.0.0.1:{port}"
    finally:
        _stop(server)
        log.close()


def test_bursts_of_parallel_requests_stay_within_the_connection_pool(pooled_daphne: str) -> None:
    counts = []
    for _ in range(3):
        statuses = _burst(f"{pooled_daphne}/")
        assert statuses == [200] * len(statuses), sorted(set(statuses))
        counts.append(_server_connections())
    assert 0 < max(counts) <= POOL_MAX, counts
    # A later burst reuses the pool's connections rather than adding to them.
    assert counts[-1] <= counts[0], counts
