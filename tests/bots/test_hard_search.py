"""The hard bot's search: where its playouts stop and when it overrules the medium move."""

from __future__ import annotations

import random

import pytest
from bots_helpers import decide

from games.chudopoly import engine
from games.chudopoly.bots import hard
from games.chudopoly.bots.determinize import sample_world
from games.chudopoly.engine import to_decide


def play_decision(seed: int = 4) -> dict:
    """A state where the seat to move is mid-turn with plays left and several choices."""
    state = engine.new_game(ruleset={}, seats=4, seed=seed)
    for _ in range(400):
        seat = to_decide(state)[0]
        if (state["turn_number"] > 4 and state["turn"] == seat and state["phase"] == "play"
                and state["plays_left"] and len(engine.view(state, seat)["legal"]) > 3):
            return state
        state = engine.apply(state, seat, decide(state, seat, "medium")).state
    raise AssertionError("no play decision found")


@pytest.mark.parametrize("horizon", ["turn", "round"])
def test_a_playout_stops_at_its_horizon(monkeypatch: pytest.MonkeyPatch, horizon: str) -> None:
    state = play_decision()
    me = state["turn"]
    view = engine.view(state, me)
    leaves: list[dict] = []

    def spy(leaf: dict, seat: int) -> float:
        leaves.append(leaf)
        return 0.5

    monkeypatch.setattr(hard, "HORIZON", horizon)
    monkeypatch.setattr(hard, "evaluate", spy)
    for w in range(3):
        world = sample_world(view, random.Random(w))
        hard.rollout(world, me, {"type": "end_turn"})
    assert len(leaves) == 3
    for leaf in leaves:
        if leaf["result"] is not None:
            continue
        assert leaf["turn_number"] > state["turn_number"]
        if horizon == "round":
            # Every opponent has had its turn: the leaf is this seat's next turn start.
            assert leaf["turn"] == me
            assert leaf["turn_number"] == state["turn_number"] + len(state["order"])
        else:
            assert leaf["turn_number"] == state["turn_number"] + 1


def test_the_medium_move_stands_unless_a_candidate_clearly_beats_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "CONFIDENCE", 0.5)
    monkeypatch.setattr(hard, "MIN_GAIN", 0.005)
    medium_move = [0.5, 0.4, 0.6, 0.5]
    clearly = [0.6, 0.5, 0.7, 0.6]  # ahead by 0.1 in every world
    noisy = [0.9, 0.1, 0.9, 0.3]  # ahead by 0.05 on average, but not consistently
    assert hard.pick([medium_move, clearly]) == 1
    assert hard.pick([medium_move, noisy]) == 0
    assert hard.pick([medium_move, [v + 0.001 for v in medium_move]]) == 0  # below MIN_GAIN
    assert hard.pick([medium_move, [0.9]]) == 0  # one world proves nothing
    assert hard.pick([[], clearly]) == 0

