"""One seat of medium weights against three standard medium bots, no search: how a `Style`
alone plays. Medium games take about 25 ms, so thousands of games fit in a minute, which is how
`hard.STYLE` was chosen (docs/bots.md).

    uv run python bench/medium_style.py --games 2000 --style '{"place_base": 0.0}'
    uv run python bench/medium_style.py --games 2000 --hard-style

Game g deals seed `--seed + g // 4` and seats the variant at seat g % 4, so every deal is played
from every seat: a variant equal to the standard weights wins exactly 25%, and any other rate
is the weights' own doing on those deals. Prints the variant's wins, rate and 95% Wilson
interval.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot_tournament import wilson  # noqa: E402

from games.chudopoly.bots import hard, medium  # noqa: E402
from games.chudopoly.bots.arena import play_game  # noqa: E402

SEATS = 4
_STYLE = medium.STANDARD


def _init(style: medium.Style) -> None:
    global _STYLE
    _STYLE = style


def _choose(view: dict[str, Any], level: str) -> dict[str, Any]:
    if level == "variant":
        with medium.playing(_STYLE):
            return medium.choose_action(view)
    return medium.choose_action(view)


def _one(job: tuple[int, int]) -> bool:
    g, seed = job
    levels = ["medium"] * SEATS
    levels[g % SEATS] = "variant"
    rec = play_game(levels, seed=seed + g // SEATS, chooser=_choose)
    winner = rec.result["winner"]
    return winner is not None and levels[winner] == "variant"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=700_000, help="first deal's seed")
    parser.add_argument("--style", default="{}", help="JSON: Style fields to override")
    parser.add_argument("--hard-style", action="store_true",
                        help="start from hard.STYLE instead of the standard weights")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args(argv)
    base = hard.STYLE if args.hard_style else medium.STANDARD
    style = medium.style_from(json.loads(args.style), base)
    changed = {f.name: getattr(style, f.name) for f in dataclasses.fields(style)
               if getattr(style, f.name) != getattr(medium.STANDARD, f.name)}
    started = time.perf_counter()
    work = [(g, args.seed) for g in range(args.games)]
    with Pool(args.jobs, initializer=_init, initargs=(style,)) as pool:
        wins = sum(pool.map(_one, work, chunksize=8))
    lo, hi = wilson(wins, args.games)
    print(f"medium weights {changed or 'standard'} in one seat of {SEATS}, against standard "
          f"mediums, seed {args.seed}: {wins}/{args.games} = {100 * wins / args.games:.1f}% "
          f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%), {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
