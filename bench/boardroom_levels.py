"""Heads-up and table results between Boardroom bot levels, with 95 % Wilson intervals.

    uv run python bench/boardroom_levels.py [--games 200] [--seats 2] [--a medium] [--b easy]

Seat 0 plays level A and the others level B; the turn order is shuffled by each game's seed,
so A moves first in about 1/seats of the games. A game ended by the turn cap counts for the
seat placed first on net worth.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.boardroom.bots import choose_action
from games.boardroom.engine import legal_actions, new_game, step, to_decide, view


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return round(c - h, 3), round(c + h, 3)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--a", default="medium")
    p.add_argument("--b", default="easy")
    p.add_argument("--seed", type=int, default=1000)
    args = p.parse_args()
    wins = capped = 0
    for g in range(args.games):
        seed = args.seed + g
        st = new_game(seats=args.seats, seed=seed, bots=[True] * args.seats)
        rng = random.Random(seed)
        levels = [args.a] + [args.b] * (args.seats - 1)
        while st["phase"] != "finished":
            seat = to_decide(st)[0]
            legal = legal_actions(st, seat)
            action = legal[0] if len(legal) == 1 else choose_action(
                view(st, seat, copy=False, legal=legal), levels[seat], rng)
            step(st, seat, action)
        wins += st["result"]["winner"] == 0
        capped += st["result"]["end_reason"] == "turn_cap"
    print(json.dumps({"a": args.a, "b": args.b, "seats": args.seats, "games": args.games,
                      "a_wins": wins, "a_win_rate": round(wins / args.games, 3),
                      "ci95": wilson(wins, args.games), "ended_by_cap": capped}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
