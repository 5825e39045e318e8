"""Chance: keep one plus the Jail card, one play a turn, the draw choices, the +2 order."""

from __future__ import annotations

import pytest
from commonwealth_helpers import act, kinds, types

from games.commonwealth.engine import IllegalAction, apply, scenario
from games.commonwealth.engine.data import CARD_KIND, JAIL_FREE_CARD


def drawn_on_chance(**kw):
    """Seat 0 rolls 2 + pip 2... no: 1 + 3 = 4, a Chance space, and draws the deck's top."""
    st = scenario(dice=[(1, "3")], **kw)
    st, ev = act(st, 0, {"type": "roll"})
    return st, ev


def test_a_kept_card_waits_in_hand_until_used():
    st, _ = drawn_on_chance(deck_top=["free_chip"])
    assert st["step"]["kind"] == "chance"
    cid = st["step"]["cards"][0]
    st, _ = act(st, 0, {"type": "keep", "card": cid})
    assert st["players"][0]["kept"] == cid


def test_drawing_while_holding_a_card_offers_the_seeds_three_choices():
    st, _ = drawn_on_chance(deck_top=["remove_chip"], kept={0: "free_chip"},
                            managers={0: 1}, chips={0: [1]})
    held, drawn = st["players"][0]["kept"], st["step"]["cards"][0]
    plays = {a["card"] for a in __import__("games.commonwealth.engine", fromlist=["x"])
             .legal_actions(st, 0) if a["type"] == "play_card"}
    assert plays == {held, drawn}
    # 1. play the drawn card, keep the held one
    a, _ = act(st, 0, {"type": "play_card", "card": drawn, "project": 0, "seat": 1})
    assert a["players"][0]["kept"] == held and a["step"]["kind"] == "pre_roll"
    # 2. play the held card, keep the drawn one
    b, _ = act(st, 0, {"type": "play_card", "card": held, "project": 0})
    assert b["step"]["stage"] == "keep"
    b, _ = act(b, 0, {"type": "keep", "card": drawn})
    assert b["players"][0]["kept"] == drawn
    # 3. return the drawn card, keep the held one
    c, _ev = act(st, 0, {"type": "skip"})
    assert c["players"][0]["kept"] == held and c["deck"][-1] == drawn


def test_the_jail_card_is_kept_beside_one_other_card():
    st, _ = drawn_on_chance(deck_top=["jail_free"], kept={0: "swap"})
    assert st["players"][0]["jail_card"] and st["players"][0]["kept"] is not None


def test_only_one_kept_card_may_be_played_a_turn():
    st, _ = drawn_on_chance(deck_top=["free_chip"], kept={0: "free_chip"}, managers={0: 1})
    held = st["players"][0]["kept"]
    st, _ = act(st, 0, {"type": "play_card", "card": held, "project": 0})
    with pytest.raises(IllegalAction):
        apply(st, 0, {"type": "play_card", "card": st["step"]["cards"][0], "project": 0})


def test_a_card_played_before_rolling_uses_up_the_turns_play():
    st = scenario(dice=[(1, "3")], deck_top=["free_chip"], kept={0: "free_chip"},
                  managers={0: 1})
    st, _ = act(st, 0, {"type": "play_card", "card": st["players"][0]["kept"], "project": 0})
    st, _ = act(st, 0, {"type": "roll"})
    assert st["step"] == {"kind": "chance", "cards": st["step"]["cards"], "stage": "keep"}


def test_plus_two_play_at_most_one_keep_at_most_one_and_return_the_rest():
    st = scenario(dice=[(6, "+2")], pos={0: 4}, managers={0: 1},
                  deck_top=["free_chip", "free_chip"])
    st, _ = act(st, 0, {"type": "roll"})
    st, _ = act(st, 0, {"type": "order", "first": "draw"})
    first, second = st["step"]["cards"]
    st, _ = act(st, 0, {"type": "play_card", "card": first, "project": 0})
    assert kinds(st, 0) == {"keep"}
    st, _ev = act(st, 0, {"type": "keep", "card": None})
    assert st["deck"][-1] == second and st["players"][0]["kept"] is None


def test_two_immediate_cards_drawn_together_are_both_played():
    st = scenario(dice=[(6, "+2")], pos={0: 4}, deck_top=["fund_loss:100", "fund_loss:80"])
    st, _ = act(st, 0, {"type": "roll"})
    st, ev = act(st, 0, {"type": "order", "first": "draw"})
    assert types(ev).count("immediate") == 2 and st["fund"] == 1848 - 180


def test_an_immediate_card_takes_at_most_100_from_the_fund():
    from games.commonwealth.engine.data import CARDS
    losses = [c["amount"] for c in CARDS if c["kind"] == "fund_loss"]
    assert len(losses) == 10 and max(losses) <= 100


def test_the_go_to_jail_card_sends_the_drawer_to_jail():
    st, _ev = drawn_on_chance(deck_top=["go_to_jail"])
    assert st["players"][0]["in_jail"] and st["turn"] == 1 and st["fund"] == 1848 - 50


def test_used_cards_go_to_the_bottom_of_the_deck():
    st, _ = drawn_on_chance(deck_top=["fund_loss:60"])
    assert CARD_KIND[st["deck"][-1]] == "fund_loss"


def test_the_free_chip_card_places_a_chip_on_any_managed_project_for_nothing():
    st = scenario(kept={0: "free_chip"}, managers={5: 1})
    cid = st["players"][0]["kept"]
    st, _ = act(st, 0, {"type": "play_card", "card": cid, "project": 5})
    assert st["projects"][5]["chips"] == [0] and st["fund"] == 1848


def test_the_remove_card_takes_a_rivals_chip_back_to_its_owner():
    st = scenario(seats=3, kept={0: "remove_chip"}, managers={5: 1}, chips={5: [2, 1]})
    cid = st["players"][0]["kept"]
    with pytest.raises(IllegalAction):
        apply(st, 0, {"type": "play_card", "card": cid, "project": 5, "seat": 0})
    st, _ = act(st, 0, {"type": "play_card", "card": cid, "project": 5, "seat": 2})
    assert st["projects"][5]["chips"] == [1] and st["players"][2]["supply"] == 10


def test_the_swap_card_forces_a_project_swap_with_a_chosen_player():
    st = scenario(kept={0: "swap"}, managers={0: 0, 9: 1}, chips={9: [1, 1]})
    cid = st["players"][0]["kept"]
    st, _ = act(st, 0, {"type": "play_card", "card": cid, "mine": 0, "theirs": 9})
    assert st["projects"][0]["manager"] == 1 and st["projects"][9]["manager"] == 0
    assert st["projects"][9]["chips"] == [1, 1]


def test_the_jail_card_goes_to_the_bottom_when_used():
    st = scenario(in_jail={0: 0}, jail_card=0)
    st, _ = act(st, 0, {"type": "jail_card"})
    assert st["deck"][-1] == JAIL_FREE_CARD and not st["players"][0]["in_jail"]


def test_a_clock_running_out_on_a_draw_skips_playing_and_keeps_the_card():
    from games.commonwealth.engine import timeout_actions
    st, _ = drawn_on_chance(deck_top=["free_chip"], managers={0: 1})
    cid = st["step"]["cards"][0]
    assert timeout_actions(st, 0) == [{"type": "skip"}, {"type": "keep", "card": cid}]
    for action in timeout_actions(st, 0):
        st, _ = act(st, 0, action)
    assert st["players"][0]["kept"] == cid
