"""Boardroom rules engine: pure Python, plain JSON-able data in and out (docs/boardroom.md)."""

from __future__ import annotations

from typing import Any

from .apply import Applied, IllegalAction, apply, replay, step
from .board import TILES, board_table
from .cards import CARDS, card_table
from .invariants import check_invariants
from .legal import legal_actions, problem, to_decide
from .scenario import scenario, tile
from .state import new_game
from .timeouts import auto_move, lot_timeout, timeout_actions
from .view import events_for, view

__all__ = [
    "CARDS",
    "TILES",
    "Applied",
    "IllegalAction",
    "apply",
    "auto_move",
    "board_table",
    "card_table",
    "check_invariants",
    "events_for",
    "legal_actions",
    "lot_timeout",
    "new_game",
    "problem",
    "replay",
    "result",
    "scenario",
    "step",
    "tile",
    "timeout_actions",
    "to_decide",
    "view",
]


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    """None while the game runs; then {"winner", "placements", "end_reason", ...}."""
    r = state["result"]
    return None if r is None else {**r, "placements": r["placements"][:]}
