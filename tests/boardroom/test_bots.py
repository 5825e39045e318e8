"""The easy and medium bots: one legal action for every kind of decision, from a view."""

from __future__ import annotations

import random

import pytest

from games.boardroom.bots import choose_action
from games.boardroom.bots.common import gives_away
from games.boardroom.engine import apply, problem, scenario, view

from .helpers import act

LEVELS = ("easy", "medium")


def _choose(st, seat, level):
    a = choose_action(view(st, seat), level, random.Random(1))
    assert problem(st, seat, a) is None, a
    return a


def test_the_easy_bot_buys_a_business_it_can_afford_when_it_feels_like_it() -> None:
    st = act(scenario(dice=[(1, 2)], bots=[True, True]), 0, "roll")
    assert _choose(st, 0, "easy") == {"type": "buy", "tile": 3}  # this rng: it does


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_buys_the_last_business_of_its_industry(level: str) -> None:
    st = act(scenario(dice=[(1, 2)], owners={1: 0, 4: 0}, bots=[True, True]), 0, "roll")
    if level == "medium":
        assert _choose(st, 0, level) == {"type": "buy", "tile": 3}
    else:
        assert _choose(st, 0, level)["type"] in ("buy", "decline")


def test_a_rich_medium_bot_sends_a_business_to_auction_to_get_it_for_less() -> None:
    st = act(scenario(dice=[(1, 2)], bots=[True, True]), 0, "roll")
    assert _choose(st, 0, "medium") == {"type": "decline", "tile": 3}
    st = act(st, 0, "decline", tile=3)
    assert _choose(st, 0, "medium") == {"type": "bid", "amount": 45}


def test_a_medium_bot_with_just_enough_buys_outright() -> None:
    st = act(scenario(dice=[(1, 5)], cash={0: 200}, bots=[True, True]), 0, "roll")
    assert _choose(st, 0, "medium") == {"type": "buy", "tile": 6}


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_short_of_cash_sends_the_business_to_auction(level: str) -> None:
    st = act(scenario(dice=[(1, 2)], cash={0: 70}, bots=[True, True]), 0, "roll")
    assert _choose(st, 0, level)["type"] == "decline"


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_bids_below_its_value_and_passes_above_it(level: str) -> None:
    st = act(scenario(dice=[(1, 2)], cash={0: 40}, bots=[True, True]), 0, "roll")
    st = act(st, 0, "decline", tile=3)  # seat 0 cannot pay 45: seat 1 is asked
    assert _choose(st, 1, level) == {"type": "bid", "amount": 45}
    st["auction"]["high"], st["auction"]["leader"] = 300, 0
    st["cash"][0] = 1000
    assert _choose(st, 1, level) == {"type": "pass"}


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_builds_on_its_industry_when_it_can_afford_it(level: str) -> None:
    st = act(scenario(owners={1: 0, 3: 0, 4: 0}, dice=[(1, 2)], bots=[True, True]), 0, "roll")
    assert _choose(st, 0, level) == {"type": "build", "tile": 3}


def test_with_the_stock_empty_the_medium_bot_moves_a_branch_to_where_it_earns_more() -> None:
    # Seat 1's heavy industry, finance and electronics and seat 0's stalls hold all 32 branches.
    levels = {31: 4, 32: 4, 34: 4, 36: 4, 38: 4, 39: 4, 26: 2, 27: 2, 29: 1, 1: 1, 3: 1, 4: 1}
    owners = {t: 1 for t in (26, 27, 29, 31, 32, 34, 36, 38, 39)} | \
        {t: 0 for t in (1, 3, 4, 6, 8, 9)}
    st = act(scenario(owners=owners, levels=levels, dice=[(2, 4)], bots=[True, True]),
             0, "roll")
    assert st["pos"][0] == 6 and st["stock"][0] == 0
    assert _choose(st, 0, "easy")["type"] != "close"  # the casual player does not
    close = _choose(st, 0, "medium")
    assert close["type"] == "close" and close["tile"] in (1, 3, 4)  # a stall earns least
    st = act(st, 0, **close)
    assert _choose(st, 0, "medium") == {"type": "build", "tile": 6}


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_in_debt_raises_money_and_gives_up_only_when_nothing_is_left(level: str
                                                                           ) -> None:
    st = act(scenario(pos={0: 31}, dice=[(2, 4)], cash={0: 60}, owners={5: 0, 1: 0, 3: 0,
                                                                          4: 0},
                      levels={1: 1, 3: 1, 4: 1}, bots=[True, True]), 0, "roll")
    seen = set()
    for _ in range(30):
        if not st["debts"] or st["phase"] == "finished":
            break
        seat = st["auction"]["at"] if st["auction"] else st["debts"][0]["seat"]
        a = _choose(st, seat, level)
        seen.add(a["type"])
        st = apply(st, seat, a).state
    assert not st["debts"] and "give_up" not in seen
    st = act(scenario(pos={0: 31}, dice=[(2, 4)], cash={0: 60}, bots=[True, True]), 0, "roll")
    assert _choose(st, 0, level) == {"type": "give_up"}


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_under_audit_rolls_or_leaves(level: str) -> None:
    st = scenario(audit={0: 0}, releases={0: [4]}, bots=[True, True])
    assert _choose(st, 0, level)["type"] in ("roll", "use_release", "pay_bail")


