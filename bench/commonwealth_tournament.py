"""Commonwealth bot tournaments, with 95 % Wilson intervals.

    nice -n 19 uv run python bench/commonwealth_tournament.py --games 400 --seed 1

1. heads-up: medium against easy, seats alternating; the share of games medium wins.
2. four seats: one hard among three mediums, the hard seat rotating; the share of games the
   hard bot ends as top contributor (a game the Fund ends counts as not won).
Targets (docs/commonwealth.md): medium >= 80 % heads-up, hard >= 40 % at four seats.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.commonwealth.simulate import play_game


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denom = 1 + z * z / n
    return (centre - margin) / denom, (centre + margin) / denom


def match(hero: str, villain: str, seats: int, games: int, seed: int) -> dict[str, object]:
    wins = fund_dry = 0
    started = time.process_time()
    for g in range(games):
        hero_seat = g % seats
        levels = [hero if s == hero_seat else villain for s in range(seats)]
        final, _, violations = play_game(levels, seed * 1_000_003 + g, check=False)
        assert violations == 0
        result = final["result"]
        wins += result["winner"] == hero_seat
        fund_dry += result["end_reason"] == "fund_dry"
    lo, hi = wilson(wins, games)
    return {"hero": hero, "villain": villain, "seats": seats, "games": games, "seed": seed,
            "hero_wins": wins, "rate": round(wins / games, 3),
            "ci95": [round(lo, 3), round(hi, 3)], "fund_dry": fund_dry,
            "seconds": round(time.process_time() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    heads_up = match("medium", "easy", 2, args.games, args.seed)
    four = match("hard", "medium", 4, args.games, args.seed)
    for row in (heads_up, four):
        sys.stdout.write(json.dumps(row) + "\n")
    ok = heads_up["rate"] >= 0.8 and four["rate"] >= 0.4
    sys.stdout.write(f"targets {'met' if ok else 'NOT met'} on the point estimates\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
