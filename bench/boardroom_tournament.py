"""Boardroom bot tournaments: win rates with 95 % Wilson intervals and the slowest decision.

    nice -n 19 uv run python bench/boardroom_tournament.py --lineup medium,easy --games 400
    nice -n 19 uv run python bench/boardroom_tournament.py \\
        --lineup hard,medium,medium,medium --games 400 --jobs 2

One table of `--lineup` (one level a seat) is played `--games` times. Deals repeat and seats
rotate: game g deals seed `--seed + g // k` and seats the lineup rotated by g % k (k seats),
so every deal is played with the focus level (the lineup's first) in every seat and the edge
of the turn order cancels out. Every seat gets its own seeded `random.Random`.

Each decision is made from the deciding seat's view only (`engine.view`), and the time of
each bot call is measured (wall clock, `time.perf_counter`, the view included); the slowest
one of each level is printed. A game that reaches the engine's turn cap ends on net worth
(the engine's declared ending) and its winner counts like any other.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.boardroom.bots import LEVELS, choose_action  # noqa: E402
from games.boardroom.engine import legal_actions, new_game, step, to_decide, view  # noqa: E402


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of `wins` successes in `n` trials."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def seating(lineup: list[str], g: int) -> list[str]:
    """The levels by seat for game g: the lineup rotated by g % k."""
    k = len(lineup)
    r = g % k
    return lineup[k - r:] + lineup[:k - r] if r else list(lineup)


def play(levels: list[str], seed: int) -> dict[str, Any]:
    """One game of `levels` (one a seat) on deal `seed`."""
    k = len(levels)
    st = new_game(seats=k, seed=seed, bots=[True] * k)
    rngs = [random.Random(seed * 1_000_003 + 7919 * i + 1) for i in range(k)]
    slowest: dict[str, float] = {}
    spent: Counter = Counter()
    made: Counter = Counter()
    while st["phase"] != "finished":
        seat = to_decide(st)[0]
        legal = legal_actions(st, seat)
        if len(legal) == 1:  # no choice: any bot plays it
            action = legal[0]
        else:
            lv = levels[seat]
            t0 = time.perf_counter()
            action = choose_action(view(st, seat, copy=False, legal=legal), lv, rngs[seat])
            dt = time.perf_counter() - t0
            spent[lv] += dt
            made[lv] += 1
            if dt > slowest.get(lv, 0.0):
                slowest[lv] = dt
        step(st, seat, action)
    res = st["result"]
    return {"levels": levels, "winner": levels[res["winner"]],
            "end_reason": res["end_reason"], "turns": st["turn_number"],
            "slowest": slowest, "spent": dict(spent), "made": dict(made)}


def _job(job: tuple[list[str], int, int]) -> dict[str, Any]:
    lineup, g, seed = job
    out = play(seating(lineup, g), seed + g // len(lineup))
    out["game"] = g
    return out


def run_table(lineup: list[str], *, games: int, seed: int, jobs: int,
              quiet: bool = False) -> dict[str, Any]:
    work = [(lineup, g, seed) for g in range(games)]
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    cpu0 = time.process_time()

    def note(row: dict[str, Any]) -> None:
        rows.append(row)
        if not quiet and (len(rows) % 20 == 0 or len(rows) == games):
            w = sum(r["winner"] == lineup[0] for r in rows)
            print(f"  ... {len(rows)}/{games}: {lineup[0]} won {w} "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)

    if jobs > 1:
        with Pool(jobs) as pool:
            for row in pool.imap_unordered(_job, work, chunksize=1):
                note(row)
    else:
        for w in work:
            note(_job(w))
    rows.sort(key=lambda r: r["game"])
    k = len(lineup)
    out: dict[str, Any] = {
        "lineup": lineup, "games": games, "seeds": [seed, seed + (games - 1) // k],
        "wall_seconds": round(time.perf_counter() - started, 1),
        "parent_cpu_seconds": round(time.process_time() - cpu0, 1),
        "endings": dict(Counter(r["end_reason"] for r in rows)),
        "turns_median": sorted(r["turns"] for r in rows)[games // 2] if rows else 0,
        "levels": {},
    }
    for lv in dict.fromkeys(lineup):
        wins = sum(r["winner"] == lv for r in rows)
        lo, hi = wilson(wins, games)
        made = sum(r["made"].get(lv, 0) for r in rows)
        spent = sum(r["spent"].get(lv, 0.0) for r in rows)
        out["levels"][lv] = {
            "seats": lineup.count(lv), "wins": wins, "win_rate": round(wins / games, 4),
            "ci95": [round(lo, 4), round(hi, 4)], "fair_share": round(lineup.count(lv) / k, 4),
            "decisions": made,
            "avg_decision_ms": round(1000 * spent / made, 3) if made else 0.0,
            "slowest_decision_ms": round(1000 * max((r["slowest"].get(lv, 0.0) for r in rows),
                                                    default=0.0), 1),
        }
    out["winners"] = "".join(str(lineup.index(r["winner"])) if r["winner"] in lineup else "?"
                             for r in rows)
    return out


def print_table(t: dict[str, Any]) -> None:
    print(f"{len(t['lineup'])} seats: {' / '.join(t['lineup'])}: {t['games']} games, deals "
          f"{t['seeds'][0]}..{t['seeds'][1]} (each from every seat), median "
          f"{t['turns_median']} turns, endings {t['endings']}, {t['wall_seconds']} s wall")
    for lv, f in t["levels"].items():
        lo, hi = f["ci95"]
        print(f"  {lv:<6} x{f['seats']}  wins {f['wins']:>4}/{t['games']}  "
              f"{100 * f['win_rate']:5.1f} %  95 % CI [{100 * lo:5.1f}, {100 * hi:5.1f}]  "
              f"(fair share {100 * f['fair_share']:.0f} %)  decisions {f['decisions']}, avg "
              f"{f['avg_decision_ms']:.3f} ms, slowest {f['slowest_decision_ms']:.1f} ms")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lineup", default="medium,easy",
                   help="comma-separated levels, one per seat; the first is the focus")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=160_000, help="the first deal's seed")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--json", action="store_true", help="also print the table as one JSON line")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    a = p.parse_args(argv)
    lineup = a.lineup.split(",")
    bad = [lv for lv in lineup if lv not in LEVELS]
    if bad or not 2 <= len(lineup) <= 6:
        p.error(f"a lineup is 2 to 6 of {', '.join(LEVELS)}")
    t = run_table(lineup, games=a.games, seed=a.seed, jobs=a.jobs, quiet=a.quiet)
    print_table(t)
    if a.json:
        print(json.dumps(t))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
