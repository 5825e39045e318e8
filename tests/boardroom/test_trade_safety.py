"""No bot level ever offers or accepts a trade that gives away the game.

The simple evaluation (`gives_the_game_away` below, written from the rules and the state, not
from the bots' own checks) looks at what the trade does to the table, from one side of it:

1. **A whole industry for nothing comparable.** After the trade the other side holds a whole
   industry it did not hold before (three businesses: it can build up to holdings), while this
   side completes none, and this side is paid less than a fair price for it: three times the
   price of each tile it hands over to complete that industry.
2. **Cash it cannot spare.** This side pays cash and is left with less than the highest rent a
   rival charges it now (a utility counted at the most likely dice total, 7), so the next
   roll may bankrupt it.

Every level is tested on crafted positions (answers to offers that fail the evaluation, and
positions where a careless offer would fail it), and in seeded playouts of mixed tables where
every offer made and every offer accepted is checked when it happens.
"""

from __future__ import annotations

import random

import pytest

from games.boardroom.bots import LEVELS, choose_action
from games.boardroom.engine import legal_actions, new_game, problem, scenario, step, to_decide
from games.boardroom.engine import view as seat_view
from games.boardroom.engine.board import GROUP, INDUSTRIES, PRICE
from games.boardroom.engine.rules import rent

from .helpers import act

ALL_LEVELS = tuple(LEVELS)
FAIR_FACTOR = 3


def _whole(owner: list, seat: int) -> set[str]:
    return {ind for ind, tiles in INDUSTRIES.items() if all(owner[t] == seat for t in tiles)}


def _highest_rent(st: dict, seat: int) -> int:
    return max((rent(st, t, 7) for t, o in enumerate(st["owner"])
                if o is not None and o != seat), default=0)


def gives_the_game_away(st: dict, seat: int, offer: dict) -> str | None:
    """Why the trade `offer` (as the engine stores it) gives the game away for `seat`, one
    of its two sides; None when it does not."""
    frm, to = offer["from"], offer["to"]
    other = to if seat == frm else frm
    after = st["owner"][:]
    if offer["kind"] == "swap":
        moves = [(offer["take"], frm)] + ([(offer["give"], to)] if offer["give"] is not None
                                          else [])
        paid = {frm: offer["cash"], to: 0}
    else:
        moves = [(offer["give"], to)]
        paid = {frm: 0, to: offer["cash"]}
    for t, new_owner in moves:
        after[t] = new_owner
    received = paid[other]
    handed = [t for t, new_owner in moves if new_owner == other]
    theirs = _whole(after, other) - _whole(st["owner"], other)
    ours = _whole(after, seat) - _whole(st["owner"], seat)
    if theirs and not ours:
        fair = sum(FAIR_FACTOR * PRICE[t] for t in handed
                   if any(t in INDUSTRIES[ind] for ind in theirs))
        if received < fair:
            return f"hands seat {other} the whole of {sorted(theirs)} for {received} < {fair}"
    if paid[seat] > 0 and st["cash"][seat] - paid[seat] < _highest_rent(st, seat):
        return f"pays {paid[seat]} and keeps less than the rent it may owe next"
    return None


def _answer(st: dict, seat: int, level: str) -> bool:
    a = choose_action(seat_view(st, seat), level, random.Random(3))
    assert a["type"] == "answer"
    return a["accept"]


def _offer(st: dict, frm: int, **terms) -> dict:
    return act(st, frm, type_="propose", **terms)


