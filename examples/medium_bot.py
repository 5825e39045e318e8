"""The example client of examples/random_bot.py with a stronger policy: this site's own
medium bot, the one that fills empty seats here (docs/bots.md). Run it from a checkout of
this repository, whose games/ holds the bots:

    uv run python examples/medium_bot.py --url https://example.org --token chp_...

A policy is any function from the game (the stream's `gameFull`) and the seat's current
`gameState` to one action. The seat's `view` in the state is exactly what our bots read
when they play a seat at a table, so they plug in unchanged; a program of yours would read
the same view and legal actions (docs/api.md lists both for each game).
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path
from typing import Any

# The repository's root, for `games.*` (pure Python: a game's bots import no Django).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from random_bot import main  # beside this file

LEVEL = "medium"


def medium_move(game: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    bots = importlib.import_module(f"games.{game['kind']}.bots")
    if game["kind"] == "chudopoly":
        return bots.choose_action(state["view"], level=LEVEL)
    # The board games' bots draw from a random generator: seeded by the position, the same
    # decision gets the same move again.
    rng = random.Random(f"{state['version']}:{game['seat']}:{LEVEL}")
    return bots.choose_action(state["view"], LEVEL, rng)


if __name__ == "__main__":
    main(medium_move)
