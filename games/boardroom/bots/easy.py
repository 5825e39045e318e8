"""The easy bot: a casual player. It buys about 40 % of what it lands on when it has the
cash, bids only up to 85 % of the price, builds now and then when it is well off, never
proposes a trade, answers offers by value like the medium bot (with a wider margin) and never
gives away the game, and raises money the medium bot's way."""

from __future__ import annotations

import random
from typing import Any

from ..engine.board import BRANCH_COST, PRICE
from . import medium
from .common import find, first_type

STYLE = medium.Style(reserve_min=40, reserve_max=120, reserve_share=0.2, bid_factor=0.85,
                     auction_instead=0,
                     leave_audit_free_tiles=99, proposals_per_turn=0, accept_margin=1.4,
                     trades=False, consolidate=False)
BUY_CHANCE = 0.4
BUILD_CHANCE = 0.5
BUILD_CUSHION = 800


def choose_action(v: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = v["legal"]
    me = v["viewer"]
    first = first_type(legal) if legal else None
    if first == "bid":
        tile = v["auction"]["tile"]
        amount = legal[0]["amount"]
        ok = amount <= PRICE[tile] * STYLE.bid_factor and v["cash"][me] - amount >= 100
        return legal[0] if ok else legal[1]
    if v["phase"] == "buy" and first in ("buy", "decline") and not v["debts"]:
        buy = find(legal, "buy")
        if buy is not None and v["cash"][me] - PRICE[buy["tile"]] >= 100 \
                and rng.random() < BUY_CHANCE:
            return buy
        return find(legal, "decline")  # type: ignore[return-value]
    build = find(legal, "build")
    if build is not None and not v["debts"]:
        if v["cash"][me] - BRANCH_COST[build["tile"]] >= BUILD_CUSHION \
                and rng.random() < BUILD_CHANCE:
            return build
        return find(legal, "end_turn") or legal[-1]
    return medium.choose_action(v, rng, STYLE)
