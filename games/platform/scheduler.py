"""The scheduling seam: run a named task at time T, on Celery or on a thread of this process.

Services call `run_at` / `run_after` and never know which backend is behind it. Tasks are
Celery tasks addressed by name (`@shared_task(name=...)`), take ids only, and must be
idempotent: the in-process backend and Celery both may deliver late, and Celery may deliver
twice. With `TASK_BACKEND=celery` the work goes to the broker (`eta`); with `inprocess` a
daemon thread keeps a heap of due jobs and also runs the `PERIODIC_TASKS` sweeps.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

log = logging.getLogger(__name__)


def run_at(when: datetime, task: str, **kwargs: Any) -> Any:
    """Run the task called `task` with `kwargs` at `when` (or as soon as possible after).

    Returns Celery's AsyncResult on the Celery backend, None in-process.
    """
    if settings.TASK_BACKEND == "celery":
        from chudopoly_site.celery import app

        # send_task by name does not read the task's own `ignore_result`; without it, every send
        # would subscribe to a result that fire-and-forget tasks never store.
        registered = app.tasks.get(task)
        return app.send_task(task, kwargs=kwargs, eta=when,
                             ignore_result=registered is None or registered.ignore_result)
    in_process_scheduler().submit(when, task, kwargs)
    return None


def run_after(seconds: float, task: str, **kwargs: Any) -> Any:
    return run_at(timezone.now() + timedelta(seconds=max(0.0, seconds)), task, **kwargs)


@dataclass(order=True)
class _Job:
    when: datetime
    order: int
    task: str = field(compare=False)
    kwargs: dict[str, Any] = field(compare=False)
    every: float | None = field(default=None, compare=False)


class InProcessScheduler:
    """A heap of (time, task) on one daemon thread: the embedded default's task runner."""

    def __init__(self) -> None:
        self._jobs: list[_Job] = []
        self._counter = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False

    def submit(self, when: datetime, task: str, kwargs: dict[str, Any],
               every: float | None = None) -> None:
        with self._wake:
            heapq.heappush(self._jobs, _Job(when, next(self._counter), task, kwargs, every))
            self._wake.notify()
        self.start()

    def start(self) -> None:
        with self._wake:
            if self._thread is not None and self._thread.is_alive():
                return
            if not getattr(settings, "TASK_INPROCESS_THREAD", True):
                return
            self._stopping = False
            self._thread = threading.Thread(target=self._loop, name="chudopoly-scheduler",
                                            daemon=True)
            self._thread.start()

    def start_periodic(self) -> None:
        """Arm every PERIODIC_TASKS entry; idempotent per process."""
        with self._wake:
            armed = {job.task for job in self._jobs if job.every is not None}
        now = timezone.now()
        for task, seconds in settings.PERIODIC_TASKS.items():
            if task not in armed:
                self.submit(now + timedelta(seconds=seconds), task, {}, every=seconds)

    def stop(self) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify()

    def halt(self, timeout: float = 5) -> bool:
        """Stop the thread, wait for it to end and forget every queued job; True once no
        thread runs. Tests call it so that queued work waits to be run by hand: a thread an
        earlier test or the ASGI app's import started would otherwise run it behind their back
        (TASK_INPROCESS_THREAD only keeps a new one from starting)."""
        self.stop()
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        self.clear()
        return thread is None or not thread.is_alive()

    def pending(self) -> list[tuple[datetime, str, dict[str, Any]]]:
        with self._wake:
            # By time and name only: two jobs due at the same instant (bots scheduled in one
            # call) would otherwise compare their kwargs dicts, which Python refuses.
            return sorted(((job.when, job.task, job.kwargs) for job in self._jobs),
                          key=lambda job: (job[0], job[1]))

    def clear(self) -> None:
        with self._wake:
            self._jobs.clear()

    def run_due(self, now: datetime | None = None) -> int:
        """Run every job due by `now` on the calling thread; returns how many ran.

        Tests use this to step time by hand instead of waiting for the thread.
        """
        ran = 0
        while (job := self._pop_due(now or timezone.now())) is not None:
            self._run(job)
            ran += 1
        return ran

    def _pop_due(self, now: datetime) -> _Job | None:
        with self._wake:
            if self._jobs and self._jobs[0].when <= now:
                job = heapq.heappop(self._jobs)
                if job.every is not None:
                    heapq.heappush(self._jobs, _Job(now + timedelta(seconds=job.every),
                                                    next(self._counter), job.task, job.kwargs,
                                                    job.every))
                return job
            return None

    def _loop(self) -> None:
        while True:
            with self._wake:
                if self._stopping:
                    return
                timeout = None
                if self._jobs:
                    timeout = max(0.0, (self._jobs[0].when - timezone.now()).total_seconds())
                if timeout is None or timeout > 0:
                    self._wake.wait(timeout)
                    continue
            self.run_due()

    def _run(self, job: _Job) -> None:
        from chudopoly_site.celery import app

        close_old_connections()
        try:
            app.tasks[job.task].run(**job.kwargs)
        except Exception:
            # One failing job must not kill the runner; the periodic sweep retries stuck games.
            log.exception("in-process task %s(%r) failed", job.task, job.kwargs)
        finally:
            close_old_connections()


_scheduler: InProcessScheduler | None = None
_scheduler_lock = threading.Lock()


def in_process_scheduler() -> InProcessScheduler:
    global _scheduler
    with _scheduler_lock:
        if _scheduler is None:
            _scheduler = InProcessScheduler()
        return _scheduler