# --- crafted answers --------------------------------------------------------------------------
@pytest.mark.parametrize("level", ALL_LEVELS)
@pytest.mark.parametrize("industry", ["stalls", "textiles", "finance"])
@pytest.mark.parametrize("factor", [1, 2, 2.9])
def test_no_bot_sells_the_last_tile_of_a_rivals_industry_below_a_fair_price(
        level: str, industry: str, factor: float) -> None:
    a, b, last = INDUSTRIES[industry]
    st = act(scenario(pos={0: 15}, dice=[(2, 3)], owners={a: 0, b: 0, last: 1},
                      cash={0: 5000}, bots=[False, True]), 0, "roll")
    st = _offer(st, 0, kind="swap", to=1, take=last, give=None,
                cash=int(PRICE[last] * factor))
    assert gives_the_game_away(st, 1, st["offer"])
    assert not _answer(st, 1, level)


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_no_bot_swaps_the_last_tile_of_a_rivals_industry_for_a_loose_tile_and_change(
        level: str) -> None:
    # Seat 0 holds two food factories; seat 1 holds the third and nothing else of note.
    st = act(scenario(pos={0: 15}, dice=[(2, 3)], owners={21: 0, 23: 0, 24: 1, 12: 0},
                      cash={0: 3000}, bots=[False, True]), 0, "roll")
    st = _offer(st, 0, kind="swap", to=1, take=24, give=12, cash=300)
    assert gives_the_game_away(st, 1, st["offer"])
    assert not _answer(st, 1, level)


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_no_bot_buys_a_tile_with_the_cash_it_needs_for_the_next_rent(level: str) -> None:
    # The rival sells the bot a loose utility for 200, leaving it 100 while the rival's
    # heavy industry charges 390 a visit.
    st = act(scenario(pos={0: 15}, dice=[(2, 3)],
                      owners={31: 0, 32: 0, 34: 0, 12: 0}, levels={31: 2, 32: 2, 34: 2},
                      cash={1: 300}, bots=[False, True]), 0, "roll")
    st = _offer(st, 0, kind="sell", to=1, give=12, cash=200)
    assert gives_the_game_away(st, 1, st["offer"])
    assert not _answer(st, 1, level)


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_bot_still_takes_a_fair_price_or_a_fair_swap(level: str) -> None:
    # The evaluation is not "never trade": a swap where both sides complete an industry of
    # equal worth passes it, and the bots take it.
    st = act(scenario(pos={0: 15}, dice=[(2, 3)], owners={6: 0, 8: 0, 9: 1, 11: 1, 13: 1,
                                                          14: 0},
                      bots=[False, True]), 0, "roll")
    st = _offer(st, 0, kind="swap", to=1, take=9, give=14, cash=0)
    assert gives_the_game_away(st, 1, st["offer"]) is None
    assert _answer(st, 1, level)


# --- crafted offers ---------------------------------------------------------------------------
@pytest.mark.parametrize("level", ALL_LEVELS)
def test_a_bot_one_tile_short_offers_nothing_that_fails_the_evaluation(level: str) -> None:
    positions = [
        # poor: the only way to the industry would leave it without rent money
        dict(owners={21: 0, 23: 0, 24: 1, 31: 1, 32: 1, 34: 1}, levels={31: 3, 32: 3, 34: 3},
             cash={0: 700}),
        # it holds the tile the rival needs: a swap must complete one of its own too
        dict(owners={21: 0, 23: 0, 24: 1, 26: 1, 27: 1, 29: 0}, cash={0: 100}),
        # rich: any cash offer is fine, as long as it keeps the rent reserve
        dict(owners={36: 0, 38: 0, 39: 1}, cash={0: 2500}),
    ]
    for kw in positions:
        st = act(scenario(pos={0: 15}, dice=[(2, 3)], bots=[True, True], **kw), 0, "roll")
        rng = random.Random(5)
        for _ in range(4):  # a few tries in the same turn, after refusals
            a = choose_action(seat_view(st, 0), level, rng)
            assert problem(st, 0, a) is None
            if a["type"] != "propose":
                break
            st = act(st, 0, **a)
            assert gives_the_game_away(st, 0, st["offer"]) is None, (kw, a)
            st = act(st, 1, "answer", accept=False)


# --- playouts ---------------------------------------------------------------------------------
TABLES = [("hard", "medium", "medium", "medium"), ("medium", "easy", "easy"), ("hard", "easy"),
          ("hard", "medium"),
          ("easy", "medium", "hard")]


@pytest.mark.parametrize("levels", TABLES, ids="-".join)
def test_in_seeded_playouts_no_bot_offers_or_accepts_a_trade_that_gives_the_game_away(
        levels: tuple[str, ...]) -> None:
    offers = answers = 0
    for seed in range(6):
        k = len(levels)
        st = new_game(seats=k, seed=900 + seed, bots=[True] * k, turn_cap=240)
        rngs = [random.Random(seed * 31 + i) for i in range(k)]
        while st["phase"] != "finished":
            seat = to_decide(st)[0]
            legal = legal_actions(st, seat)
            a = legal[0] if len(legal) == 1 else \
                choose_action(seat_view(st, seat), levels[seat], rngs[seat])
            if a["type"] == "answer" and a["accept"]:
                answers += 1
                assert gives_the_game_away(st, seat, st["offer"]) is None, (levels, a)
            step(st, seat, a)
            if a["type"] == "propose":
                offers += 1
                assert gives_the_game_away(st, seat, st["offer"]) is None, (levels, a)
    assert offers > 0  # the tables do trade


def test_the_evaluation_sees_a_whole_industry_handed_over() -> None:
    st = scenario(owners={1: 0, 3: 0, 4: 1}, cash={0: 1000})
    offer = {"from": 0, "to": 1, "kind": "swap", "take": 4, "give": None, "cash": 100}
    assert "whole" in gives_the_game_away(st, 1, offer)
    assert gives_the_game_away(st, 1, {**offer, "cash": 240}) is None
    assert GROUP[4] == (1, 3, 4)
