"""Fixtures shared by the whole suite: the cast, a live Daphne site, a Celery worker, a browser.

The live processes run against the test database that pytest-django created, so tests that use
them must commit their data (`transactional_db`).
"""

from __future__ import annotations

import asyncio
import inspect
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop on the test thread; Django would otherwise refuse
# ORM calls made by the test itself next to it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# Every tree of a pushed partial read after the one before it is checked against the whole HTML
# read afresh (games/platform/swaps.py, CHECK_TREES).
os.environ.setdefault("CHUDOPOLY_CHECK_TREES", "1")

ROOT = Path(__file__).resolve().parent.parent

# The developer's ./db.sqlite3 is never a test's. pytest-django runs the tests on their own
# file (settings' TEST NAME, .test-db-<pid>.sqlite3), but outside that (before it is created,
# after it is dropped, and in every process a test starts without naming a database) the
# embedded default would be ./db.sqlite3: a web process a test starts runs the periodic
# sweeps against it. So the whole run, and every child that inherits this environment, points
# the embedded default at a scratch file instead (pytest_configure below, for this process).
DEVELOPER_DATABASE = ROOT / "db.sqlite3"
OUTSIDE_TESTS_DATABASE = ROOT / f".test-db-{os.getpid()}-outside.sqlite3"
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(OUTSIDE_TESTS_DATABASE)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _test_database_env() -> dict[str, str]:
    """Environment that points a child process at the database this test session uses."""
    from django.db import connection

    settings_dict = connection.settings_dict
    env = dict(os.environ)
    if connection.vendor == "sqlite":
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(settings_dict["NAME"])
    else:
        user = settings_dict.get("USER") or ""
        password = settings_dict.get("PASSWORD") or ""
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        env["DATABASE_URL"] = (
            f"postgres://{auth}{settings_dict.get('HOST') or '127.0.0.1'}:"
            f"{settings_dict.get('PORT') or 5432}/{settings_dict['NAME']}"
        )
    env["DEBUG"] = "1"
    env.setdefault("BOT_PAUSE_SECONDS", "0")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _wait_for_http(url: str, process: subprocess.Popen[Any], seconds: float = 120) -> None:
    # Generous: the wait ends at the first answer, and on a loaded box importing the site alone
    # took 45-49 s of wall time (2.3 s of CPU), past the 30 s this used to allow.
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early with code {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {seconds}s")


def _stop(process: subprocess.Popen[Any]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class _WorkerSupervisor:
    """Keeps one real Celery worker (with beat) running on the test database.

    The fault-injection tests restart Redis and kill processes, so every user asks `ensure()`
    and gets a live worker, restarted if it died or stopped answering (as production's
    supervisor would).
    """

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.process: subprocess.Popen[Any] | None = None
        self.log = open(ROOT / ".celery-test.log", "w")  # noqa: SIM115 - closed in stop()

    def ensure(self) -> None:
        from chudopoly_site.celery import app

        # limit=1: a ping waits out its whole timeout unless told how many answers to expect.
        if self.process is not None and self.process.poll() is None:
            if app.control.ping(timeout=2.0, limit=1):
                return
            _stop(self.process)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "chudopoly_site", "worker", "--beat",
             "--pool", "solo", "--loglevel", "INFO", "--without-gossip", "--without-mingle",
             "--schedule", str(ROOT / ".celerybeat-test-schedule")],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while not app.control.ping(timeout=1.0, limit=1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the Celery worker did not start; see .celery-test.log")

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process)
        self.log.close()


@pytest.fixture(scope="session")
def _celery_worker(django_db_setup: None, django_db_blocker: Any) -> Iterator[_WorkerSupervisor]:
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL: the embedded default runs tasks in-process")
    with django_db_blocker.unblock():
        supervisor = _WorkerSupervisor(_test_database_env())
    try:
        supervisor.ensure()
        yield supervisor
    finally:
        supervisor.stop()


@pytest.fixture
def celery_worker_process(_celery_worker: _WorkerSupervisor) -> None:
    """A real Celery worker on the Redis broker, using the test database (alive now)."""
    _celery_worker.ensure()


@pytest.fixture(scope="session")
def live_site(django_db_setup: None, django_db_blocker: Any,
              request: pytest.FixtureRequest) -> Iterator[str]:
    """Base URL of a real Daphne process serving the site on the test database."""
    if os.environ.get("REDIS_URL"):
        # Background work at a live site runs on a real worker when a broker exists.
        request.getfixturevalue("_celery_worker")
    with django_db_blocker.unblock():
        env = _test_database_env()
    port = _free_port()
    log = open(ROOT / ".daphne-test.log", "w")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "chudopoly_site.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for_http(f"{url}/healthz", server)
        yield url
    finally:
        _stop(server)
        log.close()


@pytest.fixture
def live_server_url(live_site: str, transactional_db: None,
                    request: pytest.FixtureRequest) -> str:
    if os.environ.get("REDIS_URL"):
        request.getfixturevalue("_celery_worker").ensure()
    return live_site


@pytest.fixture
def live_site_env(live_server_url: str, django_db_blocker: Any) -> dict[str, str]:
    """The environment `live_site`'s Daphne runs with, for a test that starts (and kills) a
    web process of its own on the same database, channel layer and worker."""
    with django_db_blocker.unblock():
        return _test_database_env()


def pytest_configure(config: pytest.Config) -> None:
    # Bots move at once in tests; live processes get the same through their environment.
    os.environ["BOT_PAUSE_SECONDS"] = "0"
    # No web heartbeat from the tests or their live servers: they share one database while the
    # clock tests move time by hand (tests/clocks/test_outages.py beats by hand instead).
    os.environ["WEB_HEARTBEAT_SECONDS"] = "0"
    from django.conf import settings

    if settings.configured:
        _retry_a_deadlocked_flush()
        settings.BOT_PAUSE_SECONDS = 0.0
        settings.WEB_HEARTBEAT_SECONDS = 0.0
        # pytest-django loaded the settings before this file set SQLITE_PATH.
        database = settings.DATABASES["default"]
        if (database["ENGINE"].endswith("sqlite3")
                and Path(database["NAME"]).resolve() == DEVELOPER_DATABASE):
            database["NAME"] = str(OUTSIDE_TESTS_DATABASE)


def _retry_a_deadlocked_flush() -> None:
    """A transactional test ends by emptying every table (TRUNCATE), while the live site and
    the worker go on with their sweeps and the sockets a closing page ended: PostgreSQL can
    pick the TRUNCATE as a deadlock's victim (seen in CI-like runs: it waited for a lock the
    live Daphne held, which waited for one it held). Its transaction was rolled back whole, so
    it is run again."""
    from django.core.management.base import CommandError
    from django.db import OperationalError
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self: TransactionTestCase) -> None:
        for attempt in range(5):
            try:
                return original(self)
            except CommandError as exc:
                cause = exc.__cause__
                if (attempt == 4 or not isinstance(cause, OperationalError)
                        or "deadlock detected" not in str(cause)):
                    raise
                time.sleep(0.2)

    TransactionTestCase._fixture_teardown = _fixture_teardown  # type: ignore[method-assign]


