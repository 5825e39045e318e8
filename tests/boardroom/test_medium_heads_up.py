"""Heads-up, the medium bot makes no trade offers (its offers lost it games against easy)."""

from __future__ import annotations

import random

from games.boardroom.bots import choose_action
from games.boardroom.engine import scenario, view

from .helpers import act


def _first_choice(seats: int) -> dict:
    st = act(scenario(seats=seats, pos={0: 14}, dice=[(2, 4)], owners={1: 0, 3: 0, 4: 1},
                      bots=[True] * seats), 0, "roll")
    return choose_action(view(st, 0), "medium", random.Random(1))


def test_heads_up_the_medium_bot_makes_no_offer_for_the_last_tile_of_its_industry() -> None:
    assert _first_choice(2) == {"type": "end_turn"}


def test_with_two_rivals_the_medium_bot_still_offers_for_it() -> None:
    a = _first_choice(3)
    assert a["type"] == "propose" and a["take"] == 4
