"""Helpers for bot tests: ask a level for a move from a seat's view and apply it."""

from __future__ import annotations

import copy
import json
from typing import Any

from games.chudopoly import engine
from games.chudopoly.bots import choose_action

LEVELS = ("easy", "medium", "hard")


def decide(state: dict, seat: int, level: str) -> dict[str, Any]:
    """The bot's move, from a deep copy of the seat's view only (nothing else reaches it)."""
    view = json.loads(json.dumps(engine.view(state, seat)))
    return choose_action(copy.deepcopy(view), level=level)


def decide_and_apply(state: dict, seat: int, level: str) -> tuple[dict[str, Any], dict]:
    """The bot's move and the state after it; raises IllegalAction if the move is illegal."""
    action = decide(state, seat, level)
    after = engine.apply(state, seat, action).state
    assert not engine.check_invariants(after)
    return action, after
