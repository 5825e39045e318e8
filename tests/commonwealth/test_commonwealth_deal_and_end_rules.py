"""Deals at any time by offer and acceptance; the two endings; money never retires anyone."""

from __future__ import annotations

import pytest
from commonwealth_helpers import act

from games.commonwealth.engine import IllegalAction, apply, legal_actions, scenario, to_decide


def test_a_deal_hands_over_projects_with_their_chips_cash_and_the_jail_card():
    st = scenario(managers={0: 0, 9: 1}, chips={0: [1]}, cash={0: 100, 1: 5}, jail_card=1)
    st, _ = act(st, 0, {"type": "offer", "to": 1,
                        "give": {"projects": [0], "cash": 40},
                        "get": {"projects": [9], "jail_card": True}})
    assert to_decide(st) == [1]
    st, _ = act(st, 1, {"type": "accept"})
    assert st["projects"][0] == {"manager": 1, "chips": [1]}
    assert st["projects"][9]["manager"] == 0
    assert st["players"][0]["cash"] == 60 and st["players"][1]["cash"] == 45
    assert st["players"][0]["jail_card"] and not st["players"][1]["jail_card"]


def test_a_deal_may_be_offered_on_another_seats_turn_and_pauses_the_game_for_the_answer():
    st = scenario(seats=3, managers={4: 2}, cash={1: 100})
    assert st["turn"] == 0
    st, _ = act(st, 1, {"type": "offer", "to": 2, "give": {"cash": 60},
                        "get": {"projects": [4]}})
    assert to_decide(st) == [2]
    with pytest.raises(IllegalAction):
        apply(st, 0, {"type": "roll"})
    st, _ = act(st, 2, {"type": "decline"})
    assert st["projects"][4]["manager"] == 2 and to_decide(st) == [0]


def test_a_declined_or_withdrawn_deal_changes_nothing():
    st = scenario(managers={4: 1}, cash={0: 100})
    offered, _ = act(st, 0, {"type": "offer", "to": 1, "give": {"cash": 60},
                             "get": {"projects": [4]}})
    assert legal_actions(offered, 0) == [{"type": "withdraw"}]
    for answer, seat in (("decline", 1), ("withdraw", 0)):
        after, _ = act(offered, seat, {"type": answer})
        assert after["projects"] == st["projects"] and after["players"][0]["cash"] == 100


def test_a_deals_cash_comes_from_the_giver_never_the_fund():
    st = scenario(managers={4: 1}, cash={0: 10})
    with pytest.raises(IllegalAction) as err:
        apply(st, 0, {"type": "offer", "to": 1, "give": {"cash": 60},
                      "get": {"projects": [4]}})
    assert "never the Fund" in err.value.reason


@pytest.mark.parametrize("give, get", [
    ({"cash": 40}, {}),                       # cash for nothing
    ({}, {"cash": 40}),                       # asking for cash, giving nothing
    ({"cash": 40}, {"cash": 10}),             # cash for cash
    ({"projects": [], "cash": 5, "jail_card": False}, {"projects": [], "cash": 5}),
], ids=["cash for nothing", "nothing for cash", "cash for cash", "empty lists"])
def test_a_deal_without_a_project_or_the_pardon_card_is_refused(give, get):
    st = scenario(managers={4: 1}, cash={0: 100, 1: 100})
    with pytest.raises(IllegalAction) as err:
        apply(st, 0, {"type": "offer", "to": 1, "give": give, "get": get})
    assert err.value.reason == ("A deal hands over at least one project or the Pardon card; "
                                "cash alone is not a deal")


@pytest.mark.parametrize("give, get", [
    ({"cash": 40}, {"projects": [4]}),        # buying a project
    ({"projects": [0]}, {"cash": 40}),        # selling one
    ({"projects": [0]}, {}),                  # giving one away
    ({"cash": 30}, {"jail_card": True}),      # buying the Pardon card
    ({"jail_card": False, "cash": 0}, {"projects": [4], "jail_card": True}),
], ids=["buy", "sell", "gift", "buy the card", "project and card"])
def test_a_deal_handing_over_a_project_or_the_pardon_card_is_offered(give, get):
    st = scenario(managers={0: 0, 4: 1}, cash={0: 100, 1: 100}, jail_card=1)
    st, _ = act(st, 0, {"type": "offer", "to": 1, "give": give, "get": get})
    assert to_decide(st) == [1]


