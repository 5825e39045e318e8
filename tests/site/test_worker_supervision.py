"""The background work keeps running: a Redis restart does not end the worker (not even with a
task in flight), `manage.py serve` starts a worker or beat that died again, and `/healthz` says
so while they are gone.

Each test runs its own throwaway Redis on a free port (no persistence) and restarts or stops
only that one; the shared Redis other suites use is never touched. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery

from tests.conftest import _free_port, _stop, _test_database_env

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]


class ThrowawayRedis:
    """A redis-server of this test's own, which the test may stop and start at will."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "the throwaway Redis did not start"
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            _stop(self.process)

    def restart(self, down_seconds: float) -> None:
        self.stop()
        time.sleep(down_seconds)
        self.start()


@pytest.fixture
def throwaway_redis() -> Iterator[ThrowawayRedis]:
    server = ThrowawayRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()


# The beat lock's production period (10 s, renewed every 2 s) made short: a beat killed
# holding it frees it within 2 s, and a waiting beat tries every 0.5 s
# (chudopoly_site/beat_lock.py).
SHORT_BEAT_LOCK = {"BEAT_LOCK_SECONDS": "2", "BEAT_LOCK_RENEW_SECONDS": "0.5"}


def _env(transactional_db: None, redis_url: str, prefix: str) -> dict[str, str]:
    env = _test_database_env()
    env.update({"REDIS_URL": redis_url, "CHANNEL_PREFIX": prefix, "TASK_BACKEND": "celery"})
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def _throwaway_app(name: str, url: str) -> Celery:
    """A Celery app of the test's own on the throwaway Redis (the suite's own app stays the
    current one). Its result backend does not retry: a result's unsubscribe that reaches the
    Redis after the test stopped it fails at once instead of retrying 20 times a second apart
    (see _close)."""
    return Celery(name, broker=url, backend=url, set_as_current=False,
                  result_backend_transport_options={"retry_policy": {"max_retries": 0}})


def _close(app: Celery) -> None:
    """Close a throwaway app while its Redis still runs. Its results unsubscribe from the
    backend as they are destroyed (`AsyncResult.__del__`), and one held in a reference cycle
    is destroyed whenever the collector next runs: in a later test, on whatever thread, where
    the unsubscribe kept retrying against the stopped Redis for 20 s and held that test's
    event loop (a table-socket test's Redis connect timed out in CI). Collected here, they
    unsubscribe from a Redis that answers."""
    gc.collect()
    app.close()