def test_the_medium_bot_leaves_the_audit_early_while_the_board_is_for_sale() -> None:
    st = scenario(audit={0: 0}, releases={0: [4]}, bots=[True, True])
    assert _choose(st, 0, "medium") == {"type": "use_release"}


def test_the_easy_bot_never_proposes_a_trade() -> None:
    st = act(scenario(pos={0: 14}, dice=[(2, 4)], owners={1: 0, 3: 0, 4: 1},
                      bots=[True, True]), 0, "roll")
    assert _choose(st, 0, "easy") == {"type": "end_turn"}


@pytest.mark.parametrize("level", ["medium"])
def test_a_bot_offers_cash_for_the_last_tile_of_its_industry_and_raises_after_a_refusal(
        level: str) -> None:
    st = act(scenario(pos={0: 14}, dice=[(2, 4)], owners={1: 0, 3: 0, 4: 1},
                      bots=[True, True]), 0, "roll")
    a = _choose(st, 0, level)
    assert a["type"] == "propose" and a["take"] == 4 and a["cash"] >= 3 * 80
    st = act(act(st, 0, **a), 1, "answer", accept=False)
    b = _choose(st, 0, level)
    assert b["type"] == "end_turn" or b["cash"] >= a["cash"] + 10


def test_a_bot_swaps_when_both_sides_complete_an_industry() -> None:
    st = act(scenario(pos={0: 14}, dice=[(2, 4)], owners={1: 0, 3: 0, 4: 1, 6: 1, 8: 1, 9: 0},
                      bots=[True, True], cash={0: 200}), 0, "roll")
    a = _choose(st, 0, "medium")
    assert (a["type"], a["take"], a["give"]) == ("propose", 4, 9)
    st = act(st, 0, **a)
    assert _choose(st, 1, "medium") == {"type": "answer", "accept": True}


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_refuses_to_hand_over_the_last_tile_of_an_industry_cheaply(level: str) -> None:
    st = act(scenario(pos={0: 14}, dice=[(2, 4)], owners={1: 0, 3: 0, 4: 1},
                      bots=[False, True]), 0, "roll")
    st = act(st, 0, type_="propose", kind="swap", to=1, take=4, give=None, cash=200)
    assert gives_away(view(st, 1), 1, st["offer"], answering=True)
    assert _choose(st, 1, level) == {"type": "answer", "accept": False}


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_accepts_a_good_price_for_a_loose_tile(level: str) -> None:
    st = act(scenario(pos={0: 14}, dice=[(2, 4)], owners={12: 1}, bots=[False, True]),
             0, "roll")
    st = act(st, 0, type_="propose", kind="swap", to=1, take=12, give=None, cash=400)
    assert _choose(st, 1, level) == {"type": "answer", "accept": True}


@pytest.mark.parametrize("level", ["medium"])
def test_a_declined_bot_respects_the_five_round_pause(level: str) -> None:
    st = act(scenario(pos={0: 14}, dice=[(2, 4)], owners={1: 0, 3: 0, 4: 1},
                      bots=[True, False]), 0, "roll")
    a = _choose(st, 0, level)
    st = act(act(st, 0, **a), 1, "answer", accept=False)
    st["trade_used"] = False  # even with a fresh trade, it does not ask again
    assert _choose(st, 0, level)["type"] == "end_turn"


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="Unknown bot level"):
        choose_action(view(scenario(), 0), "expert", random.Random(1))
