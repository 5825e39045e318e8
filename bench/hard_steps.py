"""The hard bot's search speed: engine steps per second of CPU time at fixed positions.

    uv run python bench/hard_steps.py

Five medium bots play deals 20003-20005; at every 7th position where the deciding seat has a
play left, `hard.search` runs with a fixed budget of 3000 steps (the default budget's, and a
deadline it never reaches), so the same steps are taken whatever the machine: the figure is
how many of them one second of CPU buys (`hard.STEPS_PER_SECOND` assumes 3000).
"""

from __future__ import annotations

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


def main() -> int:
    views = positions()
    used = 0
    started = time.process_time()
    for view in views:
        used += hard.search(view, 3600.0, steps=3000)[1]["steps"]
    cpu = time.process_time() - started
    print(f"hard search: {len(views)} searches, {used} steps, {cpu:.2f} s of CPU time: "
          f"{used / cpu:.0f} steps/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