def pytest_unconfigure(config: pytest.Config) -> None:
    OUTSIDE_TESTS_DATABASE.unlink(missing_ok=True)


def pytest_report_header(config: pytest.Config) -> list[str]:
    # CI's log must show which real services this run used.
    from django.conf import settings

    from games.platform import speedups

    database = settings.DATABASES["default"]
    return [
        f"chudopoly database: {database['ENGINE'].rsplit('.', 1)[-1]} "
        f"({database.get('HOST') or database['NAME']})",
        f"chudopoly channel layer: {settings.CHANNEL_LAYERS['default']['BACKEND']}",
        f"chudopoly tasks: {settings.TASK_BACKEND} (broker {settings.CELERY_BROKER_URL})",
        f"chudopoly hot modules: {speedups.label()} (games/platform/speedups.py)",
    ]


@pytest.fixture(scope="session", autouse=True)
def _close_stray_connections(request: pytest.FixtureRequest) -> Iterator[None]:
    """Let the test database be dropped at the end.

    Consumers and in-process tasks run ORM code on worker threads, whose persistent
    PostgreSQL connections would otherwise keep the test database busy.
    """
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    request.getfixturevalue("django_db_setup")
    django_db_blocker = request.getfixturevalue("django_db_blocker")
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture
async def _no_task_outlives_its_test() -> Any:
    """Cancel what an async test left running, again and again until it has stopped.

    A socket's channel-layer receive can swallow one cancellation: seen with channels-redis
    4.3 and redis-py 8.1 on Python 3.11, the task stays "cancelling" inside its blocking read.
    Daphne copes by cancelling again after application_close_timeout; pytest-asyncio cancels
    each leftover task once when it closes the test's loop and then waits for ever, which hung
    the suite. So every async test ends here, as Daphne would end it."""
    yield
    me = asyncio.current_task()
    for _ in range(50):
        left = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        if not left:
            return
        for task in left:
            task.cancel()
        await asyncio.wait(left, timeout=0.2)
    raise RuntimeError(f"tasks still running after the test: {left}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if inspect.iscoroutinefunction(getattr(item, "obj", None)):
            item.fixturenames.append("_no_task_outlives_its_test")  # type: ignore[attr-defined]
    # Browser tests run last: Playwright's sync API keeps an event loop on the main thread
    # while it is open, which async_to_sync in other tests would trip over.
    # Fault injection (restarting Redis, killing processes) goes after everything else.
    # Tests of a live site run after every test that has none: once started, the live Daphne
    # (and the worker) keep sweeping the test database, and would move the bots of a later
    # in-process test's committed game behind its back (its in-process scheduler is off).
    # So do the tests of a real worker without a site: the worker (with beat) they start
    # lives for the session, and its bots' watchdog moves a bot idle for 5 s.
    items.sort(key=lambda item: (item.get_closest_marker("faults") is not None,
                                 item.get_closest_marker("browser") is not None,
                                 bool(_LIVE & set(getattr(item, "fixturenames", ())))))


_LIVE = {"live_site", "_celery_worker"}


# One Chromium for a run of browser tests in a row (they are sorted together, above): each
# test gets contexts of its own, as it always did, and launching the browser for every test
# cost 0.5-1 s each. The test that is the last of its run closes it in its own teardown (as
# each test closed its own before), so no other test meets Playwright's event loop on the main
# thread, and the live site is never stopped under an open browser.
_SHARED_BROWSER: dict[str, Any] = {}


def _shared_browser() -> Any:
    launched = _SHARED_BROWSER.get("browser")
    if launched is not None and launched.is_connected():
        return launched
    _close_shared_browser()
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    _SHARED_BROWSER["playwright"] = playwright
    _SHARED_BROWSER["browser"] = playwright.chromium.launch(executable_path=CHROMIUM,
                                                            args=CHROMIUM_ARGS)
    return _SHARED_BROWSER["browser"]


def _close_shared_browser() -> None:
    launched = _SHARED_BROWSER.pop("browser", None)
    playwright = _SHARED_BROWSER.pop("playwright", None)
    try:
        if launched is not None:
            launched.close()
    finally:
        if playwright is not None:
            playwright.stop()


_NEXT_ITEM: dict[str, pytest.Item | None] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    _NEXT_ITEM["next"] = nextitem  # read by the browser fixture's teardown
    yield
    _NEXT_ITEM.clear()


@pytest.fixture
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM}")
    launched = _shared_browser()
    yield launched
    nextitem = _NEXT_ITEM.get("next")
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        _close_shared_browser()
    elif launched.is_connected():
        # Whatever the test left open goes with it, as when each test closed its own browser.
        for context in list(launched.contexts):
            context.close()


