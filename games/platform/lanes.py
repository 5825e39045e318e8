"""One handler thread per web process, moves before pushes.

A table socket's handlers (a move, a re-render after someone else's move) run on a thread, not
on the event loop. With a pool of threads, a move's half-dozen database round trips each gave
up the GIL and then waited for it behind other sockets' renders (CPython hands it over only
every switch interval, 5 ms): under load most of a move's time went in those waits. With one
thread nothing shares the GIL with a move but the event loop, and a move waits for at most the
call already running (a push render of a few milliseconds), never for the queue of pushes:
urgent calls (a player's frame, a new socket) are always taken before later ones (re-renders,
heartbeats). Pushes that wait are merged: a socket that fell behind catches up in one render.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

_Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class PriorityLane:
    """A single worker thread fed by two queues; `urgent` and `later` are the executors to
    hand to `run_in_executor` (or SyncToAsync's `executor=`)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._queues: tuple[deque[_Job], deque[_Job]] = (deque(), deque())
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self.urgent: Executor = _LaneExecutor(self, 0)
        self.later: Executor = _LaneExecutor(self, 1)

    def put(self, queue: int, job: _Job) -> None:
        with self._ready:
            self._queues[queue].append(job)
            if self._thread is None:
                # Started on first use: a process that never serves a table has no thread.
                self._thread = threading.Thread(target=self._work, name=self.name, daemon=True)
                self._thread.start()
            self._ready.notify()

    def pending(self) -> tuple[int, int]:
        """How many urgent and later calls are waiting (for tests and probes)."""
        with self._ready:
            return len(self._queues[0]), len(self._queues[1])

    def _next(self) -> _Job:
        with self._ready:
            while not (self._queues[0] or self._queues[1]):
                self._ready.wait()
            return (self._queues[0] or self._queues[1]).popleft()

    def _work(self) -> None:
        while True:
            future, fn, args, kwargs = self._next()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # handed to the awaiting coroutine, as a pool does
                future.set_exception(exc)
            else:
                future.set_result(result)


class _LaneExecutor(Executor):
    def __init__(self, lane: PriorityLane, queue: int) -> None:
        self._lane = lane
        self._queue = queue

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._lane.put(self._queue, (future, fn, args, kwargs))
        return future
