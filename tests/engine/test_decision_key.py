"""decision_key: what one seat is deciding, unchanged by moves that leave its decision alone."""

from __future__ import annotations

from games.chudopoly.engine import apply, card, decision_key, scenario


def _rent_on_two() -> dict:
    state = scenario(seats=3, hands={0: ["rent:red/yellow"], 2: ["opsec"]},
                     boards={0: {"red": ["F-22 Raptor"]}},
                     banks={1: ["money:5"], 2: ["money:5"]})
    rent = {"type": "action", "card": card(state, "rent:red/yellow"), "colour": "red"}
    return apply(state, 0, rent).state


def test_another_seat_answering_its_own_chain_leaves_a_seats_decision_unchanged() -> None:
    state = _rent_on_two()
    before = decision_key(state, 1)
    state = apply(state, 2, {"type": "respond", "answer": "accept", "target": 2}).state
    assert decision_key(state, 1) == before
    state = apply(state, 2, {"type": "pay", "cards": state["players"][2]["bank"]}).state
    assert decision_key(state, 1) == before


def test_an_opsec_in_another_chain_leaves_a_seats_decision_unchanged() -> None:
    state = _rent_on_two()
    before = decision_key(state, 1)
    state = apply(state, 2, {"type": "respond", "answer": "opsec", "target": 2}).state
    assert decision_key(state, 1) == before


def test_a_seats_own_answer_changes_its_decision() -> None:
    state = _rent_on_two()
    before = decision_key(state, 1)
    state = apply(state, 1, {"type": "respond", "answer": "accept", "target": 1}).state
    assert decision_key(state, 1) != before


def test_every_play_of_a_turn_is_a_new_decision_for_the_turn_holder() -> None:
    state = scenario(seats=2, hands={0: ["money:1", "money:2"]})
    before = decision_key(state, 0)
    state = apply(state, 0, {"type": "bank", "card": card(state, "money:1")}).state
    assert decision_key(state, 0) != before


def test_a_seat_that_is_out_or_a_finished_game_decides_nothing() -> None:
    state = scenario(seats=3, scooped=[2])
    assert decision_key(state, 2) is None
    assert decision_key(state, 1) == ["wait"]
    state = apply(state, 1, {"type": "scoop"}).state
    assert state["phase"] == "finished" and decision_key(state, 0) is None
