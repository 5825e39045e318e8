"""What a seat may hand over in a deal now (engine/rules.deal_cash): its cash, less the high
bid while it leads an auction and the minimum GO donation while it still owes one. A refused
side of a deal is named as the mover's ("You ...") or the recipient's ("They ...")."""

from __future__ import annotations

import pytest
from commonwealth_helpers import act

from games.commonwealth.engine import IllegalAction, apply, scenario, view
from games.commonwealth.engine.data import MIN_DONATION
from games.commonwealth.engine.rules import deal_cash

LANDS_ON_2 = (4, "2")  # from GO to space 6: Bicycle Workshop (project 2)
GO_FROM_38 = (1, "2")  # from space 38 past GO: wages, then everyone owes a donation


def auction_led_by_seat_1(cash_of_1: int, bid: int):
    """Seat 0 sends project 2 to auction; seat 1 (manager of project 1) leads at `bid`."""
    st = scenario(seats=3, managers={0: 0, 1: 1}, cash={0: 30, 1: cash_of_1, 2: 40},
                  dice=[LANDS_ON_2])
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "auction"})
    st, _ = act(st, 1, {"type": "bid", "amount": bid})
    return st


def donation_owed():
    st = scenario(seats=2, pos={0: 38}, dice=[GO_FROM_38], managers={0: 1, 2: 0})
    st, _ = act(st, 0, {"type": "roll"})
    assert st["step"]["kind"] == "donate"
    return st


def test_a_seat_with_nothing_owed_may_hand_over_all_its_cash():
    st = scenario(seats=3, cash={0: 30, 1: 70, 2: 0})
    assert [deal_cash(st, s) for s in range(3)] == [30, 70, 0]


def test_the_auctions_leader_may_hand_over_only_what_its_bid_leaves():
    st = auction_led_by_seat_1(cash_of_1=50, bid=20)
    assert [deal_cash(st, s) for s in range(3)] == [30, 30, 40]
    assert deal_cash(auction_led_by_seat_1(cash_of_1=10, bid=20), 1) == 0


def test_a_seat_owing_a_go_donation_may_hand_over_all_but_the_minimum():
    st = donation_owed()
    cash = [p["cash"] for p in st["players"]]
    assert [deal_cash(st, s) for s in range(2)] == [c - MIN_DONATION for c in cash]


def test_the_figure_reads_alike_from_any_seats_view():
    st = auction_led_by_seat_1(cash_of_1=50, bid=20)
    for viewer in (None, 0, 1, 2):
        assert [deal_cash(view(st, viewer), s) for s in range(3)] == [30, 30, 40]


def test_asking_the_auctions_leader_for_its_bids_cash_names_them_not_you():
    st = auction_led_by_seat_1(cash_of_1=50, bid=20)
    with pytest.raises(IllegalAction) as err:
        apply(st, 0, {"type": "offer", "to": 1, "give": {"projects": [0]},
                      "get": {"cash": 31}})
    assert err.value.reason.startswith(
        "They lead the auction at 20: they must keep that much of their own money")
    apply(st, 0, {"type": "offer", "to": 1, "give": {"projects": [0]}, "get": {"cash": 30}})


def test_the_auctions_leader_offering_its_bids_cash_is_told_you():
    st = auction_led_by_seat_1(cash_of_1=50, bid=20)
    with pytest.raises(IllegalAction) as err:
        apply(st, 1, {"type": "offer", "to": 0, "give": {"cash": 31},
                      "get": {"projects": [0]}})
    assert err.value.reason.startswith(
        "You lead the auction at 20: keep that much of your own money")


def test_a_donation_still_owed_is_named_for_the_side_that_owes_it():
    st = donation_owed()
    ask = st["players"][1]["cash"] - MIN_DONATION + 1
    with pytest.raises(IllegalAction) as mine:
        apply(st, 1, {"type": "offer", "to": 0, "give": {"cash": ask},
                      "get": {"projects": [2]}})
    assert mine.value.reason == f"Keep {MIN_DONATION} for the GO donation you still owe"
    with pytest.raises(IllegalAction) as theirs:
        apply(st, 0, {"type": "offer", "to": 1, "give": {"projects": [2]},
                      "get": {"cash": ask}})
    assert theirs.value.reason == (
        f"They must keep {MIN_DONATION} for the GO donation they still owe")


def test_a_pardon_card_the_side_lacks_is_named_for_that_side():
    st = scenario(seats=2, managers={0: 0, 1: 1})
    with pytest.raises(IllegalAction) as mine:
        apply(st, 0, {"type": "offer", "to": 1, "give": {"jail_card": True}, "get": {}})
    assert mine.value.reason == "You do not hold the Pardon card"
    with pytest.raises(IllegalAction) as theirs:
        apply(st, 0, {"type": "offer", "to": 1, "give": {}, "get": {"jail_card": True}})
    assert theirs.value.reason == "They do not hold the Pardon card"
