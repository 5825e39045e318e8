"""Fixtures for the challenge tests: a fast hasher and background work that waits for the
test (the in-process scheduler with its thread off)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.platform.scheduler import in_process_scheduler


@pytest.fixture(autouse=True)
def _background_work_waits_for_the_test(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TASK_BACKEND = "inprocess"
    settings.TASK_INPROCESS_THREAD = False
    settings.BOT_PAUSE_SECONDS = 0
    runner = in_process_scheduler()
    runner.clear()
    yield
    runner.clear()
