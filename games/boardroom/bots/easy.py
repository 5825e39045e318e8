"""The easy bot: the medium bot's rules with blunter numbers: a thin reserve, bids only up
to the price, builds whenever the cash allows, one cash offer a turn at a small premium, and
it accepts offers that pay well above the price."""

from __future__ import annotations

import random
from typing import Any

from . import medium

STYLE = medium.Style(reserve_min=40, reserve_max=120, reserve_share=0.2, bid_factor=0.8,
                     build_margin=0, leave_audit_free_tiles=99, proposals_per_turn=1,
                     trade_premium=3.0, accept_margin=1.4)


def choose_action(v: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return medium.choose_action(v, rng, STYLE)
