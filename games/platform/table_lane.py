"""The table lane: one thread that runs what the event loop hands it, in the order handed.

It was a `ThreadPoolExecutor` of one worker, whose `submit` made a future (a condition and
its lock), a work item, took the executor's shutdown lock and tried its idle semaphore on the
loop's thread, and whose worker set the future running and then done (the condition again) on
the lane's: some 14 calls on the loop and 20 on the lane a handler, for a future nobody read
(the handler tells the loop it ended by `call_soon_threadsafe`: consumers._run_on_lane). Here a
hand-off is one `put` on a queue, and the lane's thread takes each item and calls it.

As the executor's was, the thread is started with the first hand-off, is not a daemon, and
at the interpreter's exit runs what it was handed before then and ends, so a handler under
way at a shutdown finishes its transaction.
"""

from __future__ import annotations

import concurrent.futures
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class Lane:
    def __init__(self, name: str) -> None:
        self._name = name
        self._items: queue.SimpleQueue[tuple[Callable[..., Any], tuple[Any, ...]] | None] = (
            queue.SimpleQueue())
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def run_soon(self, call: Callable[..., Any], *args: Any) -> None:
        """Have the lane call `call(*args)` after what it was handed before."""
        if self._thread is None:
            self._start()
        self._items.put((call, args))

    def submit(self, call: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        """`run_soon`, with a future of its result (for what waits on it: the benches)."""
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def run() -> None:
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(call(*args))
                except BaseException as exc:
                    future.set_exception(exc)

        self.run_soon(run)
        return future

    def _start(self) -> None:
        with self._starting:
            if self._thread is not None:
                return
            thread = threading.Thread(target=self._work, name=f"{self._name}_0")
            thread.start()
            # Before the interpreter joins its threads at exit: end after what is queued.
            threading._register_atexit(self._items.put, None)  # type: ignore[attr-defined]
            self._thread = thread

    def _work(self) -> None:
        items = self._items
        while True:
            item = items.get()
            if item is None:
                return
            call, args = item
            try:
                call(*args)
            except BaseException:
                log.exception("a call on the %s failed", self._name)
            del item, call, args  # not kept alive while the lane waits for the next
