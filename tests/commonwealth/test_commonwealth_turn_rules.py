"""The turn and the dice: contribute and/or play a card before rolling, then both dice."""

from __future__ import annotations

from commonwealth_helpers import act, kinds, space_of, types

from games.commonwealth.engine import card_id, legal_actions, scenario, to_decide
from games.commonwealth.engine.data import PROJECTS


def test_before_rolling_a_seat_may_self_develop_and_play_a_kept_card_then_rolls():
    st = scenario(managers={0: 0, 2: 1}, cash={0: 100}, kept={0: "free_chip"},
                  dice=[(1, "3")])
    assert {"develop", "play_card", "roll"} <= kinds(st, 0)
    st, _ = act(st, 0, {"type": "develop", "project": 0})
    st, _ = act(st, 0, {"type": "play_card", "card": card_id("free_chip"), "project": 2})
    assert st["projects"][0]["chips"] == [0] and st["projects"][2]["chips"] == [0]
    assert kinds(st, 0) == {"roll"}
    st, ev = act(st, 0, {"type": "roll"})
    assert "roll" in types(ev)


def test_self_development_pays_the_fee_own_money_first_and_the_fund_covers_the_rest():
    st = scenario(managers={0: 0}, cash={0: 15})
    fee = PROJECTS[0]["fee"]
    st, _ = act(st, 0, {"type": "develop", "project": 0})
    assert st["players"][0]["cash"] == 0
    assert st["fund"] == 1848 - (fee - 15)


def test_only_one_project_may_be_self_developed_a_turn():
    st = scenario(managers={0: 0, 1: 0}, cash={0: 200})
    st, _ = act(st, 0, {"type": "develop", "project": 0})
    assert "develop" not in kinds(st, 0)


def test_pips_add_to_the_standard_die():
    st = scenario(dice=[(1, "4")])
    st, _ev = act(st, 0, {"type": "roll"})
    assert st["players"][0]["pos"] == 5


def test_a_pip_face_equal_to_the_standard_die_is_a_double_and_the_seat_rolls_again():
    st = scenario(dice=[(2, "2")])
    st, _ = act(st, 0, {"type": "roll"})  # to 4, a Chance space
    while to_decide(st) == [0] and st["step"]["kind"] != "pre_roll":
        st, _ev = act(st, 0, legal_actions(st, 0)[-1])
    assert st["turn"] == 0 and st["step"] == {"kind": "pre_roll"} and st["doubles"] == 1


def test_times_two_doubles_the_standard_die_and_counts_as_a_double():
    st = scenario(dice=[(3, "x2")])
    st, ev = act(st, 0, {"type": "roll"})
    assert st["players"][0]["pos"] == 6
    assert ev[0]["double"] is True and st["again"] is True


def test_plus_one_draws_a_card_and_the_mover_chooses_whether_to_move_first():
    for first in ("move", "draw"):
        st = scenario(pos={0: 4}, dice=[(6, "+1")], deck_top=["fund_loss:20"])
        st, _ = act(st, 0, {"type": "roll"})
        assert kinds(st, 0) == {"order"}
        st, ev = act(st, 0, {"type": "order", "first": first})
        order = [t for t in types(ev) if t in ("move", "draw")]
        assert order == ([first, "draw" if first == "move" else "move"])
        assert st["players"][0]["pos"] == 10  # the standard die alone moves the token
        assert st["fund"] == 1848 - 20


def test_plus_two_draws_two_cards():
    st = scenario(dice=[(6, "+2")], deck_top=["fund_loss:20", "fund_loss:30"])
    st, _ = act(st, 0, {"type": "roll"})
    st, ev = act(st, 0, {"type": "order", "first": "draw"})
    assert next(e for e in ev if e["type"] == "draw")["count"] == 2
    assert st["fund"] == 1848 - 50


def test_three_doubles_in_a_row_send_the_mover_to_jail():
    st = scenario(dice=[(1, "x2"), (1, "x2"), (1, "x2")], managers={0: 1, 1: 1},
                  chips={0: [1, 1], 1: [1, 1]})  # full projects: payouts, no decisions
    st, _ = act(st, 0, {"type": "roll"})   # to 2: a Chance space (draws)
    while st["step"]["kind"] != "pre_roll":
        st, _ = act(st, to_decide(st)[0], legal_actions(st, to_decide(st)[0])[-1])
    st, _ = act(st, 0, {"type": "roll"})   # to 4
    while st["step"]["kind"] != "pre_roll":
        st, _ = act(st, to_decide(st)[0], legal_actions(st, to_decide(st)[0])[-1])
    assert st["turn"] == 0
    fund = st["fund"]
    st, _ev = act(st, 0, {"type": "roll"})
    assert st["players"][0]["in_jail"] and st["players"][0]["pos"] == 10
    assert st["fund"] == fund - 50 and st["turn"] == 1


def test_an_extra_turn_repeats_the_whole_procedure_including_the_pre_roll_options():
    st = scenario(dice=[(3, "3")], managers={0: 0, 2: 0}, cash={0: 300})
    st, _ = act(st, 0, {"type": "develop", "project": 0})
    st, _ = act(st, 0, {"type": "roll"})  # 6: own project 2; self-developed 0, so no chip
    assert st["turn"] == 0 and st["step"] == {"kind": "pre_roll"}
    assert "develop" in kinds(st, 0)
    assert space_of(2) == 6
