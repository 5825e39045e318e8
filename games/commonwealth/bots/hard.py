"""The hard bot: the medium's judgement tuned for the race.

Money hardly matters while the Fund lives (it covers what a seat cannot pay), so the hard bot
counts chips: it lets the Fund pay its fees down to a lower floor than the medium (300, not
500), and down to 100 once it has 8 chips placed (finishing beats saving), so it
self-develops on turns the mediums hold back; it rides shuttles to a project with
room for its chip, removes only the leader's chips (and those of a rival one behind it), takes
any swap that gains project value, pays its way out of Jail at once and offers more deals.
Measured in bench/commonwealth_tournament.py (docs/commonwealth.md).
"""

from __future__ import annotations

import random
from typing import Any

from . import medium

HARD = medium.Style(fund_floor=300, shuttle_floor=450, remove_margin=1, swap_min=0,
                    jail_buffer=0, bid_over_cash=40, offer_rate=0.6, rides_for_chips=True,
                    target_leader=True, closing_floor=100, closing_at=8)


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return medium.choose(view, rng, HARD)