def pytest_sessionfinish(session: pytest.Session) -> None:
    _close_shared_browser()  # a run stopped early (-x) may not have closed it


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser page that fails the test on any console error or page error."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    new_page.on("pageerror", lambda exc: errors.append(str(exc)))
    new_page.console_errors = errors
    yield new_page
    context.close()
    assert not errors, f"console errors in the browser: {errors}"


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    """The throttles count in Django's cache (process memory on the embedded default): each
    test starts with none of another test's hits."""
    _clear_cache()
    yield
    _clear_cache()


@pytest.fixture(autouse=True)
def _no_recent_reads() -> Iterator[None]:
    """A heartbeat answers from a read another socket made of its table lately
    (games/platform/recent_reads.py). Keyed by table id, such a read could outlive its test
    and answer for another test's table of the same id (SQLite reuses ids after a rollback)."""
    from games.platform.recent_reads import recent_reads

    recent_reads.clear()
    yield
    recent_reads.clear()


def _clear_cache() -> None:
    """Forget the cache's own keys only. On Redis, `cache.clear()` is FLUSHDB: it would also
    wipe the channel layer, the Celery queues and the worker's heartbeats in the same db."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        cache.clear()
        return
    client = cache._cache.get_client(None, write=True)
    keys = list(client.scan_iter(match=f"{cache.key_prefix}:*"))
    if keys:
        client.delete(*keys)
