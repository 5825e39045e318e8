"""What the decision panel offers the engine accepts (games/commonwealth/board.py): every
listed choice, and both ends of the free-amount field (a bid, a GO gift, a Jail pledge), whose
bounds are the engine's own rules read on the seat's view, so one step past its maximum is
refused. A bidder that handed cash away in a deal bids its own money only, and the page says
so: the saturation bench's scripted seat was offered a bid the engine then refused."""

from __future__ import annotations

import json
import random
from typing import Any

from games.commonwealth import engine
from games.commonwealth.board import board_context
from games.commonwealth.engine import apply, can_offer, offer_problem, problem, scenario
from games.commonwealth.engine.data import AUCTION_STEP
from games.commonwealth.engine.random_player import choose

NAMES = ["Ann", "Ben", "Cy", "Di"]
SEATS = [{"is_bot": False}] * 4
LANDS_ON_2 = (4, "2")  # from GO to space 6: Bicycle Workshop (project 2)


def decision(st: dict[str, Any], me: int) -> dict[str, Any]:
    return board_context(engine.view(st, me), me=me, names=NAMES[:st["seats"]],
                         seats=SEATS[:st["seats"]])["decision"]


def listed(d: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(o["json"]) for group in ("buttons", "amounts", "develops", "cards",
                                                  "rides") for o in d[group]]


def refused_page_choices(st: dict[str, Any], me: int) -> list[tuple[dict[str, Any], str]]:
    """Every choice the seat's page offers that the engine refuses, with why: the listed ones,
    the free-amount field's least and most, and (as the field's maximum must be the engine's)
    one step past its maximum if the engine accepts that."""
    d = decision(st, me)
    out = [(a, why) for a in listed(d) if (why := problem(st, me, a))]
    form = d["amount_form"]
    if form is not None:
        for amount in (form["low"], form["high"]):
            action = {"type": form["type"], "amount": amount}
            if why := problem(st, me, action):
                out.append((action, why))
        past = {"type": form["type"], "amount": form["high"] + form["step"]}
        if problem(st, me, past) is None:
            out.append((past, "accepted past the field's maximum"))
    return out


def gave_cash_then_bids() -> dict[str, Any]:
    """Ben (12 of his own) hands 2 to Cy with a project; Ann sends project 2 to auction."""
    st = scenario(seats=3, managers={0: 1}, cash={1: 12}, dice=[LANDS_ON_2])
    st = apply(st, 1, {"type": "offer", "to": 2, "give": {"projects": [0], "cash": 2},
                       "get": {}}).state
    st = apply(st, 2, {"type": "accept"}).state
    st = apply(st, 0, {"type": "roll"}).state
    return apply(st, 0, {"type": "auction"}).state


def test_a_bidder_that_gave_cash_away_is_offered_no_bid_past_its_own_money():
    st = gave_cash_then_bids()
    d = decision(st, 1)
    assert [a["amount"] for a in listed(d) if a["type"] == "bid"] == [5, 10]
    assert (d["amount_form"]["low"], d["amount_form"]["high"]) == (5, 10)
    assert refused_page_choices(st, 1) == []


def test_its_bid_field_says_it_pays_with_its_own_money_only():
    label = decision(gave_cash_then_bids(), 1)["amount_form"]["label"]
    assert "your own money only, your 10" in label
    assert "the Fund the rest" not in label


def test_a_bidder_the_fund_may_help_is_told_the_fund_pays_the_rest():
    st = apply(gave_cash_then_bids(), 1, {"type": "bid", "amount": 5}).state
    form = decision(st, 2)["amount_form"]
    assert "if you win you pay up to your" in form["label"]
    assert "the Fund the rest" in form["label"]
    cash, fund = st["players"][2]["cash"], st["fund"]
    assert form["high"] == (cash + fund) // AUCTION_STEP * AUCTION_STEP
    assert refused_page_choices(st, 2) == []


def test_a_bidder_with_less_than_the_opening_bid_after_a_deal_is_told_why_it_cannot_bid():
    st = scenario(seats=3, managers={0: 1}, cash={1: 2}, dice=[LANDS_ON_2])
    st = apply(st, 1, {"type": "offer", "to": 2, "give": {"projects": [0], "cash": 2},
                       "get": {}}).state
    st = apply(st, 2, {"type": "accept"}).state
    st = apply(apply(st, 0, {"type": "roll"}).state, 0, {"type": "auction"}).state
    d = decision(st, 1)
    assert d["amount_form"] is None and [a["type"] for a in listed(d)] == ["pass"]
    [why] = d["unavailable"]
    assert why["id"] == "bid-unavailable"
    assert "until your next turn passes on the Fund pays nothing for you" in why["reason"]


def _cash_deal(st: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A deal in which `seat` hands a rival a project of its and some cash, if it may."""
    mine = [pid for pid, pr in enumerate(st["projects"]) if pr["manager"] == seat]
    if not mine or not can_offer(st, seat):
        return None
    to = rng.choice([s for s in range(st["seats"]) if s != seat])
    cash = rng.randint(1, max(1, st["players"][seat]["cash"]))
    offer = {"type": "offer", "to": to, "give": {"projects": [rng.choice(mine)], "cash": cash},
             "get": {}}
    return offer if offer_problem(st, seat, offer) is None else None


def test_every_choice_the_page_offers_across_played_out_games_is_legal():
    """Seeded games of random moves, with seats often handing cash away in deals (so bids,
    chips and purchases meet a Fund that may not help): at every step, every deciding seat's
    page offers only what the engine accepts."""
    checked = own_money_bids = 0
    for seed in range(6):
        rng = random.Random(seed)
        st = engine.new_game(seats=3 + seed % 2, seed=seed)
        for _ in range(400):
            if st["result"] is not None:
                break
            deciding = engine.to_decide(st)
            for seat in deciding:
                assert refused_page_choices(st, seat) == [], (seed, st["step"])
                checked += 1
                own_money_bids += (st["step"] or {}).get("kind") == "auction" \
                    and not engine.view(st, seat)["players"][seat]["fund_covers"]
            seat = rng.choice(deciding)
            offer = _cash_deal(st, seat, rng) if rng.random() < 0.3 else None
            if offer is not None:
                st = apply(st, seat, offer).state
                st = apply(st, offer["to"], {"type": "accept"}).state
                continue
            st = apply(st, seat, choose(st, seat, rng)).state
    assert checked > 1000 and own_money_bids > 0