def _pinged(app: Celery, seconds: float) -> bool:
    """A task sent now comes back from the worker within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            result = app.send_task("chudopoly.ping", kwargs={"token": "t"})
            if result.get(timeout=min(10.0, max(1.0, deadline - time.monotonic()))) == "pong:t":
                return True
        except Exception:  # broker still coming back, or the result timed out: try again
            time.sleep(0.5)
    return False


def test_the_worker_survives_redis_restarts_and_runs_tasks_after_them(
    transactional_db: None, throwaway_redis: ThrowawayRedis, tmp_path: Path
) -> None:
    env = _env(transactional_db, throwaway_redis.url, "restarts")
    log_path = tmp_path / "worker.log"
    with open(log_path, "w") as log:
        # The solo pool with beat, as the fault tests run it: it exited on the first restart.
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "chudopoly_site", "worker", "--beat",
             "--pool", "solo", "--loglevel", "INFO", "--without-gossip", "--without-mingle",
             "--schedule", str(tmp_path / "beat-schedule")],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    app = _throwaway_app("restart-test", throwaway_redis.url)
    try:
        assert _pinged(app, 60), log_path.read_text()[-3000:]
        for _ in range(3):
            # Messages the worker holds unacknowledged (due later) and some due now, all of
            # them taken by the worker before the broker goes.
            received = _logged(log_path, "] received")
            for _ in range(5):
                app.send_task("chudopoly.ping", kwargs={"token": "later"}, countdown=120)
            for _ in range(20):
                app.send_task("chudopoly.ping", kwargs={"token": "now"})
            _wait_for("the worker did not take the tasks",
                      lambda n=received: _logged(log_path, "] received") >= n + 25,
                      60, log_path, worker)
            lost = _logged(log_path, "Connection to broker lost")
            connected = _logged(log_path, "Connected to redis://")
            throwaway_redis.stop()
            _wait_for("the worker did not notice the broker was gone",
                      lambda n=lost: _logged(log_path, "Connection to broker lost") > n,
                      60, log_path, worker)
            throwaway_redis.start()
            _wait_for("the worker did not connect again",
                      lambda n=connected: _logged(log_path, "Connected to redis://") > n,
                      60, log_path, worker)
            assert worker.poll() is None, log_path.read_text()[-3000:]
        assert _pinged(app, 60), log_path.read_text()[-3000:]
        log_text = log_path.read_text()
        # The restarts reached the worker (it lost and regained the broker), and it lived.
        assert "Connection to broker lost" in log_text
        assert "Unrecoverable error" not in log_text
    finally:
        _close(app)
        _stop(worker)


def test_a_throwaway_apps_results_destroyed_after_its_redis_stopped_hold_no_thread(
    throwaway_redis: ThrowawayRedis,
) -> None:
    app = _throwaway_app("leftover-test", throwaway_redis.url)
    results = [app.send_task("chudopoly.ping", kwargs={"token": str(n)}) for n in range(3)]
    for result in results:
        result.cycle = result  # reachable only through a cycle: destroyed by the collector
    del results, result
    _close(app)
    throwaway_redis.stop()
    started = time.monotonic()
    gc.collect()  # a later test's collection, the Redis gone
    assert time.monotonic() - started < 2


def _logged(log_path: Path, text: str) -> int:
    return log_path.read_text().count(text)


def _wait_for(what: str, done: Any, seconds: float, log_path: Path,
              process: subprocess.Popen[bytes] | None = None) -> None:
    """Polls `done` until it holds; fails at the deadline, or at once if `process` exited."""
    deadline = time.monotonic() + seconds
    while not done():
        assert process is None or process.poll() is None, (
            f"{what}: the process exited: {log_path.read_text()[-3000:]}")
        assert time.monotonic() < deadline, f"{what}: {log_path.read_text()[-3000:]}"
        time.sleep(0.1)


def test_the_worker_survives_a_redis_restart_with_a_task_in_flight(
    transactional_db: None, throwaway_redis: ThrowawayRedis, tmp_path: Path
) -> None:
    env = _env(transactional_db, throwaway_redis.url, "in-flight")
    log_path = tmp_path / "worker.log"
    started = tmp_path / "started"
    with open(log_path, "w") as log:
        # The prefork pool, as `serve` and the compose file run it: the task runs on a pool
        # process while the consumer loses the broker, and its late acknowledgement comes back
        # to the consumer after the connection it was delivered on is gone.
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tests.site.worker_with_a_slow_task",
             "worker", "--loglevel", "INFO", "--concurrency", "2"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    app = _throwaway_app("in-flight-test", throwaway_redis.url)
    try:
        assert _pinged(app, 60), log_path.read_text()[-3000:]
        app.send_task("tests.sleep", kwargs={"seconds": 4, "started": str(started)})
        _wait_for("the slow task did not start", started.exists, 60, log_path)
        throwaway_redis.restart(down_seconds=1)
        _wait_for("the slow task did not finish",
                  lambda: re.search(r"tests\.sleep\[[^]]+\] succeeded", log_path.read_text()),
                  60, log_path)
        assert _pinged(app, 60), log_path.read_text()[-3000:]
        assert worker.poll() is None, log_path.read_text()[-3000:]
        log_text = log_path.read_text()
        assert "Connection to broker lost" in log_text
        assert "Unrecoverable error" not in log_text
    finally:
        _close(app)
        _stop(worker)


def _healthz(base: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _wait_for_health(base: str, want: Any, seconds: float,
                     serve: subprocess.Popen[bytes]) -> tuple[int, dict[str, Any]]:
    deadline = time.monotonic() + seconds
    answer: tuple[int, dict[str, Any]] = (0, {})
    while time.monotonic() < deadline:
        assert serve.poll() is None, "serve exited"
        try:
            answer = _healthz(base)
        except OSError:
            answer = (0, {})
        if want(*answer):
            return answer
        time.sleep(0.2)
    raise AssertionError(f"healthz did not get there within {seconds} s: {answer}")


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _started(log: Path, role: str) -> list[int]:
    return [int(p) for p in re.findall(rf"started the Celery {role} \(pid (\d+)\)",
                                       log.read_text())]


def test_serve_starts_a_killed_worker_and_beat_again_and_healthz_names_them_meanwhile(
    transactional_db: None, throwaway_redis: ThrowawayRedis, tmp_path: Path
) -> None:
    env = _env(transactional_db, throwaway_redis.url, "supervised")
    # Short windows so the test waits seconds, not the production defaults' tens: a
    # heartbeat counts as stale after 2 s, and the killed beat's lock expires within 2 s
    # (it held the restarted beat back for up to 12 s after the kill).
    env.update({"HEARTBEAT_SECONDS": "0.5", "HEARTBEAT_STALE_SECONDS": "2", **SHORT_BEAT_LOCK})
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "serve.log"
    with open(log_path, "w") as log:
        serve = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--no-migrate",
             # Twice the stale window, so the gap shows: a restarted worker may boot at
             # once on a fast machine.
             "--restart-delay", "4"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        _wait_for_health(base, lambda status, body: status == 200, 120, serve)
        killed = {role: _started(log_path, role)[-1] for role in ("worker", "beat")}
        for pid in killed.values():
            grandchildren = _children(pid)  # the prefork pool's processes
            os.kill(pid, signal.SIGKILL)
            for child in grandchildren:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)
        status, body = _wait_for_health(
            base, lambda status, body: {"worker", "beat"} <= set(body.get("failed", [])),
            30, serve)
        assert status == 503
        assert "heartbeat" in body["checks"]["worker"]
        _wait_for_health(base, lambda status, body: status == 200, 120, serve)
        for role, pid in killed.items():
            assert _started(log_path, role)[-1] != pid
        assert "the Celery worker exited" in log_path.read_text()
    finally:
        serve.send_signal(signal.SIGINT)
        try:
            serve.wait(timeout=20)
        except subprocess.TimeoutExpired:
            _stop(serve)


def _gone(pid: int) -> bool:
    """The process has exited (a zombie waiting for its new parent to reap it counts)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return True
    return fields[0] in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_serve_ends_its_worker_and_beat(
    transactional_db: None, throwaway_redis: ThrowawayRedis, tmp_path: Path
) -> None:
    env = _env(transactional_db, throwaway_redis.url, "orphans")
    port = _free_port()
    log_path = tmp_path / "serve.log"
    with open(log_path, "w") as log:
        serve = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--no-migrate"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    children: list[int] = []
    try:
        _wait_for_health(f"http://127.0.0.1:{port}", lambda status, body: status == 200, 120,
                         serve)
        for role in ("worker", "beat"):
            pid = _started(log_path, role)[-1]
            children += [pid, *_children(pid)]
        serve.kill()
        serve.wait(timeout=10)
        _wait_for("serve's children outlived it", lambda: all(map(_gone, children)), 60,
                  log_path)
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _beat(env: dict[str, str], tmp_path: Path, name: str) -> tuple[subprocess.Popen[bytes], Path]:
    log_path = tmp_path / f"beat-{name}.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "chudopoly_site", "beat", "--loglevel",
             "INFO", "--schedule", str(tmp_path / f"beat-{name}-schedule")],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    return process, log_path


