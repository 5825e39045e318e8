"""Nobody takes the Fund's money through a deal (the seed): a seat that hands more cash to
other players in deals than it gets back pays only with its own money until its turn passes
on; the Fund covers none of its purchases, fees, chips or bids meanwhile
(docs/commonwealth.md, decision 23)."""

from __future__ import annotations

import random

import pytest
from commonwealth_helpers import act, kinds

from games.commonwealth.bots import choose_action
from games.commonwealth.engine import IllegalAction, apply, legal_actions, scenario, view
from games.commonwealth.engine.data import PROJECTS

LANDS_ON_2 = (4, "2")  # from GO to space 6: Bicycle Workshop (project 2)
PRICE = PROJECTS[2]["price"]


def deal(st, giver: int, taker: int, *, cash: int, projects=(0,)):
    """`giver` hands `projects` and `cash` to `taker` for nothing, and `taker` accepts."""
    st, _ = act(st, giver, {"type": "offer", "to": taker,
                            "give": {"projects": list(projects), "cash": cash}, "get": {}})
    st, _ = act(st, taker, {"type": "accept"})
    return st


def test_a_seat_that_gave_its_cash_away_in_a_deal_cannot_then_buy_with_the_fund():
    st = scenario(seats=3, managers={0: 0}, cash={0: 25}, dice=[LANDS_ON_2])
    st = deal(st, 0, 1, cash=25)
    st, _ = act(st, 0, {"type": "roll"})
    assert st["step"] == {"kind": "buy", "project": 2}
    assert kinds(st, 0) == {"auction"}
    with pytest.raises(IllegalAction) as err:
        apply(st, 0, {"type": "buy"})
    assert "in a deal, so the Fund pays nothing for you" in err.value.reason
    assert st["fund"] == 1848 and st["projects"][2]["manager"] is None


def test_a_seat_that_kept_enough_of_its_own_money_still_buys_with_it():
    st = scenario(seats=3, managers={0: 0}, cash={0: PRICE + 20}, dice=[LANDS_ON_2])
    st = deal(st, 0, 1, cash=20)
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "buy"})
    assert st["projects"][2]["manager"] == 0
    assert st["players"][0]["cash"] == 0 and st["fund"] == 1848


def test_cash_got_back_in_a_later_deal_restores_the_funds_help():
    st = scenario(seats=3, managers={0: 0, 4: 1}, cash={0: 25}, dice=[LANDS_ON_2])
    st = deal(st, 0, 1, cash=25)
    st = deal(st, 1, 0, cash=25, projects=(4,))
    st, _ = act(st, 0, {"type": "roll"})
    assert kinds(st, 0) == {"buy", "auction"}


def test_cash_given_on_another_seats_turn_counts_until_the_givers_own_turn_passes_on():
    st = scenario(turn=1, managers={0: 0}, cash={0: 25}, pos={1: 17},
                  dice=[(1, "2"), LANDS_ON_2])
    st = deal(st, 0, 1, cash=25)
    st, _ = act(st, 1, {"type": "roll"})  # seat 1 to Free Parking: its turn ends
    assert st["turn"] == 0 and not view(st, 0)["players"][0]["fund_covers"]
    st, _ = act(st, 0, {"type": "roll"})
    assert kinds(st, 0) == {"auction"}
    st, _ = act(st, 0, {"type": "auction"})
    st, _ = act(st, 1, {"type": "pass"})
    assert st["turn"] == 1 and view(st, 1)["players"][0]["fund_covers"]


def test_after_a_gift_no_chip_or_self_development_is_paid_by_the_fund():
    st = scenario(managers={0: 0, 2: 1, 3: 0}, cash={0: 5}, dice=[LANDS_ON_2])
    assert {"type": "develop", "project": 3} in legal_actions(st, 0)
    st = deal(st, 0, 1, cash=5)
    assert "develop" not in kinds(st, 0)
    with pytest.raises(IllegalAction) as err:
        apply(st, 0, {"type": "develop", "project": 3})
    assert "the Fund pays nothing for you" in err.value.reason
    st, _ = act(st, 0, {"type": "roll"})
    assert st["step"] == {"kind": "chip", "project": 2}
    assert kinds(st, 0) == {"no_chip"}


def test_a_bidder_that_gave_cash_away_bids_only_its_own_money():
    st = scenario(seats=3, managers={0: 1}, cash={1: 12}, dice=[LANDS_ON_2])
    st = deal(st, 1, 2, cash=2)
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "auction"})
    assert [a["amount"] for a in legal_actions(st, 1) if a["type"] == "bid"] == [5, 10]
    with pytest.raises(IllegalAction) as err:
        apply(st, 1, {"type": "bid", "amount": 15})
    assert "the Fund pays nothing for you" in err.value.reason


def test_the_auctions_leader_keeps_the_cash_its_bid_needs():
    st = scenario(seats=3, managers={0: 1}, cash={1: 10}, dice=[LANDS_ON_2])
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "auction"})
    st, _ = act(st, 1, {"type": "bid", "amount": 20})  # the Fund would cover 10 of it
    with pytest.raises(IllegalAction) as err:
        apply(st, 1, {"type": "offer", "to": 2, "give": {"projects": [0], "cash": 5}})
    assert "You lead the auction at 20" in err.value.reason


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_bot_that_gave_its_cash_away_sends_the_project_to_auction(level):
    st = scenario(seats=3, managers={0: 0}, cash={0: 25}, fund=1848, dice=[LANDS_ON_2])
    st = deal(st, 0, 1, cash=25)
    st, _ = act(st, 0, {"type": "roll"})
    assert choose_action(view(st, 0), level, random.Random(1)) == {"type": "auction"}
