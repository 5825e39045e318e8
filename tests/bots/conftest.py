"""Fixtures for bot tests: like the engine tests, no database (run with or without
`-p no:django`)."""

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
    """Bots touch no database: this replaces the site suite's session fixture."""
    yield


@pytest.fixture(autouse=True)
def _quick_hard_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard bot searches for 1 s a decision at a table; tests give it a tenth of that."""
    from games.chudopoly.bots import hard

    monkeypatch.setattr(hard, "DEFAULT_BUDGET", 0.1)
