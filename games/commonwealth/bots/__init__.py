"""Commonwealth bots: a seat's view in, one action out (never the raw state).

    choose_action(view, level, rng) -> action

Levels: "easy" (legal and naive), "medium" (a heuristic player), "hard" (the medium's
judgement plus a race plan: it counts chips, not money). Every decision is covered, including
deal offers and answers and the Jail split. Randomness comes only from `rng`.
"""

from __future__ import annotations

import random
from typing import Any

from . import easy, hard, medium

LEVELS = {"easy": easy.choose, "medium": medium.choose, "hard": hard.choose}


def choose_action(view: dict[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    if view.get("viewer") is None or not (view.get("legal") or view.get("can_offer")):
        raise ValueError("The bot has no decision to make")
    if not view.get("legal"):
        raise ValueError("The bot has no decision to make")
    chooser = LEVELS.get(level)
    if chooser is None:
        raise ValueError(f"Unknown bot level {level!r}")
    return chooser(view, rng)
