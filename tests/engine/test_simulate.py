"""The simulation CLI and the speed bench print what they promise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.chudopoly.engine.simulate import main

ROOT = Path(__file__).resolve().parents[2]


def test_simulate_prints_one_json_line_with_every_figure(capsys) -> None:
    assert main(["--games", "4", "--seats", "3", "--preset", "blitz", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    for key in ("games", "games_per_s", "actions_per_s", "avg_turns", "p90_turns", "endings",
                "first_seat_win_rate", "invariant_violations"):
        assert key in out
    assert out["games"] == 4 and sum(out["endings"].values()) == 4
    assert out["invariant_violations"] == 0


def test_simulate_is_reproducible_for_a_seed(capsys) -> None:
    main(["--games", "2", "--seats", "2", "--seed", "9"])
    first = json.loads(capsys.readouterr().out)
    main(["--games", "2", "--seats", "2", "--seed", "9"])
    second = json.loads(capsys.readouterr().out)
    for key in ("avg_turns", "endings", "first_seat_win_rate"):
        assert first[key] == second[key]


def test_the_speed_bench_reports_apply_legal_and_state_size() -> None:
    out = subprocess.run([sys.executable, "bench/engine_speed.py", "--games", "1",
                          "--repeat", "1"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["apply_us"] > 0 and figures["legal_actions_us"] > 0
    assert 0 < figures["state_bytes_max"] < 16 * 1024
