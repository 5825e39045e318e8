"""Trading, auctioning your own property, debts and bankruptcy: one test per rule."""

from __future__ import annotations

import pytest

from games.boardroom.engine import IllegalAction, apply, legal_actions, scenario
from games.boardroom.engine.board import RENTS

from .helpers import act, family, types


def _after_roll(**kw):
    """Seat 0 has rolled onto the business forum (20) and may trade."""
    base = {"pos": {0: 14}, "dice": [(2, 4)]}
    base.update(kw)
    return act(scenario(**base), 0, "roll")


def _swap(to, take, give, cash):
    return {"type": "propose", "kind": "swap", "to": to, "take": take, "give": give,
            "cash": cash}


def _sell(to, give, cash):
    return {"type": "propose", "kind": "sell", "to": to, "give": give, "cash": cash}


# --- trading ----------------------------------------------------------------------------------
def test_trades_are_offered_on_your_own_turn_after_the_roll() -> None:
    st = scenario(owners={5: 0, 15: 1})
    assert "propose" not in types(st, 0) and "propose" not in types(st, 1)
    st = _after_roll(owners={5: 0, 15: 1})
    assert "propose" in types(st, 0) and legal_actions(st, 1) == []


def test_a_swap_takes_their_business_for_your_cash_and_or_your_business() -> None:
    st = _after_roll(owners={5: 0, 15: 1})
    st = act(act(st, 0, **_swap(1, 15, 5, 30)), 1, "answer", accept=True)
    assert st["owner"][5] == 1 and st["owner"][15] == 0 and st["cash"] == [1470, 1530]
    st = _after_roll(owners={15: 1})
    st = act(act(st, 0, **_swap(1, 15, None, 250)), 1, "answer", accept=True)
    assert st["owner"][15] == 0 and st["cash"] == [1250, 1750]


def test_a_sale_is_for_no_less_than_the_bank_would_pay_and_no_more_than_they_have() -> None:
    st = _after_roll(owners={5: 0}, cash={1: 300})
    with pytest.raises(IllegalAction, match="no less than the bank would pay"):
        apply(st, 0, _sell(1, 5, 90))
    with pytest.raises(IllegalAction, match="do not have that much"):
        apply(st, 0, _sell(1, 5, 310))
    st = act(act(st, 0, **_sell(1, 5, 100)), 1, "answer", accept=True)
    assert st["owner"][5] == 1 and st["cash"] == [1600, 200]


def test_only_logistics_utilities_and_businesses_of_unbuilt_industries_are_traded() -> None:
    st = _after_roll(owners={1: 1, 3: 1, 4: 1, 6: 1, 12: 1, 9: 0}, levels={1: 1})
    fam = family(st, 0, "propose", kind="swap", to=1)
    assert fam["take"] == [6, 12] and fam["give"] == [None, 9]
    with pytest.raises(IllegalAction, match="no buildings"):
        apply(st, 0, _swap(1, 3, None, 100))


def test_release_cards_cannot_be_traded() -> None:
    st = _after_roll(owners={5: 0, 15: 1}, releases={0: [4], 1: [16]})
    for a in legal_actions(st, 0):
        if a["type"] == "propose":
            assert all(isinstance(t, int) and 0 <= t < 40 for t in a.get("take", []))
    with pytest.raises(IllegalAction):
        apply(st, 0, {**_swap(1, 15, None, 10), "release": 16})


def test_one_trade_per_turn() -> None:
    st = _after_roll(owners={5: 0, 15: 1, 25: 1})
    st = act(act(st, 0, **_swap(1, 15, None, 250)), 1, "answer", accept=True)
    assert "propose" not in types(st, 0)
    with pytest.raises(IllegalAction, match="used up"):
        apply(st, 0, _swap(1, 25, None, 250))


def test_a_bot_refusal_does_not_use_up_the_trade_but_the_next_offer_must_be_10_better() -> None:
    st = _after_roll(owners={15: 1}, bots=[False, True])
    st = act(act(st, 0, **_swap(1, 15, None, 200)), 1, "answer", accept=False)
    assert "propose" in types(st, 0)
    with pytest.raises(IllegalAction, match="at least 210"):
        apply(st, 0, _swap(1, 15, None, 205))
    st = act(st, 0, **_swap(1, 15, None, 210))
    assert st["offer"]["cash"] == 210


