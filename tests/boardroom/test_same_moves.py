"""The bots make the same moves as they did before the speed work: fixed deals played through
the simulator's path (`simulate.play_game`: legal actions, the view, the bot, `step` in place)
are compared, action by action, with a golden record made from the code before it.

The record (data/same_moves.json) keeps, for each deal, the number of actions, a short hash of
each block of BLOCK actions (so a difference is located to within BLOCK actions) and a summary
of the final state. Regenerate it only from a commit whose moves are the reference:

    uv run python -m tests.boardroom.test_same_moves --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from games.boardroom.simulate import play_game

GOLDEN = Path(__file__).parent / "data" / "same_moves.json"
BLOCK = 20
SEEDS = (3, 17, 42)
SEATS = (2, 4, 6)
LEVELS = ("easy", "medium")
DEALS = [(seats, seed, level) for level in LEVELS for seats in SEATS for seed in SEEDS]


def _deal_id(seats: int, seed: int, level: str) -> str:
    return f"{level}-{seats}seats-seed{seed}"


def record(seats: int, seed: int, level: str) -> dict[str, Any]:
    """The deal's moves as block hashes, and where the game ended."""
    out = play_game(seats, seed, level, record=True)
    lines = [json.dumps([s, a], sort_keys=True, separators=(",", ":")) for s, a in out["log"]]
    blocks = [hashlib.sha256("\n".join(lines[i:i + BLOCK]).encode()).hexdigest()[:12]
              for i in range(0, len(lines), BLOCK)]
    st = out["state"]
    return {"actions": len(lines), "blocks": blocks,
            "final": {"cash": st["cash"], "owner": st["owner"], "level": st["level"],
                      "turn_number": st["turn_number"], "result": st["result"]}}


def _golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("seats,seed,level", DEALS,
                         ids=[_deal_id(*d) for d in DEALS])
def test_the_bots_play_every_recorded_deal_move_for_move(seats: int, seed: int,
                                                         level: str) -> None:
    want = _golden()[_deal_id(seats, seed, level)]
    got = record(seats, seed, level)
    for i, (a, b) in enumerate(zip(want["blocks"], got["blocks"], strict=False)):
        assert a == b, f"the moves differ within actions {i * BLOCK}-{i * BLOCK + BLOCK - 1}"
    assert got["actions"] == want["actions"]
    assert got["final"] == json.loads(json.dumps(want["final"]))


def test_the_golden_record_covers_every_deal_and_level() -> None:
    assert set(_golden()) == {_deal_id(*d) for d in DEALS}


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(__doc__)
        return 2
    data = {_deal_id(*d): record(*d) for d in DEALS}
    GOLDEN.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN} ({sum(d['actions'] for d in data.values())} actions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
