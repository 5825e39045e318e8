"""Boardroom bots: a seat view in, one legal action out.

    choose_action(view, level, rng) -> action

`view` is `engine.view(state, seat)` (it carries the seat's legal actions); `level` is
"easy" or "medium" (a later "hard" plugs into `LEVELS`); `rng` is the caller's seeded
`random.Random`, the only randomness a bot uses.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import easy, medium

LEVELS: dict[str, Callable[[dict[str, Any], random.Random], dict[str, Any]]] = {
    "easy": easy.choose_action,
    "medium": medium.choose_action,
}


def choose_action(view: dict[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    try:
        bot = LEVELS[level]
    except KeyError:
        raise ValueError(f"Unknown bot level {level!r} (one of {', '.join(LEVELS)})") from None
    return bot(view, rng)