def test_kept_chance_cards_other_than_the_jail_card_cannot_be_traded():
    st = scenario(kept={0: "free_chip"}, cash={1: 50})
    with pytest.raises(IllegalAction):
        apply(st, 0, {"type": "offer", "to": 1, "give": {"card": 1}, "get": {"cash": 50}})


def test_offers_are_limited_each_turn_so_deals_cannot_stall_the_game():
    st = scenario(managers={4: 1}, cash={0: 100})
    for _ in range(2):
        st, _ = act(st, 0, {"type": "offer", "to": 1, "give": {"cash": 5},
                            "get": {"projects": [4]}})
        st, _ = act(st, 1, {"type": "decline"})
    with pytest.raises(IllegalAction):
        apply(st, 0, {"type": "offer", "to": 1, "give": {"cash": 5}, "get": {"projects": [4]}})


def test_an_empty_fund_ends_the_game_and_nobody_wins():
    st = scenario(fund=40, dice=[(1, "3")], deck_top=["fund_loss:60"])
    st, ev = act(st, 0, {"type": "roll"})
    assert st["fund"] == 0
    assert st["result"]["winner"] is None and st["result"]["end_reason"] == "fund_dry"
    assert ev[-1]["type"] == "game_over" and to_decide(st) == []


def test_placing_the_tenth_chip_makes_the_seat_top_contributor_and_ends_the_game():
    st = scenario(managers={0: 0, 2: 1, 3: 1, 4: 1}, chips={2: [0, 0, 0], 3: [0, 0, 0],
                                                           4: [0, 0, 0]}, cash={0: 100})
    assert st["players"][0]["supply"] == 1
    st, _ev = act(st, 0, {"type": "develop", "project": 0})
    assert st["result"]["winner"] == 0 and st["result"]["end_reason"] == "chips"
    assert st["result"]["placements"][0] == 0


def test_running_out_of_money_never_retires_a_player():
    st = scenario(dice=[(4, "2")], managers={2: 1})
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "chip"})  # 0 cash: the Fund pays
    assert st["players"][0]["cash"] == 0 and st["result"] is None
    assert to_decide(st) == [1]


def test_a_seat_owing_a_go_donation_keeps_enough_to_give_it():
    st = scenario(seats=2, pos={0: 38}, dice=[(1, "2")], managers={0: 1, 2: 0})
    st, _ = act(st, 0, {"type": "roll"})
    with pytest.raises(IllegalAction) as err:
        apply(st, 1, {"type": "offer", "to": 0, "give": {"cash": 50},
                      "get": {"projects": [2]}})
    assert "GO donation" in err.value.reason
    st, _ = act(st, 1, {"type": "offer", "to": 0, "give": {"cash": 45},
                        "get": {"projects": [2]}})
    st, _ = act(st, 0, {"type": "accept"})
    assert {"type": "donate", "amount": 5} in legal_actions(st, 1)


def test_the_landing_chip_is_asked_again_under_the_managers_a_deal_made_meanwhile():
    st = scenario(dice=[(4, "2")], managers={0: 0, 2: 1}, cash={0: 200})
    st, _ = act(st, 0, {"type": "develop", "project": 0})
    st, _ = act(st, 0, {"type": "roll"})          # on seat 1's project 2: a chip is allowed
    assert st["step"] == {"kind": "chip", "project": 2}
    st, _ = act(st, 0, {"type": "offer", "to": 1, "give": {"cash": 50},
                        "get": {"projects": [2]}})
    st, _ = act(st, 1, {"type": "accept"})        # now it is seat 0's own, not the one developed
    assert legal_actions(st, 0) == [{"type": "no_chip"}]


def test_a_payment_that_empties_the_fund_ruins_the_community_before_a_winning_chip():
    st = scenario(dice=[(4, "2")], managers={2: 1, 3: 1, 4: 1, 5: 1},
                  chips={3: [0, 0, 0], 4: [0, 0, 0], 5: [0, 0, 0]}, fund=10)
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "chip"})
    assert st["result"]["end_reason"] == "fund_dry" and st["result"]["winner"] is None
