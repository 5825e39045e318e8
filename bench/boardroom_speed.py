"""Boardroom simulation speed on one core: four-seat medium-bot games a second with the full
rules (auctions, trades, debts), at the default turn cap and at shorter ones.

    uv run python bench/boardroom_speed.py [--games 60] [--seats 4] [--level medium]
                                           [--caps 1000,600,280] [--repeat 3]

Each figure is the best of --repeat passes of CPU time (time.process_time) over the same
seeded games, played by `games.boardroom.simulate.play_game` (the bots decide from their
views, every action is checked by the legal-action generator and resolved in place). The bar
of issue 16 is 58 four-player games a second (the best-known Python simulator of the family:
buy-everything bots, no auctions).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.boardroom.bots import choose_action
from games.boardroom.engine import legal_actions, new_game, step, to_decide, view

BAR = 58.0


def play(seats: int, seed: int, level: str, cap: int) -> tuple[int, int, str]:
    st = new_game(seats=seats, seed=seed, bots=[True] * seats, turn_cap=cap)
    rng = random.Random(seed * 7919 + 1)
    n = 0
    while st["phase"] != "finished":
        seat = to_decide(st)[0]
        # The after-roll families wait until the bot reads them (most turns it does not).
        legal = legal_actions(st, seat, lazy=True)
        # A single legal action is what any bot would play: no view needed for it.
        action = legal[0] if type(legal) is list and len(legal) == 1 else \
            choose_action(view(st, seat, copy=False, legal=legal), level, rng)
        step(st, seat, action)
        n += 1
    return n, st["turn_number"], st["result"]["end_reason"]


def measure(games: int, seats: int, level: str, cap: int, repeat: int) -> dict:
    best = None
    for _ in range(repeat):
        t0 = time.process_time()
        runs = [play(seats, seed, level, cap) for seed in range(games)]
        elapsed = time.process_time() - t0
        best = elapsed if best is None else min(best, elapsed)
    actions = sum(r[0] for r in runs)
    capped = sum(r[2] == "turn_cap" for r in runs)
    turns = sorted(r[1] for r in runs)
    return {"turn_cap": cap, "games_per_s": round(games / best, 1),
            "actions_per_s": round(actions / best), "actions_per_game": round(actions / games),
            "turns_median": turns[len(turns) // 2], "ended_by_cap": f"{capped}/{games}",
            "ratio_to_bar": round(games / best / BAR, 2)}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--level", default="medium")
    p.add_argument("--caps", default="1000,600,280")
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    gc.disable()
    for cap in (int(c) for c in a.caps.split(",")):
        print(json.dumps(measure(a.games, a.seats, a.level, cap, a.repeat)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
