"""The Jail fee after three misses: the jailed seat pays what it can, the others cover the rest
between them, and the Fund pays only what all the players together cannot, at the moment it
pays (seed 002: "If all players do not have enough money to pay the whole $50, then the
Community Fund can be used"; nobody takes money from the Fund in a deal)."""

from __future__ import annotations

import random
from typing import Any

from commonwealth_helpers import act

from games.commonwealth.describe import describe_event
from games.commonwealth.engine import data, scenario, to_decide
from games.commonwealth.engine.rules import pledge_bounds

NAMES = ["Ann", "Ben", "Cy", "Di"]
LANDING = data.PROJECT_AT[data.JAIL + 3]  # where a roll of 3 out of Jail lands (left unmanaged)


def fund_share(events: list[dict[str, Any]]) -> int:
    return sum(-e["delta"] for e in events if e["type"] == "fund" and e["reason"] == "jail_fee")


def pledge_the_least(st: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Every pledger still to choose gives as little as the rule allows."""
    events: list[dict[str, Any]] = []
    while st["step"] is not None and st["step"]["kind"] == "jail_split":
        seat = to_decide(st)[0]
        low, _ = pledge_bounds(st, st["step"])
        st, ev = act(st, seat, {"type": "pledge", "amount": low})
        events += ev
    return st, events


def test_cash_moved_by_deals_after_a_zero_pledge_still_pays_the_fee_not_the_fund():
    # Ben may pledge 0 because Cy and Di could cover the 50. Then both sell Ben cash for a
    # project while Cy owes its pledge: Cy and Di are left with too little, and Ben holds 225.
    st = scenario(seats=4, in_jail={0: 2}, cash={1: 100, 2: 80, 3: 80}, managers={0: 1, 2: 1},
                  dice=[(3,)])
    st, _ = act(st, 0, {"type": "jail_roll"})
    assert to_decide(st) == [1] and pledge_bounds(st, st["step"]) == (0, 50)
    st, _ = act(st, 1, {"type": "pledge", "amount": 0})
    st, _ = act(st, 3, {"type": "offer", "to": 1, "give": {"cash": 45},
                        "get": {"projects": [0]}})
    st, events = act(st, 1, {"type": "accept"})
    st, _ = act(st, 2, {"type": "offer", "to": 1, "give": {"cash": 80},
                        "get": {"projects": [2]}})
    st, more = act(st, 1, {"type": "accept"})
    events += more
    st, more = pledge_the_least(st)
    events += more
    assert fund_share(events) == 0 and st["fund"] == data.FUND_START
    assert [p["cash"] for p in st["players"]] == [0, 225 - 15, 0, 0]
    assert st["players"][0]["pos"] == data.JAIL + 3 and not st["players"][0]["in_jail"]


def test_cash_handed_to_the_jailed_seat_during_the_split_pays_its_fee_before_the_fund():
    st = scenario(seats=4, in_jail={0: 2}, cash={1: 30, 2: 30, 3: 30}, managers={1: 0},
                  dice=[(3,)])
    st, _ = act(st, 0, {"type": "jail_roll"})
    st, _ = act(st, 1, {"type": "pledge", "amount": 0})   # Cy and Di could cover the 50
    st, _ = act(st, 3, {"type": "offer", "to": 0, "give": {"cash": 30},
                        "get": {"projects": [1]}})
    st, events = act(st, 0, {"type": "accept"})
    st, more = pledge_the_least(st)
    events += more
    fee = next(e for e in events if e["type"] == "jail_fee")
    assert fee["paid"] == [[0, 20], [2, 30]] and fee["from_fund"] == 0
    assert fund_share(events) == 0 and [p["cash"] for p in st["players"]] == [10, 30, 0, 0]


def test_the_fund_pays_exactly_what_all_the_players_together_cannot():
    st = scenario(seats=4, in_jail={0: 2}, cash={0: 5, 1: 10, 2: 0, 3: 15}, dice=[(3,)])
    st, events = act(st, 0, {"type": "jail_roll"})
    st, more = pledge_the_least(st)
    events += more
    assert fund_share(events) == 50 - 30
    assert [p["cash"] for p in st["players"]] == [0, 0, 0, 0]


def _random_table(rng: random.Random) -> dict[str, Any]:
    seats = rng.randint(2, 4)
    amounts = (0, 0, 5, 10, 20, 35, 50, 80, 180)
    cash = {s: rng.choice(amounts) for s in range(seats)}
    pids = [pid for pid in range(len(data.PROJECTS)) if pid != LANDING]
    rng.shuffle(pids)
    managers = {pids.pop(): s for s in range(seats) for _ in range(2)}
    fund = rng.choice((data.FUND_START, 30, 10))
    return scenario(seats=seats, in_jail={0: 2}, cash=cash, managers=managers, fund=fund,
                    dice=[(3,)])


def _random_deal(rng: random.Random, st: dict[str, Any]) -> dict[str, Any] | None:
    """Some seat pays another some cash for one of its projects (or the other way round)."""
    seats = list(range(st["seats"]))
    payer, seller = rng.sample(seats, 2)
    theirs = [pid for pid, pr in enumerate(st["projects"]) if pr["manager"] == seller]
    cash = st["players"][payer]["cash"]
    if not theirs or not cash:
        return None
    return {"seat": payer, "action": {"type": "offer", "to": seller,
                                      "give": {"cash": rng.randint(1, cash)},
                                      "get": {"projects": [rng.choice(theirs)]}}}


def test_whatever_the_pledges_and_deals_the_fund_never_pays_what_a_player_could():
    rng = random.Random(36)
    for _ in range(400):
        st = _random_table(rng)
        players_could = sum(p["cash"] for p in st["players"])  # deals only move it around
        fund_before = st["fund"]
        st, events = act(st, 0, {"type": "jail_roll"})
        while st["step"] is not None and st["step"]["kind"] == "jail_split":
            deal = _random_deal(rng, st) if rng.random() < 0.5 else None
            if deal and st["players"][deal["seat"]]["offers"] < 2:
                st, ev = act(st, deal["seat"], deal["action"])
                st, more = act(st, deal["action"]["to"], {"type": "accept"})
                events += ev + more
                continue
            seat = to_decide(st)[0]
            low, high = pledge_bounds(st, st["step"])
            st, ev = act(st, seat, {"type": "pledge", "amount": rng.randint(low, high)})
            events += ev
        fee = next(e for e in events if e["type"] == "jail_fee")
        owed_by_fund = max(0, data.JAIL_FEE - players_could)
        assert fund_share(events) == min(owed_by_fund, fund_before)
        assert fee["from_fund"] == fund_share(events)
        assert sum(a for _, a in fee["paid"]) == min(players_could, data.JAIL_FEE)
        if fund_share(events):
            assert all(p["cash"] == 0 for p in st["players"])
        if st["result"] is None:
            assert st["players"][0]["pos"] == data.JAIL + 3


def test_the_log_says_who_paid_what_of_the_fee():
    st = scenario(seats=3, in_jail={0: 2}, cash={0: 10, 1: 25, 2: 5}, dice=[(3,)])
    st, events = act(st, 0, {"type": "jail_roll"})
    st, more = pledge_the_least(st)
    lines = [describe_event(e, viewer=0, names=NAMES) for e in events + more]
    assert "You left Jail after three tries: the fee of 50 is due." in lines
    assert "Your Jail fee of 50 was paid: you 10, Ben 25, Cy 5 and the Community Fund 10." \
        in lines
    spectator = [describe_event(e, viewer=None, names=NAMES) for e in events + more]
    assert "Ann’s Jail fee of 50 was paid: Ann 10, Ben 25, Cy 5 and the Community Fund 10." \
        in spectator
    assert not any("paid 50" in (line or "") or "paying" in (line or "") for line in lines)


def test_a_seat_that_pays_its_whole_fee_is_said_to_have_paid_it():
    st = scenario(in_jail={0: 2}, cash={0: 80}, dice=[(3,)])
    _, events = act(st, 0, {"type": "jail_roll"})
    lines = [describe_event(e, viewer=1, names=NAMES) for e in events]
    assert "Ann paid the Jail fee of 50." in lines
