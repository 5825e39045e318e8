"""Engine fuzz, fast variant: a few dozen Hypothesis-drawn games with every invariant checked
after every action (the 10,000-game run is `bench/engine_fuzz.py`, figures in
docs/reliability.md)."""

from __future__ import annotations

import engine_fuzz
import pytest


def test_random_games_keep_every_invariant_hide_hands_and_replay_exactly() -> None:
    summary = engine_fuzz.fuzz(8, seed=20261130)
    assert summary["games"] == 8
    played = summary["played"]
    assert len({g["seats"] for g in played}) >= 2
    assert all(g["actions"] > 0 for g in played)


def test_the_checks_catch_a_broken_state() -> None:
    """The fuzz is only worth its figure if a lost card would be caught."""
    from games.chudopoly.engine import check_invariants, new_game

    state = new_game(ruleset={"preset": "blitz"}, seats=3, seed=5)
    state["players"][0]["hand"].append(state["deck"][-1])  # one card in two places
    assert check_invariants(state)
    state = new_game(ruleset={"preset": "blitz"}, seats=3, seed=5)
    state["players"][1]["hand"].append(state["players"][0]["hand"][0])
    with pytest.raises(AssertionError, match="hidden"):
        leaky = dict(state)
        engine_fuzz._check_views(leaky, [1])
