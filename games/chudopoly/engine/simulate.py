"""Random-player simulations: `python -m games.chudopoly.engine.simulate --games N --seats S
--preset P --seed X` prints one JSON line of figures (speed, game length, endings, invariant
violations).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

from .apply import apply
from .invariants import check_invariants
from .legal import legal_actions, to_decide
from .random_player import choose
from .rulesets import resolve_ruleset
from .turns import new_game

ACTION_CAP = 200_000


def play_game(ruleset: Mapping[str, Any] | None, seats: int, seed: int, *,
              check: bool = False) -> tuple[dict, int, int]:
    """Play one random game; returns (final state, actions applied, invariant violations).
    With `check`, the invariants are checked after every action."""
    state = new_game(ruleset=dict(ruleset or {}), seats=seats, seed=seed)
    rng = random.Random(seed)
    actions = violations = 0
    while state["phase"] != "finished":
        if actions >= ACTION_CAP:
            violations += 1
            break
        deciders = to_decide(state)
        seat = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
        action = choose(state, seat, rng, legal_actions(state, seat))
        if action is None:
            violations += 1
            break
        state = apply(state, seat, action).state
        actions += 1
        if check and check_invariants(state):
            violations += 1
    return state, actions, violations


def run(*, games: int, seats: int, preset: str, seed: int, check_every: int = 1,
        rules: Mapping[str, Any] | None = None) -> dict:
    """Play `games` seeded random games twice: once timed, once again checking the invariants
    after every action (of every `check_every`-th game) and that each replay ends in exactly
    the same state."""
    # Engine states hold no reference cycles, so reference counting frees every discarded
    # state; the cyclic collector would only rescan live ones. Off for the batch, then back.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(games=games, seats=seats, preset=preset, seed=seed, check_every=check_every,
                    rules=rules)
    finally:
        if was_enabled:
            gc.enable()


def _run(*, games: int, seats: int, preset: str, seed: int, check_every: int,
         rules: Mapping[str, Any] | None) -> dict:
    ruleset = {**(rules or {}), "preset": preset}
    seeds = [seed * 1_000_003 + g for g in range(games)]
    started = time.process_time()
    finals = [play_game(ruleset, seats, s) for s in seeds]
    elapsed = time.process_time() - started  # CPU time on one core, engine + random player
    violations = sum(bad + len(check_invariants(state)) for state, _, bad in finals)
    if check_every > 0:
        for g in range(0, games, check_every):
            state, _, bad = play_game(ruleset, seats, seeds[g], check=True)
            violations += bad + (state != finals[g][0])
    total_actions = sum(n for _, n, _ in finals)
    turns = sorted(state["turn_number"] for state, _, _ in finals)
    endings: Counter[str] = Counter()
    first_wins = 0
    for state, _, _ in finals:
        result = state["result"] or {}
        endings[result.get("stalemate_reason") or result.get("end_reason") or "unfinished"] += 1
        if result.get("winner") is not None and result["winner"] == state["order"][0]:
            first_wins += 1
    return {
        "games": games,
        "seats": seats,
        "preset": preset,
        "ruleset": resolve_ruleset(ruleset)["label"],
        "seed": seed,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(total_actions / elapsed),
        "avg_actions": round(total_actions / max(1, games), 1),
        "avg_turns": round(sum(turns) / max(1, games), 1),
        "p90_turns": turns[min(len(turns) - 1, int(0.9 * len(turns)))] if turns else 0,
        "max_turns": turns[-1] if turns else 0,
        "endings": dict(sorted(endings.items())),
        "first_seat_win_rate": round(first_wins / max(1, games), 3),
        "invariant_violations": violations,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--preset", default="chudopoly")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-every", type=int, default=1,
                        help="replay every Nth game checking the invariants after every "
                             "action (0: final states only)")
    parser.add_argument("--rules", type=json.loads, default=None,
                        help='toggles over the preset, as JSON: \'{"suddenDeath": "points"}\'')
    args = parser.parse_args(argv)
    out = run(games=args.games, seats=args.seats, preset=args.preset, seed=args.seed,
              check_every=args.check_every, rules=args.rules)
    sys.stdout.write(json.dumps(out) + "\n")
    return 1 if out["invariant_violations"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
