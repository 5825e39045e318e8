"""Both move benches play every game for a few seconds, so neither can rot unseen: each run
ends, plays moves, and has no refused frame but races (a seat's page a move behind). The
figures themselves are docs/performance.md's business, on PostgreSQL; these runs are on the
embedded database, one per bench, made by the first run and reused by the others."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("chudopoly", "boardroom", "commonwealth")

pytestmark = pytest.mark.slow


def _run(*args: str) -> list[str]:
    result = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    return result.stdout.strip().splitlines()


def _line(lines: list[str], start: str) -> str:
    found = [x.strip() for x in lines if x.strip().startswith(start)]
    assert found, lines
    return found[0]


def _only_races(refused_line: str) -> None:
    """'refused frames: 0' or 'refused frames: stale 2 (races)': nothing but races."""
    words = refused_line.removeprefix("refused frames: ").split(";")[0]
    assert words == "0" or all(part.endswith("(races)") for part in words.split(", ")), \
        refused_line


@pytest.mark.parametrize("game", GAMES)
def test_the_move_cost_bench_plays_the_game_with_no_refused_frame_but_races(game: str) -> None:
    lines = _run("bench/move_cost.py", "--sqlite", "--database", "test_move_cost",
                 "--reuse-database",
                 "--game", game, "--tables", "2", "--moves", "40")
    _only_races(_line(lines, "refused frames:"))
    summary = lines[-1]
    assert int(summary.split()[0]) >= 30, summary
    assert f"{game} moves" in summary and "ms CPU" in summary and "queries per move" in summary
    assert "B per push" in _line(lines, "refused frames:")


def test_the_move_cost_bench_times_each_part_of_a_move_within_the_whole() -> None:
    """--parts: the move's transaction with its two round trips, and the pushes' screens,
    renders and diffs, each as CPU per move; together no more than the move's whole CPU."""
    lines = _run("bench/move_cost.py", "--sqlite", "--database", "test_move_cost",
                 "--reuse-database", "--tables", "2", "--moves", "20", "--parts")
    summary = next(line for line in lines if " chudopoly moves over " in line)
    whole = float(summary.split(": ", 1)[1].split(" ms CPU")[0])
    parts = {line.removeprefix("part: ").rsplit(": ", 1)[0].strip():
             float(line.rsplit(": ", 1)[1].split()[0])
             for line in lines if line.startswith("part: ")}
    assert set(parts) >= {"the move's transaction (table_move)",
                          "its lock and seats (round trip 1)",
                          "the pushes' renders (render_all)", "the pushes' diffs (_changes)"}
    assert all(ms > 0 for ms in parts.values()), parts
    top_level = sum(ms for name, ms in parts.items() if not name.startswith(("its", "the engine",
                                                                             "deadlines")))
    assert top_level <= whole * 1.01 + 0.01, (parts, whole)


def test_the_move_cost_bench_sleeps_between_moves_when_asked_and_says_so() -> None:
    """--pause: each move is made after that long asleep, as a live web process's lane waits
    between moves (docs/performance.md); the summary says how far apart they were."""
    lines = _run("bench/move_cost.py", "--sqlite", "--database", "test_move_cost",
                 "--reuse-database", "--tables", "2", "--moves", "10", "--pause", "20")
    summary = next(line for line in lines if " chudopoly moves over " in line)
    assert "over 2 tables, 20 ms apart: " in summary, summary
    assert int(summary.split()[0]) >= 5, summary


@pytest.mark.parametrize("game", GAMES)
def test_the_live_latency_bench_plays_the_game_over_sockets_with_no_refused_frame_but_races(
        game: str) -> None:
    lines = _run("bench/live_latency.py", "--sqlite", "--database", "test_live_latency",
                 "--reuse-database",
                 "--game", game, "--tables", "2", "--duration", "4", "--warmup", "1",
                 "--think", "0.2")
    summary = _line(lines, "2 ")
    assert f"{game} tables" in summary and "errors 0" in summary, summary
    moves = int(summary.split(": ", 1)[1].split()[0])
    assert moves >= 5, summary
    _only_races(_line(lines, "refused frames:"))
    kinds = _line(lines, "moves by kind:").removeprefix("moves by kind: ")
    assert kinds, "no move was played"
