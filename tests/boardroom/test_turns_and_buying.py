"""Setup, turns and doubles, buying and auctions: one test per rule of the guide."""

from __future__ import annotations

import pytest

from games.boardroom.engine import IllegalAction, apply, legal_actions, new_game, scenario

from .helpers import act, act_ev, types


# --- setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_two_to_six_seats_start_with_1500_each(seats: int) -> None:
    st = new_game(seats=seats, seed=3)
    assert st["cash"] == [1500] * seats
    assert sorted(st["order"]) == list(range(seats))


@pytest.mark.parametrize("seats", [1, 7])
def test_fewer_than_two_or_more_than_six_seats_are_refused(seats: int) -> None:
    with pytest.raises(ValueError):
        new_game(seats=seats, seed=3)


def test_the_turn_order_is_seeded() -> None:
    orders = {tuple(new_game(seats=6, seed=s)["order"]) for s in range(20)}
    assert len(orders) > 1
    assert new_game(seats=6, seed=7)["order"] == new_game(seats=6, seed=7)["order"]


def test_against_bots_the_human_moves_first() -> None:
    for seed in range(10):
        st = new_game(seats=4, seed=seed, bots=[True, True, False, True], human_first=2)
        assert st["order"][0] == 2 and st["turn"] == 2


# --- turns and doubles ------------------------------------------------------------------------
def test_a_roll_moves_the_token_by_the_dice_total() -> None:
    st = act(scenario(dice=[(2, 3)]), 0, "roll")
    assert st["pos"][0] == 5


def test_passing_start_pays_the_200_salary() -> None:
    st = act(scenario(pos={0: 36}, dice=[(2, 3)]), 0, "roll")
    assert st["pos"][0] == 1 and st["cash"][0] == 1700


def test_stopping_on_start_pays_the_200_salary() -> None:
    st = act(scenario(pos={0: 34}, dice=[(2, 4)]), 0, "roll")
    assert st["pos"][0] == 0 and st["cash"][0] == 1700


def test_doubles_give_another_roll_only_after_end_turn() -> None:
    st = act(scenario(dice=[(5, 5), (4, 6)]), 0, "roll")
    assert st["phase"] == "act" and "roll" not in types(st, 0)
    st = act(st, 0, "end_turn")
    assert st["turn"] == 0 and st["phase"] == "roll"
    st = act(act(st, 0, "roll"), 0, "end_turn")
    assert st["turn"] == 1


def test_a_third_double_in_a_row_goes_straight_to_the_audit_with_no_move_and_no_salary() -> None:
    st = scenario(pos={0: 12}, dice=[(1, 1), (3, 3), (6, 6)])
    st = act(st, 0, "roll")                        # 14 Ink Works (free)
    st = act(st, 0, "decline", tile=14)
    st = act(st, 0, "pass")
    st = act(st, 1, "pass")
    st = act(act(st, 0, "end_turn"), 0, "roll")     # 20 forum
    st = act(st, 0, "end_turn")
    cash = st["cash"][0]
    st = act(st, 0, "roll")                        # third double
    assert st["pos"][0] == 10 and st["audit"][0] == 0 and st["cash"][0] == cash
    st = act(st, 0, "end_turn")
    assert st["turn"] == 1  # no extra roll after the audit


# --- buying and auctions ----------------------------------------------------------------------
def test_a_free_business_is_bought_at_its_price() -> None:
    st = act(scenario(dice=[(1, 2)]), 0, "roll")
    assert st["phase"] == "buy"
    st = act(st, 0, "buy", tile=3)
    assert st["owner"][3] == 0 and st["cash"][0] == 1440 and st["bank"] == -60


def test_turning_a_business_down_starts_an_auction_everyone_joins_and_the_decliner_bids_first(
) -> None:
    st = act(scenario(seats=3, dice=[(1, 2)]), 0, "roll")
    st = act(st, 0, "decline", tile=3)
    assert st["auction"]["order"] == [0, 1, 2] and st["auction"]["at"] == 0


