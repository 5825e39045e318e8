"""Fixtures for the clock tests: the cast, quiet background work, and a clock to move.

Scheduled work goes to the in-process scheduler with its thread off, so a test decides when it
runs (`run_due`). `clock` replaces the clocks' time (games.platform.clocks.now) so a test can let 45
seconds pass at once; deadlines are computed and checked against that same time.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games.platform import clocks
from games.platform.identity import Viewer
from games.platform.scheduler import in_process_scheduler

# `from clocks_helpers import ...` works under either pytest import mode (importlib does not put
# test directories on sys.path).
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture(autouse=True)
def _background_work_waits_for_the_test(settings: Any) -> Iterator[None]:
    settings.TASK_BACKEND = "inprocess"
    settings.TASK_INPROCESS_THREAD = False
    settings.BOT_PAUSE_SECONDS = 0
    # The sweep's heartbeat is shared with any live server of the session, which sweeps in real
    # time while these tests move their own clock: no downtime is given back unless a test asks.
    settings.CLOCKS_DOWNTIME_SECONDS = 0
    runner = in_process_scheduler()
    runner.halt()
    yield
    runner.clear()


class Clock:
    """The clocks' time, moved by hand."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def now(self) -> datetime:
        return timezone.now() + self.offset

    def advance(self, seconds: float) -> datetime:
        self.offset += timedelta(seconds=seconds)
        return self.now()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(clocks, "now", c.now)
    return c


@pytest.fixture
def alice() -> Viewer:
    return Viewer(user_id=None, guest_key="guest-alice-0000000000000000")


@pytest.fixture
def bob() -> Viewer:
    return Viewer(user_id=None, guest_key="guest-bob-00000000000000000000")


@pytest.fixture
def carol() -> Viewer:
    return Viewer(user_id=None, guest_key="guest-carol-000000000000000000")
