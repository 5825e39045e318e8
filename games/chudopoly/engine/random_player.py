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


# Types whose actions come in several variants per card: pick the card first, then a variant,
# so a card with many targets is not many times likelier to be played.
_PER_CARD = frozenset(("place", "action", "move"))


def choose(state: dict, seat: int, rng: random.Random, actions: list[dict] | None = None,
           scoop_weight: float = 0.0) -> dict | None:
    """One legal action for `seat`, or None if it has none (besides scooping)."""
    if actions is None:
        actions = legal_actions(state, seat)
    present = {a["type"] for a in actions}
    edges: list[tuple[float, str]] = []  # cumulative weights of the types on offer
    total = 0.0
    for t, w in TYPE_WEIGHTS.items():
        if t in present:
            w = scoop_weight if t == "scoop" else w
            if w > 0:
                total += w
                edges.append((total, t))
    if not edges:
        return None
    r = rng.random() * total
    chosen = next((t for edge, t in edges if r < edge), edges[-1][1])
    group = [a for a in actions if a["type"] == chosen]
    if chosen == "respond":
        opsec = [a for a in group if a["answer"] == "opsec"]
        if opsec and rng.random() < 0.4:
            return opsec[int(rng.random() * len(opsec))]
        accept = [a for a in group if a["answer"] == "accept"]
        return accept[int(rng.random() * len(accept))]
    if len(group) > 1 and chosen in _PER_CARD:
        cards = list({a["card"]: None for a in group})
        if len(cards) > 1:
            card = cards[int(rng.random() * len(cards))]
            group = [a for a in group if a["card"] == card]
    return group[int(rng.random() * len(group))]
