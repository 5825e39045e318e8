"""A seeded random player that only picks listed legal actions (simulations, tests)."""

from __future__ import annotations

import random
from typing import Any

from .legal import legal_actions


def choose(st: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """One legal action for `seat`, uniformly by type then within it; None if it owes none."""
    actions = legal_actions(st, seat)
    if not actions:
        return None
    types = list(dict.fromkeys(a["type"] for a in actions))
    t = types[int(rng.random() * len(types))]
    group = [a for a in actions if a["type"] == t]
    return group[int(rng.random() * len(group))]
