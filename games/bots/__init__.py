"""Bots: input is a seat's view (never the raw state), output is one legal action.

`choose_action(view, level=...)` is the one entry point the site calls. Levels live in their own
modules so a later issue can add stronger ones without touching the tables or the scheduler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.bots import basic

Chooser = Callable[[dict[str, Any]], dict[str, Any]]

LEVELS: dict[str, Chooser] = {
    "basic": basic.choose_action,
}
LEVEL_NAMES: dict[str, str] = {"basic": "Basic"}


def choose_action(view: dict[str, Any], *, level: str = "basic",
                  game_kind: str = "chudopoly") -> dict[str, Any]:
    """One action from `view["legal"]` for the seat the view belongs to."""
    if not view.get("legal"):
        raise ValueError("The bot has no legal action to choose from")
    chooser = LEVELS.get(level, basic.choose_action)
    if game_kind != "chudopoly":
        return basic.choose_any(view)
    return chooser(view)
