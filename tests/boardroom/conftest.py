"""Boardroom engine tests: pure Python, no database (run with `-p no:django` or without)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


@pytest.fixture(scope="session", autouse=True)
def _close_stray_connections() -> Iterator[None]:
    """The engine touches no database: this replaces the site suite's session fixture."""
    yield
