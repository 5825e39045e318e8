"""Fixtures for the ladder tests: accounts (alice, bob, carol, dave), guests, quiet scheduler.

Scheduled work (bot moves, match starts) goes to the in-process scheduler with its thread off,
so a test decides when it runs with `run_due()`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.platform.identity import Viewer
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


def _account(username: str) -> Viewer:
    user = get_user_model().objects.create_user(username=username, password="pw-" + username)
    return Viewer(user_id=user.pk, guest_key=None, username=username)


@pytest.fixture
def alice(db: None) -> Viewer:
    return _account("alice")


@pytest.fixture
def bob(db: None) -> Viewer:
    return _account("bob")


@pytest.fixture
def carol(db: None) -> Viewer:
    return _account("carol")


@pytest.fixture
def dave(db: None) -> Viewer:
    return _account("dave")


@pytest.fixture
def guest_gus() -> Viewer:
    return Viewer(user_id=None, guest_key="guest-gus-0000000000000000000")


@pytest.fixture
def guest_gwen() -> Viewer:
    return Viewer(user_id=None, guest_key="guest-gwen-000000000000000000")


@pytest.fixture
def guest_gail() -> Viewer:
    return Viewer(user_id=None, guest_key="guest-gail-000000000000000000")
