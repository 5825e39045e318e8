"""Hardening tests: fuzzed inputs, a hidden-information audit, security checks and fault
injection. The shared kit (a websocket client, scripted seats, process helpers) lives in
bench/, next to the scripts that run the big versions of these tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "faults: kills or restarts real services (needs DATABASE_URL and REDIS_URL)")


@pytest.fixture(autouse=True)
def _no_background_work_in_the_test_process(settings: Any) -> Iterator[None]:
    """Work scheduled by a test's own set-up waits (in-process runner, thread off).

    In-process tests then decide what runs; live tests leave the game to the live server (its
    own runner or the real worker), so the test process never moves a game behind its back.
    """
    from games.platform.scheduler import in_process_scheduler

    settings.TASK_INPROCESS_THREAD = False
    settings.BOT_PAUSE_SECONDS = 0
    runner = in_process_scheduler()
    runner.halt()
    yield
    runner.clear()
