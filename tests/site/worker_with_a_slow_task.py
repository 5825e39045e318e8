"""The site's Celery app with one more task, `tests.sleep`, for the tests that need a task in
flight for a while (`celery -A tests.site.worker_with_a_slow_task worker`)."""

from __future__ import annotations

import time
from pathlib import Path

from chudopoly_site.celery import app


@app.task(name="tests.sleep")
def sleep(seconds: float, started: str) -> None:
    """Says it has started (by creating the file `started`), then sleeps `seconds`."""
    Path(started).touch()
    time.sleep(seconds)


__all__ = ["app"]
