"""Commonwealth rules engine: pure Python, plain JSON-able data in and out
(docs/commonwealth.md). The same small API as Chudopoly's engine."""

from __future__ import annotations

from typing import Any

from .apply import Applied, IllegalAction, apply, replay
from .data import describe
from .invariants import check_invariants
from .legal import can_offer, legal_actions, offer_problem, problem, to_decide
from .scenario import card_id, scenario
from .state import PRESET_NAMES, PRESETS, RulesetError, new_game, resolve_ruleset
from .timeouts import CLOCKS, auto_action, clock_kind, timeout_actions
from .view import events_for, screen_view, view

__all__ = [
    "CLOCKS", "PRESETS", "PRESET_NAMES", "Applied", "IllegalAction", "RulesetError",
    "apply", "auto_action", "can_offer", "card_id", "check_invariants", "clock_kind",
    "describe", "events_for", "legal_actions", "new_game", "offer_problem", "problem",
    "replay", "resolve_ruleset", "result", "scenario", "screen_view", "timeout_actions",
    "to_decide", "view",
]


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    """None while running; then {"winner", "placements", "end_reason", "chips", ...}."""
    r = state["result"]
    return None if r is None else {k: (list(v) if isinstance(v, list) else v)
                                   for k, v in r.items()}
