"""Bot tournament: win rates of the bot levels against each other, with 95% Wilson intervals.

    uv run python bench/bot_tournament.py --lineup medium,easy --games 200
    uv run python bench/bot_tournament.py --lineup hard,medium,medium,medium --games 200 \\
        --hard-budget 0.25 --jobs 2
    uv run python bench/bot_tournament.py --games 40 --seats 2,3,4,5 --levels easy,medium,hard

With `--lineup`, one table of that many seats is played `--games` times. Without it, a round
robin: for each seat count and each pair of levels (A, B), A sits with B in every other seat
(heads-up: each unordered pair once).

Seats rotate and deals repeat: game g deals seed `--seed + g // k` and seats the lineup rotated
by g % k (k = seats), so every deal is played from every seat and the first-player edge cancels.
Every decision gets only the deciding seat's view (games/chudopoly/bots/arena.py). Figures go to
stdout, one block per table, plus a JSON line per table with `--json`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.chudopoly.bots import LEVELS, choose_action, hard, medium  # noqa: E402
from games.chudopoly.bots.arena import play_game  # noqa: E402

_HARD_BUDGET = hard.DEFAULT_BUDGET
_NO_DEADLINE = False


def _choose(view: dict[str, Any], level: str) -> dict[str, Any]:
    if level == "hard":
        if _NO_DEADLINE:
            # The budget's steps, never cut by the clock: the moves of an idle machine.
            return hard.choose_action(view, budget=3600.0,
                                      steps=int(_HARD_BUDGET * hard.STEPS_PER_SECOND))
        return hard.choose_action(view, budget=_HARD_BUDGET)
    return choose_action(view, level=level)


def _init(hard_budget: float, no_deadline: bool = False) -> None:
    global _HARD_BUDGET, _NO_DEADLINE
    _HARD_BUDGET = hard_budget
    _NO_DEADLINE = no_deadline
    # Experiments: HARD_PARAMS='{"HORIZON": "turn"}' overrides the hard module's constants;
    # "STYLE": {"money": 0.7} overrides fields of the hard bot's own weights.
    for name, value in json.loads(os.environ.get("HARD_PARAMS", "{}")).items():
        if name == "STYLE":
            value = medium.style_from(value, hard.STYLE)
        setattr(hard, name, value)


def _one(job: tuple[list[str], int, int, dict[str, Any]]) -> dict[str, Any]:
    lineup, g, base_seed, ruleset = job
    k = len(lineup)
    rot = g % k
    levels = lineup[k - rot:] + lineup[:k - rot] if rot else list(lineup)
    cpu = time.process_time()
    rec = play_game(levels, seed=base_seed + g // k, ruleset=ruleset, chooser=_choose)
    cpu = time.process_time() - cpu
    winner = rec.result["winner"]
    return {
        "levels": levels,
        "winner_level": levels[winner] if winner is not None else None,
        "end_reason": rec.result.get("stalemate_reason") or rec.result["end_reason"],
        "turns": rec.turns,
        "seconds": rec.decision_seconds,
        "decisions": rec.decisions,
        "slowest": rec.slowest,
        "cpu": cpu,
        "actions": rec.actions,
    }


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for `wins` successes out of `n`."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def run_table(lineup: Sequence[str], *, games: int, seed: int, jobs: int, hard_budget: float,
              ruleset: dict[str, Any], no_deadline: bool = False) -> dict[str, Any]:
    work = [(list(lineup), g, seed, ruleset) for g in range(games)]
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []

    def progress(row: dict[str, Any]) -> None:
        rows.append(row)
        if len(rows) % 10 == 0 or len(rows) == games:
            focus = lineup[0]
            wins = sum(1 for r in rows if r["winner_level"] == focus)
            print(f"  ... {len(rows)}/{games} games, {focus} won {wins} "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)

    if jobs > 1:
        with Pool(jobs, initializer=_init, initargs=(hard_budget, no_deadline)) as pool:
            for row in pool.imap(_one, work, chunksize=1):
                progress(row)
    else:
        _init(hard_budget, no_deadline)
        for w in work:
            progress(_one(w))
    wall = time.perf_counter() - started
    k = len(lineup)
    levels = list(dict.fromkeys(lineup))
    out: dict[str, Any] = {"lineup": list(lineup), "seats": k, "games": games, "seed": seed,
                           "hard_budget": hard_budget if "hard" in lineup else None,
                           "no_deadline": no_deadline and "hard" in lineup,
                           "wall_seconds": round(wall, 1), "levels": {}}
    # CPU time of the games themselves (each in its own process with --jobs), so the speed
    # figure holds on a shared box: games and engine actions per second of one core.
    cpu = sum(r["cpu"] for r in rows)
    out["cpu_seconds"] = round(cpu, 2)
    out["games_per_cpu_second"] = round(games / cpu, 1) if cpu else 0.0
    out["actions_per_cpu_second"] = round(sum(r["actions"] for r in rows) / cpu) if cpu else 0
    endings: dict[str, int] = {}
    for r in rows:
        endings[r["end_reason"]] = endings.get(r["end_reason"], 0) + 1
    out["endings"] = endings
    # Game by game (rows keep the games' order), so that two variants played on the same deals
    # can be compared where they differ rather than as two independent rates.
    out["winners"] = [r["winner_level"] for r in rows]
    out["avg_turns"] = round(sum(r["turns"] for r in rows) / max(1, games), 1)
    for level in levels:
        wins = sum(1 for r in rows if r["winner_level"] == level)
        lo, hi = wilson(wins, games)
        spent = sum(r["seconds"].get(level, 0.0) for r in rows)
        made = sum(r["decisions"].get(level, 0) for r in rows)
        out["levels"][level] = {
            "seats": lineup.count(level),
            "wins": wins,
            "win_rate": round(wins / games, 4) if games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "fair_share": round(lineup.count(level) / k, 4),
            "avg_decision_ms": round(1000 * spent / made, 2) if made else 0.0,
            "max_decision_ms": round(1000 * max((r["slowest"].get(level, 0.0) for r in rows),
                                                default=0.0), 1),
            "decisions": made,
        }
    return out


def print_table(t: dict[str, Any]) -> None:
    budget = f", hard budget {t['hard_budget']} s" if t["hard_budget"] is not None else ""
    if t.get("no_deadline"):
        budget += f" ({int(t['hard_budget'] * hard.STEPS_PER_SECOND)} steps, no deadline)"
    print(f"\n{t['seats']} seats: {' / '.join(t['lineup'])} - {t['games']} games, seed "
          f"{t['seed']}{budget}, avg {t['avg_turns']} turns, endings {t['endings']}, "
          f"{t['wall_seconds']} s")
    print(f"  speed: {t['games_per_cpu_second']} games/s, {t['actions_per_cpu_second']} "
          f"actions/s on one core ({t['cpu_seconds']} s of CPU time, games only)")
    for level, f in t["levels"].items():
        lo, hi = f["ci95"]
        print(f"  {level:<7} x{f['seats']}  wins {f['wins']:>4}/{t['games']}  "
              f"{100 * f['win_rate']:5.1f}%  95% CI [{100 * lo:5.1f}, {100 * hi:5.1f}]  "
              f"fair {100 * f['fair_share']:4.1f}%  decision avg {f['avg_decision_ms']:8.2f} ms"
              f"  max {f['max_decision_ms']:7.1f} ms")
    sys.stdout.flush()


def round_robin(levels: Sequence[str], seat_counts: Sequence[int]) -> list[list[str]]:
    tables = []
    for k in seat_counts:
        for i, a in enumerate(levels):
            for j, b in enumerate(levels):
                if a == b or (k == 2 and j < i):
                    continue
                tables.append([a] + [b] * (k - 1))
    return tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per table")
    parser.add_argument("--lineup", help="one table: comma-separated levels, one per seat")
    parser.add_argument("--levels", default="easy,medium,hard", help="round-robin levels")
    parser.add_argument("--seats", default="2,3,4,5", help="round-robin seat counts")
    parser.add_argument("--hard-budget", type=float, default=hard.DEFAULT_BUDGET,
                        help="seconds per hard-bot decision (default %(default)s)")
    parser.add_argument("--no-deadline", action="store_true",
                        help="hard searches take their budget's steps whatever the clock says, "
                             "so a loaded machine plays the same moves as an idle one")
    parser.add_argument("--seed", type=int, default=20_000, help="first deal's seed")
    parser.add_argument("--preset", default="chudopoly")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="also print a JSON line per table")
    args = parser.parse_args(argv)
    if args.lineup:
        tables = [args.lineup.split(",")]
    else:
        tables = round_robin(args.levels.split(","), [int(s) for s in args.seats.split(",")])
    for lineup in tables:
        unknown = [lv for lv in lineup if lv not in LEVELS]
        if unknown or not 2 <= len(lineup) <= 5:
            parser.error(f"bad lineup {lineup}")
    print(f"bot tournament: {len(tables)} table(s), {args.games} games each, preset "
          f"{args.preset}, jobs {args.jobs}, pid {os.getpid()}")
    for lineup in tables:
        t = run_table(lineup, games=args.games, seed=args.seed, jobs=args.jobs,
                      hard_budget=args.hard_budget, ruleset={"preset": args.preset},
                      no_deadline=args.no_deadline)
        print_table(t)
        if args.json:
            print(json.dumps(t))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
