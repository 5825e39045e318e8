"""Small helpers so each rule test reads as the rule."""

from __future__ import annotations

from typing import Any

from games.commonwealth.engine import apply, check_invariants, legal_actions
from games.commonwealth.engine.data import PROJECTS


def act(st: dict[str, Any], seat: int, action: dict[str, Any]
        ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Apply one action and check the invariants of the result."""
    applied = apply(st, seat, action)
    assert check_invariants(applied.state) == []
    return applied.state, applied.events


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def space_of(pid: int) -> int:
    return PROJECTS[pid]["space"]


def kinds(st: dict[str, Any], seat: int) -> set[str]:
    return {a["type"] for a in legal_actions(st, seat)}
