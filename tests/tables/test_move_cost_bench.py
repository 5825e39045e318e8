"""bench/move_cost.py still drives the real consumer path end to end (it broke silently once,
when the mover's group message moved to the event loop)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_move_cost_benchmark_plays_moves_and_every_push_reaches_the_other_seats() -> None:
    result = subprocess.run(
        [sys.executable, "bench/move_cost.py", "--sqlite", "--tables", "2", "--moves", "40"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "refused" not in result.stdout
    line = result.stdout.strip().splitlines()[-1]
    moves = int(line.split()[0])
    assert moves >= 30, line
    assert "ms CPU" in line and "queries per move" in line
