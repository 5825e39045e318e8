"""The hard bot's full-game playouts (`HORIZON` "game") and its exact medium playout policy
(`PLAYOUT_EXACT`): the opponents are medium bots, so a playout to the end of the game with
medium's own moves models them exactly but for the cards the seat cannot see."""

from __future__ import annotations

import random

import pytest
from test_hard_search import play_decision

from games.chudopoly import engine
from games.chudopoly.bots import hard, medium
from games.chudopoly.bots.determinize import sample_world
from games.chudopoly.bots.observe import seed_of
from games.chudopoly.engine import to_decide


def test_the_exact_playout_policy_is_the_medium_bot_move_for_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "PLAYOUT_EXACT", True)
    state = engine.new_game(ruleset={}, seats=4, seed=11)
    moves = 0
    while state["result"] is None and moves < 600:
        seat = to_decide(state)[0]
        view = engine.view(state, seat)
        assert hard.state_seed(state, seat, "medium") == seed_of(view, "medium")
        move = medium.choose_action(view)
        assert hard.policy(state, seat) == move
        state = engine.apply(state, seat, move).state
        moves += 1
    assert moves > 50


@pytest.mark.parametrize("exact", [False, True])
def test_a_game_playout_runs_to_the_end_of_the_game(monkeypatch: pytest.MonkeyPatch,
                                                      exact: bool) -> None:
    state = play_decision()
    me = state["turn"]
    view = engine.view(state, me)
    leaves: list[dict] = []
    real_evaluate = hard.evaluate

    def spy(leaf: dict, seat: int) -> float:
        leaves.append(leaf)
        return real_evaluate(leaf, seat)

    monkeypatch.setattr(hard, "HORIZON", "game")
    monkeypatch.setattr(hard, "PLAYOUT_EXACT", exact)
    monkeypatch.setattr(hard, "evaluate", spy)
    for w in range(4):
        world = sample_world(view, random.Random(w))
        value, steps = hard.rollout(world, me, {"type": "end_turn"})
        assert leaves[-1]["result"] is not None  # past every turn boundary, to the result
        assert leaves[-1]["turn_number"] > state["turn_number"] + 1
        assert value == (1.0 if leaves[-1]["result"]["winner"] == me else 0.0)
        assert 1 < steps < hard.GAME_STEP_CAP
        # The same world gives the same playout: the engine's rng is in the state and the
        # playout policy is a function of the state.
        assert hard.rollout(world, me, {"type": "end_turn"}) == (value, steps)


def test_a_game_playout_at_its_step_cap_is_scored_by_the_leaf(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = play_decision()
    me = state["turn"]
    monkeypatch.setattr(hard, "HORIZON", "game")
    monkeypatch.setattr(hard, "GAME_STEP_CAP", 5)
    world = sample_world(engine.view(state, me), random.Random(0))
    value, steps = hard.rollout(world, me, {"type": "end_turn"})
    assert steps == 5
    assert 0.0 < value < 1.0


def test_a_game_horizon_search_gives_the_same_move_for_the_same_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "HORIZON", "game")
    monkeypatch.setattr(hard, "PLAYOUT_EXACT", True)
    view = engine.view(play_decision(), play_decision()["turn"])
    first, info = hard.search(view, budget=30.0, steps=1500)
    again, info2 = hard.search(view, budget=30.0, steps=1500)
    assert info["candidates"] > 1 and info["worlds"] >= 2
    assert first == again
    assert info["means"] == info2["means"]
    assert all(0.0 <= m <= 1.0 for m in info["means"].values())


@pytest.mark.parametrize("seed", [4, 5])  # the medium move is the one-turn best; it is not
def test_preselection_weighs_one_challenger_against_the_medium_move(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    monkeypatch.setattr(hard, "HORIZON", "game")
    monkeypatch.setattr(hard, "PLAYOUT_EXACT", True)
    monkeypatch.setattr(hard, "PRESELECT_STEPS", 200)
    monkeypatch.setattr(hard, "STYLE", medium.STANDARD)  # the decisions were picked for it
    state = play_decision(seed)
    view = engine.view(state, state["turn"])
    action, info = hard.search(view, budget=30.0, steps=1500)
    assert info["candidates"] > 2
    challenger = info["preselected"]
    assert (challenger == 0) == (seed == 4)
    if challenger == 0:  # the one-turn search's best was the medium move: nothing to weigh
        assert info["worlds"] == 0 and info["steps"] < 1500
    else:
        assert set(info["means"]) == {0, challenger}
        assert info["worlds"] >= 2
    assert hard.search(view, budget=30.0, steps=1500)[0] == action
