"""Fixtures for the table tests: the cast (guests alice, bob, carol) and quiet background work.

Bot moves and other scheduled work go to the in-process scheduler with its thread off, so a
test decides when (and whether) they run with `run_due()`; nothing touches the database from a
background thread behind the test's back, and nothing is sent to a real broker.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.platform.identity import Viewer
from games.platform.scheduler import in_process_scheduler


@pytest.fixture(autouse=True)
def _background_work_waits_for_the_test(settings: Any) -> Iterator[None]:
    settings.TASK_BACKEND = "inprocess"
    settings.TASK_INPROCESS_THREAD = False
    settings.BOT_PAUSE_SECONDS = 0
    runner = in_process_scheduler()
    # Another module may have started the runner's thread (importing the ASGI app arms the
    # periodic sweeps): stop it, so queued jobs wait for the test.
    runner.halt()
    yield
    runner.clear()


@pytest.fixture
def alice() -> Viewer:
    return Viewer(user_id=None, guest_key="guest-alice-0000000000000000")


@pytest.fixture
def bob() -> Viewer:
    return Viewer(user_id=None, guest_key="guest-bob-00000000000000000000")


@pytest.fixture
def carol() -> Viewer:
    return Viewer(user_id=None, guest_key="guest-carol-000000000000000000")
