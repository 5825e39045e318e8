"""The decisions taken where the guide is open (docs/boardroom.md, "Decisions")."""

from __future__ import annotations

from games.boardroom.engine import apply, legal_actions, scenario

from .helpers import act, types


def test_a_free_business_reached_in_debt_is_offered_once_the_debt_is_settled() -> None:
    st = act(scenario(audit={0: 2}, dice=[(1, 2)], cash={0: 30}, owners={5: 0}), 0, "roll")
    assert st["phase"] == "buy" and "buy" not in types(st, 0)
    st = act(st, 0, "auction_own", tile=5, start=200)
    st = act(st, 1, "bid", amount=200)
    assert not st["debts"] and st["cash"][0] == 180
    assert [a["type"] for a in legal_actions(st, 0)] == ["buy", "decline"]


def test_a_card_owed_to_several_rivals_is_one_debt_and_bankruptcy_splits_the_cash() -> None:
    st = act(scenario(seats=3, pos={0: 5}, dice=[(1, 1)], market=[8], cash={0: 75}), 0,
             "roll")
    assert st["debts"][0]["amount"] == 100 and st["cash"][0] == 75
    st = act(st, 0, "give_up")
    assert st["cash"] == [0, 1538, 1537]


def test_a_seat_in_debt_does_not_bid() -> None:
    st = scenario(seats=3, pos={0: 15}, dice=[(1, 1)], aid=[15], cash={1: 20, 2: 20},
                  owners={5: 1})
    st = act(st, 0, "roll")  # the tender: seats 1 and 2 cannot pay their 50
    assert [d["seat"] for d in st["debts"]] == [1, 2]
    st = act(st, 1, "auction_own", tile=5, start=100)
    assert 2 in st["auction"]["out"] and st["auction"]["at"] == 0


def test_the_bankruptcy_of_a_lots_seller_cancels_the_auction() -> None:
    st = act(scenario(seats=3, pos={0: 14}, dice=[(2, 4)], owners={5: 0}), 0, "roll")
    st = act(st, 0, "auction_own", tile=5, start=100)
    st = apply(st, 0, {"type": "forfeit"}, clock=True).state
    assert st["auction"] is None and st["owner"][5] is None and st["turn"] == 1


def test_a_bidder_leaving_is_dropped_from_the_auction() -> None:
    st = act(scenario(seats=3, dice=[(1, 2)]), 0, "roll")
    st = act(act(st, 0, "decline", tile=3), 0, "bid", amount=45)
    st = apply(st, 1, {"type": "forfeit"}, clock=True).state
    assert st["auction"]["at"] == 2
    st = act(st, 2, "pass")
    assert st["owner"][3] == 0