def test_a_bot_refusal_is_remembered_on_later_turns_until_the_next_offer_for_those_tiles(
) -> None:
    st = _after_roll(owners={15: 1, 25: 0}, bots=[False, True], dice=[(2, 4), (4, 6), (2, 3)])
    st = act(act(st, 0, **_swap(1, 15, None, 200)), 1, "answer", accept=False)
    st = act(act(act(st, 0, "end_turn"), 1, "roll"), 1, "end_turn")
    st = act(st, 0, "roll")
    assert st["turn"] == 0 and st["phase"] == "act" and st["turn_number"] == 3
    with pytest.raises(IllegalAction, match="at least 210"):
        apply(st, 0, _swap(1, 15, None, 205))
    # The next offer replaces the memory with its own outcome: refused again, 10 more again.
    refused = act(act(st, 0, **_swap(1, 15, None, 210)), 1, "answer", accept=False)
    with pytest.raises(IllegalAction, match="at least 220"):
        apply(refused, 0, _swap(1, 15, None, 215))
    # Another pair of tiles owes nothing to that refusal.
    assert apply(st, 0, _swap(1, 15, 25, 0)).state["offer"]["give"] == 25
    accepted = act(act(st, 0, **_swap(1, 15, None, 210)), 1, "answer", accept=True)
    assert accepted["owner"][15] == 0 and accepted["refused"] == {}


def test_a_bot_refusal_of_a_sale_means_asking_at_least_10_less_next_time() -> None:
    st = _after_roll(owners={5: 0}, bots=[False, True])
    st = act(act(st, 0, **_sell(1, 5, 300)), 1, "answer", accept=False)
    with pytest.raises(IllegalAction, match="at most 290"):
        apply(st, 0, _sell(1, 5, 295))


def test_between_people_the_trade_is_used_up_when_the_offer_is_made() -> None:
    st = _after_roll(owners={15: 1})
    st = act(st, 0, **_swap(1, 15, None, 200))
    assert st["trade_used"] and legal_actions(st, 0) == []  # waiting for the answer
    st = act(st, 1, "answer", accept=False)
    assert "propose" not in types(st, 0)


def test_a_declined_bot_does_not_ask_for_the_same_tiles_for_5_rounds() -> None:
    st = _after_roll(owners={15: 1, 25: 1}, bots=[True, False])
    st = act(act(st, 0, **_swap(1, 15, None, 200)), 1, "answer", accept=False)
    until = st["round"] + 5
    st["trade_used"] = False
    with pytest.raises(IllegalAction, match="5 rounds"):
        apply(st, 0, _swap(1, 15, None, 400))
    apply(st, 0, _swap(1, 25, None, 200))  # other tiles are fine
    st["round"] = until
    apply(st, 0, _swap(1, 15, None, 200))


def test_the_answer_to_an_offer_comes_before_anything_else() -> None:
    st = act(_after_roll(owners={15: 1}, bots=[False, True]), 0, **_swap(1, 15, None, 200))
    assert [a["type"] for a in legal_actions(st, 1)] == ["answer", "answer"]
    with pytest.raises(IllegalAction, match="awaits an answer"):
        apply(st, 0, {"type": "end_turn"})


# --- auctioning your own property -------------------------------------------------------------
def test_only_logistics_utilities_or_unbuilt_industries_can_be_put_up_for_auction() -> None:
    st = _after_roll(owners={1: 0, 3: 0, 4: 0, 5: 0, 12: 0}, levels={1: 1})
    assert {a["tile"] for a in legal_actions(st, 0) if a["type"] == "auction_own"} == {5, 12}


