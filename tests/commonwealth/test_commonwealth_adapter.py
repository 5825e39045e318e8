"""The GameEngine adapter: the protocol's shape and log lines in words."""

from __future__ import annotations

import random

import pytest

from games.commonwealth.bots import choose_action
from games.commonwealth.engine import scenario
from games.commonwealth.game import CommonwealthGame
from games.platform.interface import GameEngine, IllegalAction


def test_the_adapter_implements_the_game_engine_protocol():
    assert isinstance(CommonwealthGame(), GameEngine)


def test_a_bot_game_through_the_adapter_ends_with_a_result_and_a_log_in_words():
    game = CommonwealthGame()
    rules = game.resolve_ruleset({})
    st = game.create(ruleset=rules, seats=3, seed=4)
    rng = random.Random(4)
    lines: list[str] = []
    while game.result(st) is None:
        seat = game.to_decide(st)[0]
        applied = game.apply(st, seat, choose_action(game.view(st, seat), "medium", rng))
        st = applied.state
        for e in game.events_for(applied.events, 0):
            line = game.describe_event(e, viewer=0, names=["Ann", "Bea", "Cy"], ruleset=rules)
            if line:
                lines.append(line)
    assert any("Community Fund" in line and "now" in line for line in lines)
    assert game.result(st)["placements"]


def test_the_adapter_refuses_with_the_interfaces_exception():
    game = CommonwealthGame()
    st = game.create(ruleset=game.resolve_ruleset({}), seats=2, seed=1)
    with pytest.raises(IllegalAction):
        game.apply(st, 1, {"type": "roll"})


def test_bids_and_answers_run_on_the_short_clock():
    game = CommonwealthGame()
    st = scenario(cash={0: 20}, managers={3: 1})
    assert game.clock_seconds(st) == 300
    st = game.apply(st, 0, {"type": "offer", "to": 1, "give": {"cash": 20},
                            "get": {"projects": [3]}}).state
    assert game.clock_seconds(st) == 60
    assert game.clock_context(game.view(st, 1))["pending"] is True


def test_a_go_gift_chosen_while_another_seat_gave_first_still_counts():
    game = CommonwealthGame()
    st = scenario(seats=3, cash={0: 50, 1: 50, 2: 50})
    st["step"] = {"kind": "donate", "owed": [0, 1, 2]}
    before = game.decision_key(st, 2)
    after_other = game.apply(st, 0, {"type": "donate", "amount": 5}).state
    assert game.decision_key(after_other, 2) == before
    after_own = game.apply(after_other, 2, {"type": "donate", "amount": 5}).state
    assert game.decision_key(after_own, 2) != before


def test_any_other_move_makes_a_seats_older_decision_stale():
    game = CommonwealthGame()
    st = scenario(seats=2, dice=[[1, "2"]])  # to an unmanaged project: seat 0 decides again
    rolled = game.apply(st, 0, {"type": "roll"}).state
    assert rolled["step"]["kind"] == "buy"
    assert game.decision_key(rolled, 0) not in (None, game.decision_key(st, 0))
