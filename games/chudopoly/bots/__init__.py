"""Bots: input is a seat's view (never the raw state), output is one action for that seat.

`choose_action(view, level=...)` is the one entry point the site calls. Levels (docs/bots.md):

- "easy" (alias "basic", the first bot, so existing tables keep working): legal, naive.
- "medium": a heuristic player (medium.py).
- "hard": determinized Monte Carlo search with medium playouts (hard.py), about 1 s a decision.

Every level is deterministic given the view: its random choices are seeded from the view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.chudopoly.bots import easy, hard, medium
from games.chudopoly.engine.view import unlisted_payments

Chooser = Callable[[dict[str, Any]], dict[str, Any]]

LEVELS: dict[str, Chooser] = {
    "easy": easy.choose_action,
    "medium": medium.choose_action,
    "hard": hard.choose_action,
    "basic": easy.choose_action,
}
LEVEL_NAMES: dict[str, str] = {
    "easy": "Easy",
    "medium": "Medium",
    "hard": "Hard",
    "basic": "Easy",
}


def choose_action(view: dict[str, Any], *, level: str = "basic",
                  game_kind: str = "chudopoly") -> dict[str, Any]:
    """One action for the seat the view belongs to (legal: drawn from `view["legal"]`, or a
    payment/discard selection the engine's rule accepts)."""
    legal = view.get("legal")
    # A shared view's owed payment is a decision, even before its selections are listed.
    if unlisted_payments(legal) is None and not any(a.get("type") != "scoop"
                                                    for a in legal or ()):
        # Nothing is owed (scooping is always listed, and a bot never scoops).
        raise ValueError("The bot has no decision to make")
    if game_kind != "chudopoly":
        return easy.choose_any(view)
    chooser = LEVELS.get(level, easy.choose_action)
    return chooser(view)