def test_the_first_bid_is_75_percent_of_the_price_rounded_up_then_raises_of_exactly_10() -> None:
    st = act(scenario(seats=3, pos={0: 14}, dice=[(1, 1)]), 0, "roll")  # 16 Thread Mill 180
    st = act(st, 0, "decline", tile=16)
    assert legal_actions(st, 0)[0] == {"type": "bid", "amount": 135}
    st = act(st, 0, "bid", amount=135)
    assert legal_actions(st, 1)[0] == {"type": "bid", "amount": 145}
    with pytest.raises(IllegalAction, match="exactly 145"):
        apply(st, 1, {"type": "bid", "amount": 150})
    st = act(scenario(pos={0: 4}, dice=[(1, 1)]), 0, "roll")  # 6 Shoe Repair 100 -> 75
    st = act(st, 0, "decline", tile=6)
    assert legal_actions(st, 0)[0]["amount"] == 75
    st = act(scenario(pos={0: 1}, dice=[(1, 2)]), 0, "roll")  # 4 Juice Stand 80 -> 60
    st = act(st, 0, "decline", tile=4)
    assert legal_actions(st, 0)[0]["amount"] == 60
    st = act(scenario(pos={0: 37}, dice=[(1, 1)]), 0, "roll")  # 39 Stock Exchange 400
    st = act(st, 0, "decline", tile=39)
    assert legal_actions(st, 0)[0]["amount"] == 300


def test_the_first_bid_rounds_up_to_a_whole_number() -> None:
    # 75 % of 150 (a utility) is 112.5: the first bid is 113.
    st = act(scenario(pos={0: 9}, dice=[(1, 2)]), 0, "roll")
    st = act(st, 0, "decline", tile=12)
    assert legal_actions(st, 0)[0] == {"type": "bid", "amount": 113}


def test_a_pass_is_for_good() -> None:
    st = act(scenario(seats=3, dice=[(1, 2)]), 0, "roll")
    st = act(st, 0, "decline", tile=3)
    st = act(st, 0, "pass")
    st = act(st, 1, "bid", amount=45)
    st = act(st, 2, "bid", amount=55)
    assert st["auction"]["at"] == 1  # seat 0 is never asked again
    st = act(st, 1, "pass")
    assert st["auction"] is None and st["owner"][3] == 2


def test_lacking_money_for_the_next_bid_counts_as_a_pass() -> None:
    st = act(scenario(seats=3, cash={1: 50}, dice=[(1, 2)]), 0, "roll")
    st = act(st, 0, "decline", tile=3)
    st, ev = act_ev(st, 0, "bid", amount=45)
    assert 1 in st["auction"]["out"] and st["auction"]["at"] == 2
    assert any(e["type"] == "auction_pass" and e["seat"] == 1 and e["why"] == "money"
               for e in ev)


def test_a_passers_earlier_bid_stands_when_all_others_pass() -> None:
    st = act(scenario(seats=3, dice=[(1, 2)]), 0, "roll")
    st = act(st, 0, "decline", tile=3)
    st = act(st, 0, "bid", amount=45)
    st = act(st, 1, "pass")
    st = act(st, 2, "pass")
    assert st["owner"][3] == 0 and st["cash"][0] == 1455


def test_the_auction_winner_pays_the_bank() -> None:
    st = act(scenario(dice=[(1, 2)]), 0, "roll")
    st = act(st, 0, "decline", tile=3)
    st = act(st, 0, "pass")
    st = act(st, 1, "bid", amount=45)
    assert st["owner"][3] == 1 and st["cash"] == [1500, 1455] and st["bank"] == -45


def test_an_auction_without_bids_leaves_the_tile_free() -> None:
    st = act(scenario(dice=[(1, 2)]), 0, "roll")
    st = act(st, 0, "decline", tile=3)
    st = act(act(st, 0, "pass"), 1, "pass")
    assert st["owner"][3] is None and st["cash"] == [1500, 1500] and st["phase"] == "act"


def test_without_the_price_the_only_choice_is_the_auction() -> None:
    st = act(scenario(cash={0: 50}, dice=[(1, 2)]), 0, "roll")
    assert [a["type"] for a in legal_actions(st, 0)] == ["decline"]