def _sent(log_path: Path) -> int:
    return log_path.read_text().count("Sending due task")


def test_a_second_beat_beside_a_first_schedules_nothing_until_the_first_stops(
    transactional_db: None, throwaway_redis: ThrowawayRedis, tmp_path: Path
) -> None:
    env = _env(transactional_db, throwaway_redis.url, "two-beats")
    env.update(SHORT_BEAT_LOCK)  # the five sweeps below span two lock periods and more
    first, first_log = _beat(env, tmp_path, "first")
    second: subprocess.Popen[bytes] | None = None
    try:
        _wait_for("the first beat sent nothing", lambda: _sent(first_log) > 0, 60, first_log)
        second, second_log = _beat(env, tmp_path, "second")
        _wait_for("the second beat did not say it waits",
                  lambda: "holds the beat lock" in second_log.read_text(), 60, second_log)
        # The first goes on sending its every-second sweeps while the second waits.
        sent_so_far = _sent(first_log)
        _wait_for("the first beat stopped sending", lambda: _sent(first_log) >= sent_so_far + 5,
                  60, first_log)
        assert _sent(second_log) == 0, second_log.read_text()[-3000:]
        _stop(first)  # SIGTERM: it lets the lock go as it exits
        _wait_for("the second beat did not take over", lambda: _sent(second_log) > 0, 60,
                  second_log)
    finally:
        _stop(first)
        if second is not None:
            _stop(second)


@pytest.fixture
def beat_lock_on_throwaway_redis(settings, throwaway_redis: ThrowawayRedis) -> redis.Redis:
    settings.REDIS_URL = throwaway_redis.url
    settings.CHANNEL_PREFIX = "lock-test"
    return redis.Redis.from_url(throwaway_redis.url)


def test_a_beat_whose_lock_another_beat_took_knows_it_lost_it(
    beat_lock_on_throwaway_redis: redis.Redis,
) -> None:
    from chudopoly_site import beat_lock

    lock = beat_lock.BeatLock()
    lock.acquire()
    assert lock.renew()
    beat_lock_on_throwaway_redis.set(beat_lock.key(), "another beat")
    assert not lock.renew()
    lock.release()  # not its own: left alone
    assert beat_lock_on_throwaway_redis.get(beat_lock.key()) == b"another beat"


def test_a_beat_whose_redis_came_back_empty_takes_its_lock_again(
    beat_lock_on_throwaway_redis: redis.Redis,
) -> None:
    from chudopoly_site import beat_lock

    lock = beat_lock.BeatLock()
    lock.acquire()
    beat_lock_on_throwaway_redis.flushall()
    assert lock.renew()
    assert beat_lock_on_throwaway_redis.get(beat_lock.key()) == lock.token.encode()
    lock.release()
    assert beat_lock_on_throwaway_redis.get(beat_lock.key()) is None
