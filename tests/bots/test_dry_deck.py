"""With the deck and the discard pile both empty, PCS Orders draws back only itself. Under
passGoRestartsTurn (the blitz preset) it also restarts the turn, so a bot that played it there
never ended its turn: a test game of easy bots once ran past 5000 decisions on such a deal."""

from __future__ import annotations

import pytest
from bots_helpers import LEVELS, decide_and_apply

from games.chudopoly.bots.arena import play_game
from games.chudopoly.engine import card, resolve_ruleset, scenario


def dry_table() -> dict:
    """Seat 0 holds PCS Orders and a 1M note; every other card is in the other hands."""
    return scenario(seats=2, ruleset={"preset": "blitz"},
                    hands={0: ["pcs_orders", "money:1"]}, rest="hand:1")


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_does_not_play_pcs_orders_that_would_draw_back_only_itself(level: str) -> None:
    state = dry_table()
    assert not state["deck"] and not state["discard"]
    pcs = card(state, "pcs_orders", seat=0)
    for _ in range(10):
        if state["turn"] != 0:
            break
        action, state = decide_and_apply(state, 0, level)
        assert not (action["type"] == "action" and action["card"] == pcs), "played for nothing"
    assert state["turn"] != 0, "the bot's turn never ended"


def test_the_blitz_deal_that_looped_now_ends() -> None:
    record = play_game(["easy"] * 4, seed=4, ruleset=resolve_ruleset({"preset": "blitz"}))
    assert record.result is not None
