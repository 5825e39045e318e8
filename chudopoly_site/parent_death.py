"""A child of `manage.py serve` ends with it, even when serve is killed with `kill -9`.

`serve` starts its Celery worker and beat with SERVE_PARENT_PID set to its own pid. A process
that finds it there (the Celery app module runs `follow_parent` on import) asks Linux to send
it SIGTERM when its parent dies (prctl PR_SET_PDEATHSIG), and ends at once if the parent is
already gone; elsewhere a thread watches the parent's pid. Without this a killed serve left its
worker and beat running, and the next serve started a second of each. SIGTERM lets Celery shut
down as it does under a supervisor (the beat lets its lock go: chudopoly_site/beat_lock.py).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

ENV = "SERVE_PARENT_PID"
_PR_SET_PDEATHSIG = 1


def follow_parent() -> None:
    raw = os.environ.pop(ENV, None)  # not for any process this one starts
    if not raw:
        return
    parent = int(raw)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0:
            _end_if_orphaned(parent)  # serve died before the request took hold
            return
    threading.Thread(target=_watch, args=(parent,), name="serve-parent-watch",
                     daemon=True).start()


def _end_if_orphaned(parent: int) -> None:
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def _watch(parent: int) -> None:
    while True:
        _end_if_orphaned(parent)
        time.sleep(1.0)
