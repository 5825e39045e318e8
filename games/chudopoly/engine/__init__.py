"""Chudopoly rules engine: pure Python, plain JSON-able data in and out (docs/engine.md)."""

from __future__ import annotations

from .apply import IllegalAction, apply, replay
from .cards import ACTIONS, COLOURS, PAIR_WILDS, Card, build_deck, card_dict
from .describe import describe_rules
from .invariants import check_invariants
from .legal import decision_key, legal_actions, to_decide
from .payment import payment_problem
from .rulesets import (
    EDITABLE_DECK_COUNTS,
    PRESET_NAMES,
    PRESETS,
    TOGGLES,
    RulesetError,
    resolve_ruleset,
)
from .scenario import card, scenario
from .timeouts import timeout_actions
from .turns import Applied, new_game, start_game
from .view import copy_result, events_for, view

__all__ = [
    "ACTIONS",
    "COLOURS",
    "EDITABLE_DECK_COUNTS",
    "PAIR_WILDS",
    "PRESETS",
    "PRESET_NAMES",
    "TOGGLES",
    "Applied",
    "Card",
    "IllegalAction",
    "RulesetError",
    "apply",
    "build_deck",
    "card",
    "card_dict",
    "check_invariants",
    "decision_key",
    "describe_rules",
    "events_for",
    "legal_actions",
    "new_game",
    "payment_problem",
    "replay",
    "resolve_ruleset",
    "result",
    "scenario",
    "start_game",
    "timeout_actions",
    "to_decide",
    "view",
]


def result(state: dict) -> dict | None:
    """{"winner", "placements", "end_reason", "stalemate_reason", "basis", ...} once finished."""
    return copy_result(state["result"])
