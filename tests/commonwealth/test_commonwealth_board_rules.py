"""GO, the Community Shuttle and Jail."""

from __future__ import annotations

import pytest
from commonwealth_helpers import act, kinds, types

from games.commonwealth.engine import IllegalAction, apply, legal_actions, scenario, to_decide


def test_reaching_go_pays_everyone_50_and_each_then_gives_at_least_5_to_the_fund():
    st = scenario(seats=3, pos={0: 38}, dice=[(1, "2")])  # 38 + 3 = 41 -> 1 (project 0)
    st, _ev = act(st, 0, {"type": "roll"})
    assert [p["cash"] for p in st["players"]] == [50, 50, 50]
    assert sorted(to_decide(st)) == [0, 1, 2]
    with pytest.raises(IllegalAction):
        apply(st, 1, {"type": "donate", "amount": 4})
    st, _ = act(st, 1, {"type": "donate", "amount": 20})
    st, _ = act(st, 2, {"type": "donate", "amount": 5})
    st, _ = act(st, 0, {"type": "donate", "amount": 5})
    assert st["fund"] == 1848 + 30 and st["step"]["kind"] == "buy"


def test_the_fund_receives_nothing_voluntarily_at_other_times():
    st = scenario(cash={0: 100})
    with pytest.raises(IllegalAction):
        apply(st, 0, {"type": "donate", "amount": 10})
    assert not any(a["type"] == "donate" for a in legal_actions(st, 0))


def test_a_shuttle_ride_is_paid_by_the_fund_and_stops_only_at_projects_up_to_the_next_one():
    st = scenario(dice=[(3, "2")], cash={0: 500})  # 0 -> 5, a Shuttle
    st, _ = act(st, 0, {"type": "roll"})
    stops = [a["to"] for a in legal_actions(st, 0) if a["type"] == "ride"]
    assert stops == [6, 8, 11, 13, 15]  # projects, then the next Shuttle; no Chance, no Jail
    st, _ev = act(st, 0, {"type": "ride", "to": 11})
    assert st["fund"] == 1848 - 50 and st["players"][0]["cash"] == 500
    assert st["players"][0]["pos"] == 11 and st["step"]["kind"] == "buy"


def test_riding_to_the_next_shuttle_allows_another_ride_at_the_funds_expense_again():
    st = scenario(dice=[(3, "2")])
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "ride", "to": 15})
    assert st["step"] == {"kind": "shuttle", "from": 15}
    st, _ = act(st, 0, {"type": "ride", "to": 16})
    assert st["fund"] == 1848 - 100


def test_a_ride_past_go_pays_no_wages():
    st = scenario(pos={0: 33}, dice=[(1, "x2")])  # 33 + 2 = 35, the last Shuttle
    st, _ = act(st, 0, {"type": "roll"})
    st, ev = act(st, 0, {"type": "ride", "to": 1})
    assert "wages" not in types(ev) and st["players"][0]["cash"] == 0


def test_the_go_to_jail_space_sends_the_mover_to_jail_without_passing_go():
    st = scenario(pos={0: 26}, dice=[(2, "2")])  # a double, but the turn ends in Jail
    st, _ev = act(st, 0, {"type": "roll"})
    p = st["players"][0]
    assert p["in_jail"] and p["pos"] == 10 and p["cash"] == 0
    assert st["fund"] == 1848 - 50 and st["turn"] == 1


def test_paying_50_leaves_jail_and_then_both_dice_are_rolled_as_usual():
    st = scenario(in_jail={0: 1}, cash={0: 60}, dice=[(1, "x2")])
    st, _ = act(st, 0, {"type": "pay_jail"})
    assert not st["players"][0]["in_jail"] and st["players"][0]["cash"] == 10
    st, _ev = act(st, 0, {"type": "roll"})
    assert st["players"][0]["pos"] == 12 and st["again"]


def test_paying_your_way_out_needs_50_of_your_own():
    st = scenario(in_jail={0: 0}, cash={0: 49})
    assert "pay_jail" not in kinds(st, 0)


def test_a_six_on_the_standard_die_gets_out_free():
    st = scenario(in_jail={0: 0}, dice=[(6,), (1, "2")])
    st, _ = act(st, 0, {"type": "jail_roll"})
    assert not st["players"][0]["in_jail"] and st["step"] == {"kind": "pre_roll"}
    st, _ = act(st, 0, {"type": "roll"})
    assert st["players"][0]["pos"] == 13


def test_the_action_die_is_not_used_while_trying_to_get_out_of_jail():
    st = scenario(in_jail={0: 0}, dice=[(3,)])
    with pytest.raises(IllegalAction):
        apply(st, 0, {"type": "roll"})
    st, ev = act(st, 0, {"type": "jail_roll"})
    assert ev[0] == {"type": "jail_roll", "seat": 0, "die": 3}
    assert st["players"][0]["in_jail"] and st["turn"] == 1


def test_the_third_miss_pays_50_and_moves_by_that_roll():
    st = scenario(in_jail={0: 2}, cash={0: 80}, dice=[(3,)])
    st, _ev = act(st, 0, {"type": "jail_roll"})
    p = st["players"][0]
    assert not p["in_jail"] and p["cash"] == 30 and p["pos"] == 13


def test_a_seat_that_cannot_pay_is_covered_by_the_others_by_their_own_split():
    st = scenario(seats=4, in_jail={0: 2}, cash={0: 10, 1: 100, 2: 100, 3: 10}, dice=[(3,)])
    st, _ = act(st, 0, {"type": "jail_roll"})
    assert st["step"]["kind"] == "jail_split" and to_decide(st) == [1]
    assert st["step"]["needed"] == 40
    st, _ = act(st, 1, {"type": "pledge", "amount": 0})  # seats 2 and 3 can cover it
    assert to_decide(st) == [2]
    with pytest.raises(IllegalAction):
        apply(st, 2, {"type": "pledge", "amount": 20})  # the others must cover it together
    st, _ = act(st, 2, {"type": "pledge", "amount": 30})  # seat 3 has no choice left: 10
    assert [p["cash"] for p in st["players"]] == [0, 100, 70, 0]
    assert st["fund"] == 1848 and st["players"][0]["pos"] == 13


def test_the_bots_and_clocks_default_jail_split_is_even():
    from games.commonwealth.engine import timeout_actions
    st = scenario(seats=3, in_jail={0: 2}, cash={1: 100, 2: 100}, dice=[(3,)])
    st, _ = act(st, 0, {"type": "jail_roll"})
    assert timeout_actions(st, 1) == [{"type": "pledge", "amount": 25}]


def test_the_fund_pays_last_when_nobody_can_cover_the_jail_fee():
    st = scenario(seats=3, in_jail={0: 2}, cash={0: 10, 1: 15, 2: 0}, dice=[(3,)])
    st, _ = act(st, 0, {"type": "jail_roll"})
    assert [p["cash"] for p in st["players"]] == [0, 0, 0]
    assert st["fund"] == 1848 - 25


def test_each_trip_to_jail_costs_the_fund_50():
    st = scenario(dice=[(1, "3")], deck_top=["go_to_jail"])
    st, _ = act(st, 0, {"type": "roll"})
    assert st["fund"] == 1848 - 50
