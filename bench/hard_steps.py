"""The hard bot's search speed: engine steps per second of CPU time at fixed positions.

    uv run python bench/hard_steps.py
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python \\
        bench/hard_steps.py --searches 3    # less the same with --searches 0

Five medium bots play deals 20003-20005; at every 7th position where the deciding seat has a
play left, `hard.search` runs with a fixed budget of 3000 steps (and a deadline it never
reaches), so the same steps are taken whatever the machine: the figure is how many of them one
second of CPU buys (a decision's budget of 1 s takes `hard.STEPS_PER_SECOND` steps, set well
below this average so that the slowest positions fit too).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.chudopoly import engine  # noqa: E402
from games.chudopoly.bots import hard, medium  # noqa: E402


def positions() -> list[dict]:
    out = []
    for seed in (20003, 20004, 20005):
        state = engine.new_game(ruleset={"preset": "chudopoly"}, seats=5, seed=seed)
        n = 0
        while state["result"] is None:
            seat = engine.to_decide(state)[0]
            view = engine.view(state, seat)
            if view["phase"] == "play" and view["plays_left"] > 0:
                n += 1
                if n % 7 == 0:
                    out.append(view)
            state = engine.apply(state, seat, medium.choose_action(view)).state
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--searches", type=int, default=None,
                        help="only the first N searches (0: the positions alone, e.g. the "
                             "start-up to subtract from an instruction count)")
    args = parser.parse_args(argv)
    views = positions()[:args.searches]
    used = 0
    started = time.process_time()
    for view in views:
        used += hard.search(view, 3600.0, steps=3000)[1]["steps"]
    cpu = time.process_time() - started
    print(f"hard search: {len(views)} searches, {used} steps, {cpu:.2f} s of CPU time: "
          f"{used / cpu if cpu else 0:.0f} steps/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
