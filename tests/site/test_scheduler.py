"""The scheduling seam runs a named task at time T on either backend."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from celery import shared_task
from django.test import override_settings
from django.utils import timezone

from games.platform import scheduler
from games.platform.scheduler import InProcessScheduler, in_process_scheduler

# The runner closes stale database connections around each job (as Django does per request),
# which touches the connection an earlier test in this process may have opened.
pytestmark = pytest.mark.django_db

calls: list[str] = []
ran = threading.Event()


@shared_task(name="tests.record_call")
def record_call(token: str) -> None:
    calls.append(token)
    ran.set()


@pytest.fixture(autouse=True)
def _fresh_calls() -> None:
    calls.clear()
    ran.clear()


@override_settings(TASK_INPROCESS_THREAD=False)
def test_an_in_process_job_waits_until_its_time_comes() -> None:
    runner = InProcessScheduler()
    now = timezone.now()
    runner.submit(now + timedelta(seconds=30), "tests.record_call", {"token": "later"})
    runner.submit(now, "tests.record_call", {"token": "now"})
    assert runner.run_due(now) == 1
    assert calls == ["now"]
    assert runner.run_due(now + timedelta(seconds=31)) == 1
    assert calls == ["now", "later"]


@override_settings(TASK_INPROCESS_THREAD=False)
def test_two_jobs_due_at_the_same_instant_are_both_listed_as_pending() -> None:
    # Regression: pending() compared the kwargs dicts of same-time, same-task jobs and raised.
    runner = InProcessScheduler()
    runner._jobs.clear()
    now = timezone.now()
    runner.submit(now, "tests.record_call", {"token": "a"})
    runner.submit(now, "tests.record_call", {"token": "b"})
    assert sorted(kwargs["token"] for _, _, kwargs in runner.pending()) == ["a", "b"]


@override_settings(TASK_INPROCESS_THREAD=False, PERIODIC_TASKS={"tests.record_call": 5.0})
def test_a_periodic_job_rearms_itself_after_each_run() -> None:
    runner = InProcessScheduler()
    runner._jobs.clear()
    runner.submit(timezone.now(), "tests.record_call", {"token": "sweep"}, every=5.0)
    assert runner.run_due() == 1
    (when, task, _), = runner.pending()
    assert task == "tests.record_call"
    assert when > timezone.now() + timedelta(seconds=4)


@override_settings(TASK_INPROCESS_THREAD=False)
def test_a_failing_job_does_not_stop_the_runner() -> None:
    runner = InProcessScheduler()
    now = timezone.now()
    runner.submit(now, "tests.record_call", {"wrong_argument": 1})
    runner.submit(now, "tests.record_call", {"token": "still runs"})
    assert runner.run_due(now) == 2
    assert calls == ["still runs"]


@pytest.fixture
def _process_thread_stopped() -> Iterator[None]:
    """The process's own scheduler thread, started by the seam, is stopped after the test.
    Left running, it ran every job later tests only meant to queue (their TASK_INPROCESS_THREAD
    is off, but that stops only a thread from starting): a bot owed a move after a test's
    move moved at once, and the API stream tests saw its version instead of the test's."""
    yield
    assert in_process_scheduler().halt()


@override_settings(TASK_BACKEND="inprocess", TASK_INPROCESS_THREAD=True)
def test_the_in_process_thread_runs_a_job_scheduled_through_the_seam(
        _process_thread_stopped: None) -> None:
    started = time.monotonic()
    assert scheduler.run_after(0.3, "tests.record_call", token="threaded") is None
    assert ran.wait(timeout=5)
    assert calls == ["threaded"]
    assert time.monotonic() - started >= 0.3


def test_the_seam_sends_to_a_real_celery_worker_with_an_eta(celery_worker_process: None) -> None:
    with override_settings(TASK_BACKEND="celery"):
        started = time.monotonic()
        result = scheduler.run_after(1.5, "chudopoly.ping", token="eta")
    assert result.get(timeout=30) == "pong:eta"
    assert time.monotonic() - started >= 1.5


def test_the_seam_asks_for_no_result_of_a_fire_and_forget_task_and_keeps_pings_result(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from chudopoly_site.celery import app

    sent: dict[str, bool] = {}
    monkeypatch.setattr(app, "send_task",
                        lambda name, **options: sent.update({name: options["ignore_result"]}))
    with override_settings(TASK_BACKEND="celery"):
        scheduler.run_after(60, "tables.seat_grace_check", seat_id=1, since="2026-12-02T00:00")
        scheduler.run_after(60, "tables.bot_move", game_id=1, seat=0, version=1)
        scheduler.run_after(60, "chudopoly.ping", token="health")
    assert sent == {"tables.seat_grace_check": True, "tables.bot_move": True,
                    "chudopoly.ping": False}
