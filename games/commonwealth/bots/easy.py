"""The easy bot: any listed action, picked at random by type; it never makes offers and
answers deals at random."""

from __future__ import annotations

import random
from typing import Any


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = view["legal"]
    types = list(dict.fromkeys(a["type"] for a in legal))
    t = types[int(rng.random() * len(types))]
    group = [a for a in legal if a["type"] == t]
    return group[int(rng.random() * len(group))]
