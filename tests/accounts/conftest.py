"""Fixtures for the account tests: a fast password hasher and a quiet scheduler."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.platform.scheduler import in_process_scheduler


@pytest.fixture(autouse=True)
def _fast_and_quiet(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.TASK_BACKEND = "inprocess"
    settings.TASK_INPROCESS_THREAD = False
    settings.BOT_PAUSE_SECONDS = 0
    in_process_scheduler().clear()
    yield
    in_process_scheduler().clear()
