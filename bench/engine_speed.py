"""Engine speed on one core: µs per apply, µs per legal-action generation, and the serialised
size of a 5-seat mid-game state.

    uv run python bench/engine_speed.py [--games 40] [--seats 5] [--repeat 5]

It records every (state, seat, action) of seeded random games, then times `apply` and
`legal_actions` over exactly those positions (best of --repeat passes, so a busy machine
disturbs the figure less), and measures `json.dumps(state, separators=(",", ":"))`.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.chudopoly.engine import apply, legal_actions, new_game, to_decide
from games.chudopoly.engine.random_player import choose


def record(games: int, seats: int, preset: str) -> list[tuple[dict, int, dict]]:
    positions = []
    for seed in range(games):
        state = new_game(ruleset={"preset": preset}, seats=seats, seed=seed)
        rng = random.Random(seed)
        while state["phase"] != "finished":
            seat = rng.choice(to_decide(state))
            action = choose(state, seat, rng)
            positions.append((state, seat, action))
            state = apply(state, seat, action).state
    return positions


def best_time(fn, positions, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for state, seat, action in positions:
            fn(state, seat, action)
        best = min(best, time.process_time() - started)
    return best / len(positions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--preset", default="chudopoly")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    positions = record(args.games, args.seats, args.preset)
    apply_s = best_time(lambda s, seat, a: apply(s, seat, a), positions, args.repeat)
    legal_s = best_time(lambda s, seat, a: legal_actions(s, seat), positions, args.repeat)
    mid = [json.dumps(s, separators=(",", ":")) for s, _, _ in positions
           if 15 <= s["turn_number"] <= 40]
    sizes = [len(text.encode()) for text in mid]
    out = {
        "positions": len(positions),
        "seats": args.seats,
        "apply_us": round(apply_s * 1e6, 1),
        "applies_per_s": round(1 / apply_s),
        "legal_actions_us": round(legal_s * 1e6, 1),
        "state_bytes_median": int(statistics.median(sizes)) if sizes else 0,
        "state_bytes_max": max(sizes, default=0),
    }
    print(f"apply: {out['apply_us']} µs per action ({out['applies_per_s']} per second)")
    print(f"legal_actions: {out['legal_actions_us']} µs per call")
    print(f"{args.seats}-seat mid-game state (turns 15-40): median {out['state_bytes_median']} B,"
          f" max {out['state_bytes_max']} B serialised")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