def test_the_starting_bid_goes_in_steps_of_10_from_the_buyback_up_to_the_richest_rival() -> None:
    st = _after_roll(seats=3, owners={5: 0}, cash={1: 400, 2: 255})
    fam = family(st, 0, "auction_own", tile=5)
    assert (fam["start_min"], fam["start_max"], fam["step"]) == (100, 400, 10)
    for bad, why in ((90, "lower than the bank"), (410, "higher than 400"), (105, "steps")):
        with pytest.raises(IllegalAction, match=why):
            apply(st, 0, {"type": "auction_own", "tile": 5, "start": bad})


def test_only_rivals_bid_on_your_lot_and_the_winner_pays_you() -> None:
    st = _after_roll(seats=3, owners={5: 0})
    st = act(st, 0, "auction_own", tile=5, start=150)
    assert st["auction"]["order"] == [1, 2] and st["auction"]["at"] == 1
    st = act(act(st, 1, "bid", amount=150), 2, "bid", amount=160)
    st = act(st, 1, "pass")
    assert st["owner"][5] == 2 and st["cash"] == [1660, 1500, 1340]


def test_with_no_bid_on_your_lot_you_keep_it() -> None:
    st = act(_after_roll(owners={5: 0}), 0, "auction_own", tile=5, start=100)
    st = act(st, 1, "pass")
    assert st["owner"][5] == 0 and st["cash"] == [1500, 1500] and st["auction"] is None


def test_a_lot_with_no_first_bid_is_cancelled_when_its_60_seconds_are_over() -> None:
    from games.boardroom.engine import lot_timeout

    st = act(_after_roll(seats=3, owners={5: 0}), 0, "auction_own", tile=5, start=100)
    st = act(st, 1, "pass")  # passing does not restart the lot's time
    seat, action = lot_timeout(st)
    with pytest.raises(IllegalAction, match="clock"):
        apply(st, seat, action)
    st = apply(st, seat, action, clock=True).state
    assert st["auction"] is None and st["owner"][5] == 0


def test_the_first_bid_lifts_the_lot_deadline() -> None:
    from games.boardroom.engine import lot_timeout

    st = act(_after_roll(seats=3, owners={5: 0}), 0, "auction_own", tile=5, start=100)
    st = act(st, 1, "bid", amount=100)
    assert lot_timeout(st) is None


def test_auctioning_your_property_does_not_use_up_your_trade() -> None:
    st = act(_after_roll(owners={5: 0, 15: 1}), 0, "auction_own", tile=5, start=100)
    st = act(st, 1, "pass")
    assert not st["trade_used"] and "propose" in types(st, 0)


def test_no_auction_of_your_property_before_rolling_or_on_a_rivals_turn() -> None:
    st = scenario(owners={5: 0})
    assert "auction_own" not in types(st, 0)
    st = _after_roll(owners={5: 0, 15: 1})
    assert "auction_own" not in types(st, 1)


# --- debts and bankruptcy ---------------------------------------------------------------------
def _in_debt(**kw):
    """Seat 0 lands on excise duty (100) with only 60."""
    base = {"pos": {0: 31}, "dice": [(2, 4)], "cash": {0: 60}}
    base.update(kw)
    return act(scenario(**base), 0, "roll")


def test_a_debt_is_the_full_sum_with_no_partial_payment() -> None:
    st = _in_debt()
    assert st["cash"][0] == 60 and st["debts"][0]["amount"] == 100


def test_you_cannot_end_your_turn_in_debt() -> None:
    st = _in_debt()
    assert "end_turn" not in types(st, 0)
    with pytest.raises(IllegalAction, match="in debt"):
        apply(st, 0, {"type": "end_turn"})


def test_a_debt_is_paid_automatically_as_soon_as_the_cash_is_there() -> None:
    st = _in_debt(owners={1: 0, 3: 0, 4: 0}, levels={1: 1, 3: 1, 4: 1})
    st = act(st, 0, "close", tile=1)
    assert st["debts"] and st["cash"][0] == 85
    st = act(st, 0, "close", tile=3)
    assert not st["debts"] and st["cash"][0] == 10 and "end_turn" in types(st, 0)


def test_no_building_while_in_debt() -> None:
    st = scenario(owners={1: 0, 3: 0, 4: 0}, pos={0: 1}, cash={0: 60})
    st["debts"] = [{"seat": 0, "amount": 100, "to": [[None, 100]], "reason": "excise",
                    "tile": 37, "auctioned": [], "unsold": []}]
    st["phase"] = "act"
    assert "build" not in types(st, 0)


