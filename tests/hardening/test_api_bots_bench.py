"""The bot API's load bench (bench/api_bots.py) plays every game for a few seconds, so it
cannot rot unseen: its API bots move in all three games, every move reaches every seat's
stream, and nothing is refused but races. The figures themselves are docs/performance.md's
business, on PostgreSQL; this run is on an embedded database of its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_api_bots_bench_plays_every_game_with_no_error() -> None:
    result = subprocess.run(
        [sys.executable, "bench/api_bots.py", "--sqlite", "--database", "test_api_bots",
         "--reuse-database", "--tables", "3", "--seats", "2", "--duration", "5",
         "--warmup", "2", "--think", "0.2"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[0].startswith("6 API bots at 3 tables"), lines
    moves = next(x for x in lines if x.startswith("moves: "))
    for game in ("boardroom", "chudopoly", "commonwealth"):
        assert f"{game} " in moves, moves
    assert int(moves.split()[1]) >= 5, moves
    assert any(x.startswith("POST -> every seat's stream: p50 ") for x in lines), lines
    assert "errors: 0 " in result.stdout, result.stdout
