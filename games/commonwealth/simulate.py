"""Bot simulations: `python -m games.commonwealth.simulate --games N --seats K --level L
--seed S --json` prints the figures: speed, game length, endings by kind, invariant breaks.

Levels: easy, medium, hard (the bots, deciding from their views) or random (the engine's
random player). `--levels easy,medium` seats different levels in turn. Every game is checked
against the invariants after every action, and replayed from its seed and action log.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.commonwealth.bots import choose_action
from games.commonwealth.engine import (
    apply,
    check_invariants,
    legal_actions,
    new_game,
    replay,
    to_decide,
    view,
)
from games.commonwealth.engine.random_player import choose as random_choose

ACTION_CAP = 50_000


def play_game(levels: Sequence[str], seed: int, *, check: bool = True
              ) -> tuple[dict[str, Any], list[list[Any]], int]:
    """One seeded game; returns (final state, action log, invariant violations)."""
    state = new_game(seats=len(levels), seed=seed)
    rng = random.Random(seed)
    log: list[list[Any]] = []
    violations = 0
    while state["result"] is None:
        if len(log) >= ACTION_CAP:
            return state, log, violations + 1
        deciders = to_decide(state)
        seat = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
        level = levels[seat]
        if level == "random":
            action = random_choose(state, seat, rng)
        else:
            action = choose_action(view(state, seat), level, rng)
        if seat not in deciders or (action["type"] != "offer"
                                    and action not in legal_actions(state, seat)
                                    and action["type"] not in ("bid", "donate", "pledge")):
            violations += 1  # a seat acting out of turn, or off the generator's list
        state = apply(state, seat, action).state
        log.append([seat, action])
        if check:
            violations += len(check_invariants(state))
    return state, log, violations


def run(*, games: int, levels: Sequence[str], seed: int, check: bool = True) -> dict[str, Any]:
    was = gc.isenabled()
    gc.disable()  # states hold no cycles; reference counting frees them
    try:
        seeds = [seed * 1_000_003 + g for g in range(games)]
        started = time.process_time()
        results = [play_game(levels, s, check=False) for s in seeds]
        elapsed = time.process_time() - started
    finally:
        if was:
            gc.enable()
    violations = 0
    if check:
        for s, (final, log, _) in zip(seeds, results, strict=True):
            again, _, bad = play_game(levels, s, check=True)
            violations += bad + (again != final)
            violations += replay(ruleset=None, seats=len(levels), seed=s, actions=log) != final
    turns = sorted(st["turn_number"] for st, _, _ in results)
    rounds = sorted(st["round"] for st, _, _ in results)
    endings: Counter[str] = Counter(st["result"]["end_reason"] if st["result"] else "unfinished"
                                    for st, _, _ in results)
    wins: Counter[str] = Counter()
    for st, _, _ in results:
        w = (st["result"] or {}).get("winner")
        wins[f"seat{w}" if w is not None else "nobody"] += 1
    total_actions = sum(len(log) for _, log, _ in results)

    def p90(xs: list[int]) -> int:
        return xs[min(len(xs) - 1, int(0.9 * len(xs)))] if xs else 0

    return {
        "games": games, "seats": len(levels), "levels": list(levels), "seed": seed,
        "seconds": round(elapsed, 3), "games_per_s": round(games / elapsed, 2),
        "actions_per_s": round(total_actions / elapsed), "avg_actions": total_actions / games,
        "median_turns": statistics.median(turns), "p90_turns": p90(turns),
        "median_rounds": statistics.median(rounds), "p90_rounds": p90(rounds),
        "max_turns": turns[-1],
        "endings": {"fund_dry": endings["fund_dry"], "chips": endings["chips"],
                    "cap": endings["cap"], "unfinished": endings["unfinished"]},
        "winners": dict(sorted(wins.items())),
        "invariant_violations": violations,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--levels", default=None,
                        help="comma-separated level per seat (overrides --level/--seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-check", action="store_true")
    parser.add_argument("--json", action="store_true", help="one JSON line (the default)")
    args = parser.parse_args(argv)
    levels = args.levels.split(",") if args.levels else [args.level] * args.seats
    out = run(games=args.games, levels=levels, seed=args.seed, check=not args.no_check)
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    return 1 if out["invariant_violations"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
