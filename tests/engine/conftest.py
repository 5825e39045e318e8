"""Fixtures for engine tests (helpers live in engine_helpers.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# With `-p no:django` nothing else puts the project root on the path.
ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from engine_helpers import Play  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _close_stray_connections() -> Iterator[None]:
    """The engine touches no database: this replaces the site suite's session fixture, so the
    engine tests run with `-p no:django` and without PostgreSQL."""
    yield


@pytest.fixture
def play() -> Play:
    return Play()
