"""Helpers for engine tests: play an action, expect a refusal that changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.chudopoly.engine import IllegalAction, apply, check_invariants, legal_actions


def dump(state: dict) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


class Play:
    """Apply actions and keep the events, asserting the invariants after each."""

    def __init__(self) -> None:
        self.events: list[dict] = []

    def __call__(self, state: dict, seat: int, action: dict[str, Any], *,
                 listed: bool = True) -> dict:
        before = dump(state)
        if listed and action["type"] not in ("pay", "discard"):
            assert action in legal_actions(state, seat), (
                f"{action} not offered to seat {seat}")
        applied = apply(state, seat, action)
        assert dump(state) == before, "apply modified its input state"
        assert applied.state["version"] == state["version"] + 1
        problems = check_invariants(applied.state)
        assert not problems, problems
        self.events = applied.events
        return applied.state

    def types(self) -> list[str]:
        return [e["type"] for e in self.events]

    def find(self, typ: str) -> dict:
        return next(e for e in self.events if e["type"] == typ)


def listed(action: dict[str, Any], actions: list[dict]) -> bool:
    """Whether `action` is offered, comparing types too (1.0 == 1 in Python, not in JSON)."""
    return any(a == action and all(type(action[k]) is type(v) for k, v in a.items())
               for a in actions)


def refused(state: dict, seat: int, action: dict[str, Any], reason: str | None = None) -> str:
    """Assert that `action` is refused (with `reason`, if given) and leaves `state` identical."""
    before = dump(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action)
    assert dump(state) == before
    assert not listed(action, legal_actions(state, seat))
    if reason is not None:
        assert info.value.reason == reason
    return info.value.reason
