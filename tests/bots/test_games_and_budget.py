"""Whole bot games end, and the hard bot keeps to its time budget and its determinism."""

from __future__ import annotations

import time

import pytest

from games.chudopoly import engine
from games.chudopoly.bots import choose_action, hard
from games.chudopoly.bots.arena import play_game
from games.chudopoly.engine import to_decide


@pytest.mark.parametrize("level", ["easy", "medium", "basic"])
def test_a_four_bot_game_of_each_level_ends(level: str) -> None:
    for seed in (1, 2):
        record = play_game([level] * 4, seed=seed, check=True)
        assert record.result["winner"] is not None or record.result["end_reason"] == "stalemate"


def test_a_four_bot_game_of_hard_bots_ends() -> None:
    def quick(view: dict, level: str) -> dict:
        return hard.choose_action(view, budget=0.02)

    record = play_game(["hard"] * 4, seed=1, chooser=quick, check=True)
    assert record.result["placements"]


def test_mixed_tables_of_every_size_end() -> None:
    for seats in (2, 3, 5):
        levels = (["easy", "medium", "hard"] * 2)[:seats]
        record = play_game(levels, seed=seats,
                           chooser=lambda v, lv: hard.choose_action(v, budget=0.02)
                           if lv == "hard" else choose_action(v, level=lv))
        assert record.result["placements"]


def _decisions(seed: int = 5, count: int = 6) -> list[dict]:
    """Views of real play decisions with several candidates, from a medium game."""
    state = engine.new_game(ruleset={}, seats=4, seed=seed)
    views = []
    while len(views) < count and state["result"] is None:
        seat = to_decide(state)[0]
        view = engine.view(state, seat)
        if view["phase"] == "play" and view["plays_left"] > 0 and len(view["legal"]) > 3:
            views.append(view)
        state = engine.apply(state, seat, choose_action(view, level="medium")).state
    return views


def test_the_hard_bot_keeps_to_its_time_budget() -> None:
    budget = 0.2
    slowest = 0.0
    for view in _decisions():
        started = time.perf_counter()
        hard.choose_action(view, budget=budget)
        slowest = max(slowest, time.perf_counter() - started)
    # The deadline is checked after each playout: allow slack, never more than 3x.
    assert slowest < 3 * budget


def test_the_hard_bot_picks_the_same_move_for_the_same_view() -> None:
    for view in _decisions(count=3):
        first, info = hard.search(view, 30.0, steps=300)
        again, _ = hard.search(view, 30.0, steps=300)
        assert first == again
        assert info["steps"] >= 300 or info["worlds"] >= 1



@pytest.mark.parametrize("preset", ["mdFaithful", "blitz", "longGame"])
def test_every_level_finishes_games_under_every_preset(preset: str) -> None:
    def choose(view: dict, level: str) -> dict:
        if level == "hard":
            return hard.choose_action(view, budget=0.02)
        return choose_action(view, level=level)

    record = play_game(["hard", "medium", "easy"], seed=11, ruleset={"preset": preset},
                       chooser=choose, check=True)
    assert record.result["placements"]


def test_house_rules_and_a_custom_deck() -> None:
    """Pure sets, OPSEC costing a play, PCS restarting the turn, a contested approach on
    points, and a deck without CHUD but with more breakers."""
    ruleset = {"preset": "chudopoly", "pureSetRequired": True, "counterCostsPlay": True,
               "passGoRestartsTurn": True, "suddenDeath": "points",
               "deck": {"chud": 0, "inspector_general": 4, "opsec": 5, "wildAny": 4}}
    for seed in (1, 2):
        record = play_game(["medium", "easy", "medium", "hard"], seed=seed, ruleset=ruleset,
                           chooser=lambda v, lv: hard.choose_action(v, budget=0.02)
                           if lv == "hard" else choose_action(v, level=lv), check=True)
        assert record.result["placements"]
