"""Hardening tests: fuzzed inputs, a hidden-information audit, security checks and fault
injection. The shared kit (a websocket client, scripted seats, process helpers) lives in
bench/, next to the scripts that run the big versions of these tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "faults: kills or restarts real services (needs DATABASE_URL and REDIS_URL)")
