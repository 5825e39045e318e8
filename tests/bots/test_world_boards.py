"""The hard bot's sampled worlds show each board as the objects its content was first seen as,
so the bots' board answers (kept by the board objects' identity) carry over between steps."""

from __future__ import annotations

import copy

from games.chudopoly import engine
from games.chudopoly.bots.observe import Obs


def a_state_after_a_few_moves() -> dict:
    from games.chudopoly.bots import choose_action

    state = engine.new_game(ruleset={"preset": "chudopoly"}, seats=4, seed=20020)
    for _ in range(30):
        seat = engine.to_decide(state)[0]
        state = engine.apply(state, seat, choose_action(engine.view(state, seat),
                                                        level="medium")).state
    return state


def test_equal_boards_in_two_worlds_are_read_as_the_same_objects() -> None:
    state = a_state_after_a_few_moves()
    other = copy.deepcopy(state)  # every board equal, every object new
    first, second = Obs.from_state(state, 0), Obs.from_state(other, 0)
    for seat in range(4):
        assert second.zones[seat] is first.zones[seat]
        assert second.upgrades[seat] is first.upgrades[seat]
        assert second.zones[seat] == other["players"][seat]["zones"]


def test_a_board_that_differs_in_content_or_order_is_its_own() -> None:
    state = a_state_after_a_few_moves()
    other = copy.deepcopy(state)
    seat = next(s for s, p in enumerate(other["players"]) if len(p["zones"]) >= 2)
    zones = other["players"][seat]["zones"]
    other["players"][seat]["zones"] = dict(reversed(zones.items()))
    seen = Obs.from_state(other, 0).zones[seat]
    assert seen is not Obs.from_state(state, 0).zones[seat]
    assert list(seen) == list(reversed(zones))  # the order the bots iterate in is kept


def test_the_hard_bots_search_is_the_same_without_it(monkeypatch) -> None:
    # Answers are pure functions of a board's content (the recorded searches of
    # tests/bots/test_same_moves.py replay exactly too).
    from games.chudopoly.bots import hard, observe

    state = a_state_after_a_few_moves()
    seat = engine.to_decide(state)[0]
    view = engine.view(state, seat)
    shared = hard.search(view, 3600.0, steps=3000)
    monkeypatch.setattr(observe, "_world_board", lambda zones, ups: (zones, ups))
    each_its_own = hard.search(view, 3600.0, steps=3000)
    assert shared[0] == each_its_own[0]
    assert shared[1]["means"] == each_its_own[1]["means"]
    assert shared[1]["steps"] == each_its_own[1]["steps"]
