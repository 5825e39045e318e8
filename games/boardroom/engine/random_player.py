"""A seeded random player: any legal action, families filled with random numbers."""

from __future__ import annotations

import random
from typing import Any

from .board import BUYBACK
from .legal import problem

# Weights keep random games moving: mostly the plain decisions, sometimes a trade or a lot.
_WEIGHT = {"propose": 0.05, "auction_own": 0.05, "give_up": 0.15, "close": 0.5,
           "sell_bank": 0.5, "end_turn": 1.0}


def concrete(family: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One action of a family (legal.py) picked at random."""
    if family["type"] == "auction_own":
        k = (family["start_max"] - family["start_min"]) // family["step"]
        return {"type": "auction_own", "tile": family["tile"],
                "start": family["start_min"] + family["step"] * rng.randint(0, k)}
    if family["kind"] == "swap":
        take = rng.choice(family["take"])
        gives = family["give"] if family["cash_max"] > 0 else family["give"][1:]
        give = rng.choice(gives)
        cash = rng.randint(0 if give is not None else 1, max(1, family["cash_max"]))
        return {"type": "propose", "kind": "swap", "to": family["to"], "take": take,
                "give": give, "cash": min(cash, family["cash_max"])}
    give = rng.choice(family["give"])
    return {"type": "propose", "kind": "sell", "to": family["to"], "give": give,
            "cash": rng.randint(BUYBACK[give], family["cash_max"])}


def choose(state: dict[str, Any], seat: int, legal: list[dict[str, Any]],
           rng: random.Random) -> dict[str, Any]:
    """A random legal action (a family's numbers may hit an offer memory: then another)."""
    weights = [_WEIGHT.get(a["type"], 1.0) for a in legal]
    for _ in range(4):
        a = rng.choices(legal, weights)[0]
        if a["type"] not in ("propose", "auction_own"):
            return a
        c = concrete(a, rng)
        if problem(state, seat, c) is None:
            return c
    return next(a for a in reversed(legal) if a["type"] not in ("propose", "auction_own"))
