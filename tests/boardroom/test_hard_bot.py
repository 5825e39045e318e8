"""The hard bot: one legal action for every kind of decision, from its seat's view only, with
valuations that know what an industry earns."""

from __future__ import annotations

import copy
import random

from games.boardroom.bots import choose_action, hard
from games.boardroom.engine import new_game, problem, scenario, step, to_decide
from games.boardroom.engine import view as seat_view

from .helpers import act


def _choose(st: dict, seat: int) -> dict:
    a = choose_action(seat_view(st, seat), "hard", random.Random(1))
    assert problem(st, seat, a) is None, a
    return a


def _after_roll(seats: int = 2, **kw) -> dict:
    # From the river port a 5 lands on the business forum: nothing to buy or pay.
    return act(scenario(seats=seats, pos={0: 15}, dice=[(2, 3)], bots=[True] * seats, **kw),
               0, "roll")


def test_the_hard_bot_buys_a_business_it_can_afford() -> None:
    st = act(scenario(dice=[(1, 2)], bots=[True, True]), 0, "roll")
    assert _choose(st, 0) == {"type": "buy", "tile": 3}


def test_the_hard_bot_bids_above_the_price_for_the_tile_that_completes_its_industry() -> None:
    st = act(scenario(dice=[(1, 2)], cash={0: 40}, owners={26: 1, 27: 1},
                      bots=[True, True]), 0, "roll")
    st["pos"][0] = 29
    st["phase"] = "buy"
    st = act(st, 0, "decline", tile=29)  # seat 0 cannot pay: seat 1 bids
    st["auction"]["high"], st["auction"]["leader"] = 300, 0
    st["cash"][0] = 2000
    assert _choose(st, 1) == {"type": "bid", "amount": 310}
    st["cash"][1] = 5000
    st["auction"]["high"] = 2600  # above the electronics' worth to it heads-up
    assert _choose(st, 1) == {"type": "pass"}


def test_the_hard_bot_builds_on_its_industry_when_it_keeps_its_reserve() -> None:
    st = act(scenario(owners={1: 0, 3: 0, 4: 0}, dice=[(1, 2)], bots=[True, True]), 0, "roll")
    assert _choose(st, 0) == {"type": "build", "tile": 3}


def test_late_in_the_game_the_hard_bot_pays_a_premium_for_finance_but_not_the_stalls() -> None:
    # 40 turns before the cap an industry has little time left to earn: the stalls' rents
    # no longer pay three times the price, the finance rents still do.
    late = {"seats": 3, "cash": {0: 2500}, "turn_number": 960}
    rich = _after_roll(owners={36: 0, 38: 0, 39: 1}, **late)
    a = _choose(rich, 0)
    assert (a["type"], a["take"], a["give"]) == ("propose", 39, None) and a["cash"] >= 1200
    cheap = _after_roll(owners={1: 0, 3: 0, 4: 1}, **late)
    assert _choose(cheap, 0) == {"type": "end_turn"}


def test_heads_up_the_hard_bot_offers_a_swap_but_never_cash() -> None:
    rich = _after_roll(owners={36: 0, 38: 0, 39: 1}, cash={0: 2500})
    assert _choose(rich, 0) == {"type": "end_turn"}
    both = _after_roll(owners={36: 0, 38: 0, 39: 1, 1: 1, 3: 1, 4: 0}, cash={0: 2500})
    a = _choose(both, 0)
    assert (a["type"], a["take"], a["give"]) == ("propose", 39, 4)


def test_the_hard_bot_refuses_to_swap_its_finance_for_the_street_stalls() -> None:
    st = _after_roll(owners={1: 1, 3: 1, 4: 0, 36: 0, 38: 0, 39: 1})
    st["bots"] = [False, True]
    st = act(st, 0, type_="propose", kind="swap", to=1, take=39, give=4, cash=0)
    assert _choose(st, 1) == {"type": "answer", "accept": False}


def test_the_hard_bot_takes_a_swap_where_both_complete_an_industry_of_equal_worth() -> None:
    st = _after_roll(owners={21: 0, 23: 0, 24: 1, 26: 1, 27: 1, 29: 0})
    st["bots"] = [False, True]
    st = act(st, 0, type_="propose", kind="swap", to=1, take=24, give=29, cash=0)
    assert _choose(st, 1) == {"type": "answer", "accept": True}


def test_the_hard_bot_sells_a_rival_an_industry_only_above_its_worth_to_the_rival() -> None:
    st = _after_roll(owners={36: 0, 38: 0, 39: 1}, cash={0: 9000})
    st["bots"] = [False, True]
    low = act(st, 0, type_="propose", kind="swap", to=1, take=39, give=None, cash=1200)
    assert _choose(low, 1) == {"type": "answer", "accept": False}
    high = act(st, 0, type_="propose", kind="swap", to=1, take=39, give=None, cash=6000)
    assert _choose(high, 1) == {"type": "answer", "accept": True}


def test_the_hard_bot_leaves_the_audit_early_while_the_board_is_for_sale() -> None:
    st = scenario(audit={0: 0}, releases={0: [4]}, bots=[True, True])
    assert _choose(st, 0) == {"type": "use_release"}


def test_the_hard_bot_stays_under_audit_while_rival_rents_are_high() -> None:
    st = scenario(audit={0: 0}, releases={0: [4]}, bots=[True, True],
                  owners={31: 1, 32: 1, 34: 1}, levels={31: 2, 32: 2, 34: 2})
    assert _choose(st, 0) == {"type": "roll"}


def test_the_hard_bot_in_debt_raises_money_before_giving_up() -> None:
    st = act(scenario(pos={0: 31}, dice=[(2, 4)], cash={0: 60}, owners={5: 0, 1: 0, 3: 0,
                                                                          4: 0},
                      levels={1: 1, 3: 1, 4: 1}, bots=[True, True]), 0, "roll")
    assert st["debts"] and _choose(st, 0)["type"] != "give_up"


def test_the_hard_bot_decides_from_the_view_alone() -> None:
    # Two games that differ only in what the seat cannot see (deck order, generator, dice to
    # come) get the same decisions.
    st = _after_roll(owners={36: 0, 38: 0, 39: 1}, cash={0: 2500})
    other = copy.deepcopy(st)
    other["rng"] ^= 0xABCDEF
    other["decks"]["market"]["order"].reverse()
    other["dice_queue"] = [[6, 6], [1, 2]]
    assert seat_view(st, 0) == seat_view(other, 0)
    assert _choose(st, 0) == _choose(other, 0)


def test_the_hard_bot_plays_whole_games_with_legal_actions_only() -> None:
    for seed in range(3):
        levels = ["hard", "medium", "medium", "medium"]
        st = new_game(seats=4, seed=70 + seed, bots=[True] * 4, turn_cap=300)
        rng = random.Random(seed)
        while st["phase"] != "finished":
            seat = to_decide(st)[0]
            a = choose_action(seat_view(st, seat), levels[seat], rng)
            assert problem(st, seat, a) is None, a
            step(st, seat, a)
        assert st["result"]["winner"] is not None


def test_industry_values_follow_the_board() -> None:
    assert hard.IND_RENT["stalls"] < hard.IND_RENT["textiles"] < hard.IND_RENT["finance"]
