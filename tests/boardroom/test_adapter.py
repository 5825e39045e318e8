"""The GameEngine adapter and the log lines."""

from __future__ import annotations

import random

import pytest

from games.boardroom.bots import choose_action
from games.boardroom.describe import describe_event
from games.boardroom.engine import scenario
from games.boardroom.game import BoardroomGame, RulesetError, resolve_ruleset
from games.platform.interface import GameEngine, IllegalAction

from .helpers import act_ev


def test_the_adapter_implements_the_game_interface() -> None:
    assert isinstance(BoardroomGame(), GameEngine)


def test_every_move_changes_the_deciding_seats_decision_key() -> None:
    """Boardroom's decisions are not independent: a page a move behind is always stale."""
    g = BoardroomGame()
    rules = g.resolve_ruleset({"bots": [True] * 3})
    st = g.create(ruleset=rules, seats=3, seed=4)
    rng = random.Random(4)
    for _ in range(20):
        seat = g.to_decide(st)[0]
        before = g.decision_key(st, seat)
        st = g.apply(st, seat, choose_action(g.view(st, seat), "medium", rng)).state
        assert before is not None and g.decision_key(st, g.to_decide(st)[0]) != before
    idle = next(s for s in range(3) if s not in g.to_decide(st))
    assert g.decision_key(st, idle) is None


def test_the_adapter_plays_and_replays_a_bot_game() -> None:
    g = BoardroomGame()
    rules = g.resolve_ruleset({"bots": [True] * 3, "turnCap": 60})
    st = g.create(ruleset=rules, seats=3, seed=4)
    rng = random.Random(4)
    log = []
    while g.result(st) is None:
        seat = g.to_decide(st)[0]
        a = choose_action(g.view(st, seat), "medium", rng)
        log.append((seat, a))
        applied = g.apply(st, seat, a)
        for e in g.events_for(applied.events, 0):
            line = g.describe_event(e, viewer=0, names=["Ann", "Bea", "Cy"], ruleset=rules)
            assert line is None or isinstance(line, str)
        st = applied.state
    assert g.replay(ruleset=rules, seats=3, seed=4, actions=log) == st


def test_the_adapter_refuses_with_the_interfaces_error_and_takes_clock_actions() -> None:
    g = BoardroomGame()
    st = g.create(ruleset=g.resolve_ruleset(None), seats=2, seed=1)
    with pytest.raises(IllegalAction):
        g.apply(st, st["order"][1], {"type": "roll"})
    seat = g.to_decide(st)[0]
    # The clock's actions carry its mark, which a player's frame can never send.
    assert g.timeout_actions(st, seat) == [{"type": "forfeit", "clock": True}]
    with pytest.raises(IllegalAction):
        g.apply(st, seat, {"type": "forfeit"})
    st = g.apply(st, seat, g.timeout_actions(st, seat)[0]).state
    assert g.result(st)["winner"] != seat


def test_a_bad_ruleset_names_its_field() -> None:
    with pytest.raises(RulesetError) as exc:
        resolve_ruleset({"turnCap": 5})
    assert exc.value.field == "turnCap"


def test_log_lines_say_the_money_per_seat_with_signs() -> None:
    _, ev = act_ev(scenario(owners={3: 1}, dice=[(1, 2)]), 0, "roll")
    lines = [describe_event(e, viewer=0, names=["Ann", "Bea"]) for e in ev]
    assert "You paid Bea 2 (rent for Pancake Kiosk) (you −2, Bea +2)." in lines
