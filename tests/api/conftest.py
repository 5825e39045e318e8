"""Fixtures for the bot API's tests: accounts with tokens, and a quiet scheduler."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from api_helpers import make_account, make_token
from django.contrib.auth import get_user_model

from games.platform.scheduler import in_process_scheduler


@pytest.fixture(autouse=True)
def _fast_and_quiet(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TASK_BACKEND = "inprocess"
    settings.TASK_INPROCESS_THREAD = False
    settings.BOT_PAUSE_SECONDS = 0
    settings.AUTO_MOVE_SECONDS = 0
    # A thread an earlier test of the process left running would run the bots' moves these
    # tests only queue.
    in_process_scheduler().halt()
    yield
    in_process_scheduler().clear()


@pytest.fixture
def alice(db: None) -> Any:
    return make_account("alice")


@pytest.fixture
def alice_secret(alice: Any) -> str:
    return make_token(alice, scopes=("bot:play", "game:read"))


@pytest.fixture
def user_model() -> Any:
    return get_user_model()
