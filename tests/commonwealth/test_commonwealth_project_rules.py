"""Projects: bought or auctioned, chips for 10, the self-develop exception, payouts."""

from __future__ import annotations

import pytest
from commonwealth_helpers import act, kinds

from games.commonwealth.engine import IllegalAction, apply, scenario
from games.commonwealth.engine.data import PROJECTS

PRICE = PROJECTS[2]["price"]
PAYOUT = PROJECTS[2]["payout"]


def landed_on_unmanaged(pid: int = 2, **kw):
    st = scenario(seats=3, dice=[(4, "2")], **kw)  # 0 -> 6, project 2
    st, _ = act(st, 0, {"type": "roll"})
    assert st["step"] == {"kind": "buy", "project": pid}
    return st


def test_an_unmanaged_project_must_be_bought_or_auctioned_never_both_declined():
    st = landed_on_unmanaged()
    assert kinds(st, 0) == {"buy", "auction"}
    with pytest.raises(IllegalAction) as err:
        apply(st, 0, {"type": "pass"})
    assert "cannot decline both" in err.value.reason


def test_buying_spends_own_money_first_and_the_fund_covers_the_rest():
    st = landed_on_unmanaged(cash={0: 10})
    st, _ev = act(st, 0, {"type": "buy"})
    assert st["projects"][2]["manager"] == 0
    assert st["players"][0]["cash"] == 0 and st["fund"] == 1848 - (PRICE - 10)


def test_an_auction_opens_at_5_and_rises_in_steps_of_5():
    st = landed_on_unmanaged(cash={1: 100, 2: 100})
    st, _ = act(st, 0, {"type": "auction"})
    assert st["step"]["to_act"] == 1
    with pytest.raises(IllegalAction):
        apply(st, 1, {"type": "bid", "amount": 3})
    with pytest.raises(IllegalAction):
        apply(st, 1, {"type": "bid", "amount": 7})
    st, _ = act(st, 1, {"type": "bid", "amount": 5})
    with pytest.raises(IllegalAction):
        apply(st, 2, {"type": "bid", "amount": 5})
    st, _ = act(st, 2, {"type": "bid", "amount": 25})
    st, _ev = act(st, 1, {"type": "pass"})
    assert st["projects"][2]["manager"] == 2 and st["players"][2]["cash"] == 75


def test_the_seat_that_sent_a_project_to_auction_cannot_bid():
    st = landed_on_unmanaged()
    st, _ = act(st, 0, {"type": "auction"})
    assert 0 not in st["step"]["bidders"]
    with pytest.raises(IllegalAction):
        apply(st, 0, {"type": "bid", "amount": 5})


def test_a_bid_may_exceed_the_bidders_cash_and_the_fund_covers_the_rest():
    st = landed_on_unmanaged(cash={1: 20})
    st, _ = act(st, 0, {"type": "auction"})
    st, _ = act(st, 1, {"type": "bid", "amount": 60})
    st, _ = act(st, 2, {"type": "pass"})
    assert st["projects"][2]["manager"] == 1
    assert st["players"][1]["cash"] == 0 and st["fund"] == 1848 - 40


def test_an_auction_without_bids_leaves_the_project_unmanaged():
    st = landed_on_unmanaged()
    st, _ = act(st, 0, {"type": "auction"})
    st, _ = act(st, 1, {"type": "pass"})
    st, ev = act(st, 2, {"type": "pass"})
    assert st["projects"][2]["manager"] is None and "unsold" in [e["type"] for e in ev]


def test_landing_on_a_rivals_project_places_a_chip_for_10_paid_to_the_manager():
    st = scenario(dice=[(4, "2")], managers={2: 1}, cash={0: 30, 1: 0})
    st, _ = act(st, 0, {"type": "roll"})
    assert kinds(st, 0) == {"chip", "no_chip"}
    st, _ = act(st, 0, {"type": "chip"})
    assert st["projects"][2]["chips"] == [0]
    assert st["players"][0]["cash"] == 20 and st["players"][1]["cash"] == 10


def test_landing_on_your_own_project_places_a_chip_for_10_paid_to_the_bank():
    st = scenario(dice=[(4, "2")], managers={2: 0}, cash={0: 30})
    bank = st["bank"]
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "chip"})
    assert st["players"][0]["cash"] == 20 and st["bank"] == bank + 10


def test_a_chip_on_landing_is_paid_by_the_fund_when_the_seat_has_no_money():
    st = scenario(dice=[(4, "2")], managers={2: 1})
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "chip"})
    assert st["fund"] == 1838 and st["players"][1]["cash"] == 10


def test_there_is_no_rent():
    st = scenario(dice=[(4, "2")], managers={2: 1}, cash={0: 30})
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "no_chip"})
    assert st["players"][0]["cash"] == 30 and st["players"][1]["cash"] == 0


def test_a_self_developed_project_may_take_a_second_chip_when_landed_on_the_same_turn():
    st = scenario(dice=[(4, "2")], managers={2: 0}, cash={0: 200})
    st, _ = act(st, 0, {"type": "develop", "project": 2})
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "chip"})
    assert st["projects"][2]["chips"] == [0, 0]


def test_after_self_developing_one_project_landing_on_another_own_project_allows_no_chip():
    st = scenario(dice=[(4, "2")], managers={2: 0, 0: 0}, cash={0: 200})
    st, _ = act(st, 0, {"type": "develop", "project": 0})
    st, _ = act(st, 0, {"type": "roll"})
    assert st["projects"][2]["chips"] == [] and st["turn"] == 1


def test_a_fully_developed_project_pays_its_manager_and_the_fund_the_same_payout():
    st = scenario(dice=[(4, "2")], managers={2: 1}, chips={2: [1, 1, 1]})
    st, _ev = act(st, 0, {"type": "roll"})
    assert st["players"][1]["cash"] == PAYOUT and st["fund"] == 1848 + PAYOUT


def test_the_payout_doubles_when_the_manager_holds_both_projects_of_the_colour():
    st = scenario(dice=[(4, "2")], managers={2: 1, 3: 1}, chips={2: [1, 1, 1]})
    st, _ev = act(st, 0, {"type": "roll"})
    assert st["players"][1]["cash"] == 2 * PAYOUT and st["fund"] == 1848 + 2 * PAYOUT


def test_chips_stay_put_when_a_project_changes_manager():
    st = scenario(managers={2: 1}, chips={2: [0, 1]}, cash={0: 100})
    st, _ = act(st, 0, {"type": "offer", "to": 1, "give": {"cash": 50},
                        "get": {"projects": [2]}})
    st, _ = act(st, 1, {"type": "accept"})
    assert st["projects"][2] == {"manager": 0, "chips": [0, 1]}
