"""A seeded random player that only ever picks from `legal_actions` (simulations, tests).

It weights action types so that games look like games (cards get played, turns end) rather
than endless wild shuffling, then picks uniformly within the type and card."""

from __future__ import annotations

import random

from .legal import legal_actions

TYPE_WEIGHTS: dict[str, float] = {
    "place": 6.0,
    "action": 4.0,
    "bank": 2.5,
    "move": 0.25,
    "swap": 0.1,
    "end_turn": 1.5,
    "respond": 1.0,
    "pay": 1.0,
    "discard": 1.0,
    "scoop": 0.0,
}


def choose(state: dict, seat: int, rng: random.Random, actions: list[dict] | None = None,
           scoop_weight: float = 0.0) -> dict | None:
    """One legal action for `seat`, or None if it has none (besides scooping)."""
    if actions is None:
        actions = legal_actions(state, seat)
    by_type: dict[str, list[dict]] = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)
    types = [t for t in by_type if (TYPE_WEIGHTS.get(t, 1.0) if t != "scoop" else scoop_weight)]
    if not types:
        return None
    weights = [TYPE_WEIGHTS.get(t, 1.0) if t != "scoop" else scoop_weight for t in types]
    group = by_type[rng.choices(types, weights)[0]]
    first = group[0]
    if first["type"] == "respond":
        opsec = [a for a in group if a["answer"] == "opsec"]
        if opsec and rng.random() < 0.4:
            return rng.choice(opsec)
        return rng.choice([a for a in group if a["answer"] == "accept"])
    if "card" in first:
        cards = list(dict.fromkeys(a["card"] for a in group))
        card = rng.choice(cards)
        group = [a for a in group if a["card"] == card]
    return rng.choice(group)
