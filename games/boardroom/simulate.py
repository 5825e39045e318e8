"""Seeded playouts: `python -m games.boardroom.simulate --games N --seats K --level L --seed S
--json` prints the figures (speed, game length, endings, landings, invariant violations).

`--level` is a bot level ("easy", "medium", "hard") or "random". The games are played twice: once
timed (CPU time of this process: engine and players), then again from the same seeds with the
invariants checked after every action and each replay compared with the recorded log.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections import Counter
from typing import Any

from .bots import choose_action
from .engine.apply import apply, replay, step
from .engine.board import TILES
from .engine.invariants import check_invariants
from .engine.legal import legal_actions, to_decide
from .engine.random_player import choose as random_choose
from .engine.state import new_game
from .engine.view import view

ACTION_CAP = 200_000


def play_game(seats: int, seed: int, level: str, *, check: bool = False,
              record: bool = False, landings: Counter | None = None) -> dict[str, Any]:
    """One game; returns {"state", "actions", "violations", "log"}. With `check`, each action
    goes through `apply` (a copy) and the invariants are checked after it; otherwise `step`
    resolves in place."""
    st = new_game(seats=seats, seed=seed, bots=[True] * seats)
    rng = random.Random(seed * 7919 + 1)
    actions = violations = 0
    log: list = []
    while st["phase"] != "finished":
        if actions >= ACTION_CAP:
            violations += 1
            break
        seat = to_decide(st)[0]
        if level == "random":
            action = random_choose(st, seat, legal_actions(st, seat), rng)
        else:
            # The after-roll families wait until the bot reads them (most turns it does not).
            legal = legal_actions(st, seat, lazy=True)
            # A single legal action is what any bot would play: no view needed for it.
            action = legal[0] if type(legal) is list and len(legal) == 1 else \
                choose_action(view(st, seat, copy=False, legal=legal), level, rng)
        if record:
            log.append([seat, action])
        if check:
            before = to_decide(st)
            st = apply(st, seat, action).state
            problems = check_invariants(st)
            if seat not in before:
                problems.append("acted out of turn")
            violations += len(problems) > 0
            ev = None
        else:
            ev = step(st, seat, action)
        if landings is not None and ev is not None:
            for e in ev:
                if e["type"] == "move":
                    landings[e["to"]] += 1
                elif e["type"] == "to_audit":
                    landings[10] += 1
        actions += 1
    return {"state": st, "actions": actions, "violations": violations, "log": log}


def run(*, games: int, seats: int, level: str, seed: int, check: bool = True) -> dict[str, Any]:
    was_enabled = gc.isenabled()
    gc.disable()  # states hold no cycles; reference counting frees them
    try:
        landings: Counter = Counter()
        turns: list[int] = []
        endings: Counter = Counter()
        wins: Counter = Counter()
        total_actions = 0
        t0 = time.process_time()
        for g in range(games):
            out = play_game(seats, seed + g, level, landings=landings)
            st = out["state"]
            total_actions += out["actions"]
            turns.append(st["turn_number"])
            res = st["result"] or {}
            endings[res.get("end_reason", "action_cap")] += 1
            wins[st["order"].index(res["winner"]) if res else -1] += 1
        elapsed = time.process_time() - t0
        violations = 0
        replay_mismatches = 0
        if check:
            for g in range(games):
                out = play_game(seats, seed + g, level, check=True, record=True)
                violations += out["violations"]
                again = replay(seats=seats, seed=seed + g, actions=out["log"],
                               bots=[True] * seats)
                replay_mismatches += again != out["state"]
    finally:
        if was_enabled:
            gc.enable()
    turns.sort()
    n = max(1, len(turns))
    total_landings = sum(landings.values()) or 1
    return {
        "games": games, "seats": seats, "level": level, "seed": seed,
        "games_per_s": round(games / elapsed, 2) if elapsed else None,
        "actions_per_s": round(total_actions / elapsed) if elapsed else None,
        "actions_per_game": round(total_actions / n, 1),
        "invariant_violations": violations, "replay_mismatches": replay_mismatches,
        "turns_median": turns[n // 2] if turns else 0,
        "turns_p90": turns[min(n - 1, int(n * 0.9))] if turns else 0,
        "turns_max": turns[-1] if turns else 0,
        "endings": dict(endings),
        "wins_by_turn_position": {str(k): v for k, v in sorted(wins.items())},
        "landing_frequency": {f"{t['pos']} {t['name']}": round(landings[t["pos"]] /
                                                             total_landings, 4)
                              for t in TILES},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--level", default="medium", choices=["random", "easy", "medium", "hard"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="one JSON object (default: indented)")
    p.add_argument("--no-check", action="store_true", help="skip the checked replay pass")
    args = p.parse_args(argv)
    out = run(games=args.games, seats=args.seats, level=args.level, seed=args.seed,
              check=not args.no_check)
    sys.stdout.write(json.dumps(out) if args.json else json.dumps(out, indent=1))
    sys.stdout.write("\n")
    return 0 if out["invariant_violations"] == 0 and out["replay_mismatches"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
