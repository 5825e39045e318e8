"""The auto move (engine.timeouts.auto_action): it rolls, gives the GO minimum and answers
"no chip" where nothing else is allowed; every real choice waits for the player."""

from __future__ import annotations

from games.commonwealth.engine import apply, auto_action, scenario


def test_it_rolls_at_the_start_of_a_turn() -> None:
    assert auto_action(scenario(seats=3), 0) == {"type": "roll"}


def test_in_jail_it_rolls_for_a_six_rather_than_pay_or_spend_the_card() -> None:
    st = scenario(seats=3, in_jail={0: 0}, jail_card=0)
    assert auto_action(st, 0) == {"type": "jail_roll"}


def test_it_never_plays_for_a_seat_whose_turn_it_is_not() -> None:
    assert auto_action(scenario(seats=3), 1) is None


def test_it_never_buys_or_sends_a_project_to_auction() -> None:
    st = apply(scenario(seats=3, dice=[(4, "2")]), 0, {"type": "roll"}).state
    assert st["step"]["kind"] == "buy"
    assert auto_action(st, 0) is None


def test_it_never_bids() -> None:
    st = apply(scenario(seats=3, dice=[(4, "2")]), 0, {"type": "roll"}).state
    st = apply(st, 0, {"type": "auction"}).state
    bidder = st["step"]["to_act"]
    assert auto_action(st, bidder) is None


def test_it_gives_the_go_minimum_for_every_seat() -> None:
    st = apply(scenario(seats=3, pos={0: 36}, dice=[(5, "2")]), 0, {"type": "roll"}).state
    assert st["step"]["kind"] == "donate"
    assert [auto_action(st, s) for s in range(3)] == [{"type": "donate", "amount": 5}] * 3


def test_it_never_answers_a_deal() -> None:
    st = scenario(seats=3, managers={1: 0}, cash={0: 50, 1: 50})
    offer = {"type": "offer", "to": 1, "give": {"projects": [1]}, "get": {"cash": 20}}
    st = apply(st, 0, offer).state
    assert auto_action(st, 1) is None and auto_action(st, 0) is None


def test_it_leaves_a_chip_it_could_place_to_the_player() -> None:
    st = apply(scenario(seats=3, dice=[(4, "2")], managers={2: 1}), 0, {"type": "roll"}).state
    assert st["step"]["kind"] == "chip"
    assert auto_action(st, 0) is None


def test_a_finished_game_has_no_auto_move() -> None:
    st = scenario(seats=3)
    st["result"] = {"winner": 0}
    assert auto_action(st, 0) is None


def test_it_says_no_chip_when_that_is_the_only_answer() -> None:
    # A chip question where placing is not allowed (here: the project has no manager).
    st = scenario(seats=3, pos={0: 6}, step={"kind": "chip", "project": 2})
    assert auto_action(st, 0) == {"type": "no_chip"}
    assert apply(st, 0, auto_action(st, 0)).state["step"] != st["step"]