def test_selling_to_the_bank_comes_only_after_an_auction_nobody_bought() -> None:
    st = _in_debt(owners={5: 0})
    assert "sell_bank" not in types(st, 0)
    st = act(st, 0, "auction_own", tile=5, start=100)
    st = act(st, 1, "pass")
    assert {"type": "auction_own", "tile": 5, "start": 100} not in legal_actions(st, 0)
    assert family(st, 0, "auction_own", tile=5) is None  # each tile once per debt
    st = act(st, 0, "sell_bank", tile=5)
    assert st["owner"][5] is None and not st["debts"] and st["cash"][0] == 60


def test_selling_to_the_bank_is_never_possible_outside_a_debt() -> None:
    st = _after_roll(owners={5: 0})
    with pytest.raises(IllegalAction, match="only possible while in debt"):
        apply(st, 0, {"type": "sell_bank", "tile": 5})


def test_a_holding_the_stock_cannot_break_is_taken_by_the_bank_at_once() -> None:
    rival = {6: 1, 8: 1, 9: 1, 11: 1, 13: 1, 14: 1, 16: 1, 18: 1, 19: 1}
    levels = {6: 4, 8: 4, 9: 4, 11: 4, 13: 4, 14: 4, 16: 2, 18: 2, 19: 1, 1: 5, 3: 5, 4: 5}
    st = _in_debt(owners={**rival, 1: 0, 3: 0, 4: 0}, levels=levels)
    assert st["stock"][0] == 3 and "close" not in types(st, 0)
    st = act(st, 0, "sell_bank", tile=4)
    # half of 80 plus half of five branch costs of 50: 40 + 125 = 165
    assert st["owner"][4] is None and st["stock"] == [3, 10]
    assert st["cash"][0] == 60 + 165 - 100 and not st["debts"]
    assert st["uneven"] == ["stalls"]  # Noodle Cart and Pancake Kiosk keep their holdings


def test_a_debtor_may_sell_to_a_rival_for_no_less_than_the_bank_would_pay() -> None:
    st = _in_debt(owners={5: 0})
    with pytest.raises(IllegalAction, match="no less"):
        apply(st, 0, _sell(1, 5, 90))
    st = act(act(st, 0, **_sell(1, 5, 100)), 1, "answer", accept=True)
    assert st["owner"][5] == 1 and not st["debts"] and st["cash"] == [60, 1400]


def test_giving_up_frees_the_tiles_returns_the_buildings_and_gives_the_money_to_the_creditor(
) -> None:
    st = act(scenario(seats=3, pos={0: 36}, dice=[(1, 2)], cash={0: 100},
                      owners={1: 0, 3: 0, 4: 0, 36: 1, 38: 1, 39: 1},
                      levels={1: 1, 3: 1, 4: 1, 36: 2, 38: 2, 39: 2}), 0, "roll")
    assert st["debts"][0]["amount"] == RENTS[39][2]  # Stock Exchange with two branches
    st = act(st, 0, "give_up")
    assert not st["active"][0] and st["owner"][1] is None and st["level"][1] == 0
    assert st["cash"][1] == 1600 and st["stock"][0] == 26 and st["turn"] == 1


def test_the_last_seat_standing_wins_and_placements_follow_the_order_of_bankruptcy() -> None:
    st = act(scenario(seats=3, pos={0: 31}, dice=[(2, 4)], cash={0: 10}), 0, "roll")
    st = act(st, 0, "give_up")
    assert st["turn"] == 1 and st["result"] is None
    st = act(scenario(seats=3, turn=1, pos={1: 31}, dice=[(2, 4)], cash={1: 10},
                      active=[False, True, True], bankrupt=[0], money_base=None,
                      check=False), 1, "roll")
    st = act(st, 1, "give_up")
    assert st["result"]["winner"] == 2 and st["result"]["placements"] == [2, 1, 0]
    assert st["result"]["end_reason"] == "last_standing"
