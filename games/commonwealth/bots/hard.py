"""The hard bot: the medium's judgement tuned for the race.

Money hardly matters while the Fund lives (it covers what a seat cannot pay), so the hard bot
counts chips: it self-develops every turn it can, rides shuttles to a project with room for
its chip, bids into auctions past its cash while the Fund is healthy, removes the leader's
chips, saves a removal for a rival on the brink, and spares the Fund only when it is low.
"""

from __future__ import annotations

import random
from typing import Any

from games.commonwealth.engine import data

from . import medium
from .common import leader, me, placed

HARD = medium.Style(fund_floor=300, shuttle_floor=450, remove_margin=1, swap_min=0,
                    jail_buffer=0, bid_over_cash=40, offer_rate=0.6, rides_for_chips=True,
                    target_leader=True)


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return medium.choose(view, rng, HARD)


def brink(view: dict[str, Any]) -> bool:
    seat = view["viewer"]
    rival = leader(view, exclude=seat)
    return placed(view, rival) >= data.CHIPS_PER_SEAT - 2 and me(view)["placed"] < 9
