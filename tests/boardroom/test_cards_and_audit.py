"""Market and state-aid cards, and the tax audit: one test per rule of the guide."""

from __future__ import annotations

from games.boardroom.engine import CARDS, legal_actions, scenario
from games.boardroom.engine.rules import draw

from .helpers import act, types

SEED_TITLES = {
    "market": ["New contracts", "Unexpected trip", "Urgent shipment", "A surprise audit",
               "Your lawyer won the case", "A contract fell through", "Dividends on deposits",
               "Fine for a late report", "The office party is on you", "Equipment repairs"],
    "aid": ["VAT refund", "State subsidy", "Sold your old equipment", "A supplier sues you",
            "Audit fees", "You won the tender", "A friend at the city council",
            "A rival files a complaint", "The annual report is filed", "Modernisation"],
}


# --- cards ------------------------------------------------------------------------------------
def test_there_are_exactly_the_twenty_cards_of_the_guide_ten_per_deck() -> None:
    assert len(CARDS) == 20
    for deck, titles in SEED_TITLES.items():
        assert [c["title"] for c in CARDS if c["deck"] == deck] == titles


def test_each_deck_goes_round_in_a_loop() -> None:
    st = scenario(pos={0: 5}, dice=[(1, 1)], market=[7, 0, 1, 2, 3, 4, 5, 8, 9, 6])
    st["decks"]["market"]["at"] = 9
    st = act(st, 0, "roll")  # 7: the tenth card (+150), then the loop starts over
    assert st["cash"][0] == 1650 and st["decks"]["market"]["at"] == 0


def test_a_forward_move_by_card_pays_the_salary_for_passing_start() -> None:
    st = act(scenario(pos={0: 33}, dice=[(1, 1)], market=[2]), 0, "roll")  # 35 -> 5
    assert st["pos"][0] == 5 and st["cash"][0] == 1700


def test_go_to_start_collects_the_salary() -> None:
    st = act(scenario(pos={0: 15}, dice=[(1, 1)], aid=[18]), 0, "roll")
    assert st["pos"][0] == 0 and st["cash"][0] == 1700


def test_back_three_steps_pays_no_salary() -> None:
    st = act(scenario(pos={0: 4}, dice=[(1, 2)], market=[5]), 0, "roll")
    assert st["pos"][0] == 4 and st["cash"][0] == 1500 and st["phase"] == "buy"


def test_a_card_to_the_audit_pays_no_salary_and_ends_the_doubles() -> None:
    st = act(scenario(pos={0: 31}, dice=[(2, 2)], market=[3]), 0, "roll")
    assert st["pos"][0] == 10 and st["audit"][0] == 0 and st["cash"][0] == 1500
    st = act(st, 0, "end_turn")
    assert st["turn"] == 1


def test_a_random_transfer_excludes_the_current_tile_and_the_last_random_destination() -> None:
    for seed in range(150):
        st = scenario(seed=seed, pos={0: 5}, dice=[(1, 1)], market=[1], last_random=20)
        st = act(st, 0, "roll")
        assert st["pos"][0] not in (7, 20) or (st["pos"][0] == 10 and st["audit"][0] == 0)
        assert st["last_random"] not in (7, 20)


def test_a_random_transfer_pays_no_salary_for_passing_start_but_does_for_landing_on_it() -> None:
    landed_on_start = passed_start = False
    for seed in range(400):
        st = scenario(seed=seed, pos={0: 33}, dice=[(1, 1)], market=[1])
        st = act(st, 0, "roll")  # from 35
        dest = st["last_random"]
        if dest == 0:
            landed_on_start = True
            assert st["cash"][0] == 1700
        elif dest in (1, 3, 4, 6, 8, 9, 11, 13, 14):
            passed_start = True
            assert st["cash"][0] == 1500 and st["phase"] == "buy"
    assert landed_on_start and passed_start


def test_a_second_random_transfer_in_the_same_roll_is_skipped_for_the_next_card() -> None:
    st = scenario(pos={0: 7}, market=[1, 6])
    st["random_used"] = True
    ev: list = []
    draw(st, ev, 0, "market")
    assert [e["type"] for e in ev[:2]] == ["card_skipped", "card"] and st["cash"][0] == 1650


def test_the_nearest_logistics_is_looked_for_ahead_and_its_owner_gets_the_normal_rent() -> None:
    st = act(scenario(pos={0: 20}, dice=[(1, 1)], market=[2], owners={25: 1, 5: 1}), 0, "roll")
    assert st["pos"][0] == 25 and st["cash"] == [1450, 1550]


def test_release_cards_are_kept_and_several_can_be_held() -> None:
    st = act(scenario(pos={0: 5}, dice=[(1, 1)], market=[4]), 0, "roll")
    assert st["releases"][0] == [4]
    st = scenario(pos={0: 15}, dice=[(1, 1)], aid=[16], releases={0: [4]})
    st = act(st, 0, "roll")
    assert st["releases"][0] == [4, 16]


def test_a_kept_release_card_is_out_of_the_loop_until_used() -> None:
    st = act(scenario(pos={1: 5}, dice=[(1, 1)], market=[4, 6], releases={0: [4]}, turn=1),
             1, "roll")
    assert st["cash"][1] == 1650  # the release card is skipped while seat 0 holds it


def test_money_cards_pay_the_bank_the_rivals_or_the_drawer() -> None:
    st = act(scenario(seats=3, pos={0: 5}, dice=[(1, 1)], market=[8]), 0, "roll")
    assert st["cash"] == [1400, 1550, 1550]
    st = act(scenario(seats=3, pos={0: 15}, dice=[(1, 1)], aid=[15]), 0, "roll")
    assert st["cash"] == [1600, 1450, 1450]
    st = act(scenario(pos={0: 5}, dice=[(1, 1)], market=[7]), 0, "roll")
    assert st["cash"][0] == 1400 and st["bank"] == -100


def test_repairs_cost_per_branch_and_per_holding() -> None:
    owners = {1: 0, 3: 0, 4: 0, 6: 0, 8: 0, 9: 0}
    levels = {1: 2, 3: 2, 4: 1, 6: 5, 8: 5, 9: 4}
    st = act(scenario(pos={0: 5}, dice=[(1, 1)], market=[9], owners=owners, levels=levels),
             0, "roll")
    assert st["cash"][0] == 1500 - (9 * 25 + 2 * 100)
    st = act(scenario(pos={0: 15}, dice=[(1, 1)], aid=[19], owners=owners, levels=levels),
             0, "roll")
    assert st["cash"][0] == 1500 - (9 * 40 + 2 * 115)


# --- the tax audit ----------------------------------------------------------------------------
def test_the_tax_office_sends_the_token_under_audit_without_salary() -> None:
    st = act(scenario(pos={0: 24}, dice=[(3, 3)]), 0, "roll")
    assert st["pos"][0] == 10 and st["audit"][0] == 0 and st["cash"][0] == 1500
    assert act(st, 0, "end_turn")["turn"] == 1  # the doubles are lost too


def test_stopping_on_the_audit_tile_is_only_a_visit() -> None:
    st = act(scenario(pos={0: 4}, dice=[(2, 4)]), 0, "roll")
    assert st["pos"][0] == 10 and st["audit"][0] is None


def test_paying_50_before_rolling_frees_you_and_doubles_then_give_another_roll() -> None:
    st = scenario(audit={0: 0}, dice=[(5, 5)])
    assert {"pay_bail", "roll"} <= types(st, 0)
    st = act(st, 0, "pay_bail")
    assert st["cash"][0] == 1450 and st["audit"][0] is None
    st = act(act(st, 0, "roll"), 0, "end_turn")
    assert st["pos"][0] == 20 and st["turn"] == 0 and st["phase"] == "roll"


def test_a_release_card_before_rolling_frees_you() -> None:
    st = act(scenario(audit={0: 1}, releases={0: [16]}), 0, "use_release")
    assert st["audit"][0] is None and st["releases"][0] == [] and st["cash"][0] == 1500


def test_rolling_doubles_under_audit_moves_you_without_an_extra_roll() -> None:
    st = act(scenario(audit={0: 0}, dice=[(5, 5)]), 0, "roll")
    assert st["pos"][0] == 20 and st["audit"][0] is None
    assert act(st, 0, "end_turn")["turn"] == 1


def test_a_failed_try_keeps_you_under_audit() -> None:
    st = act(scenario(audit={0: 0}, dice=[(1, 2)]), 0, "roll")
    assert st["pos"][0] == 10 and st["audit"][0] == 1 and st["phase"] == "act"


def test_after_three_failed_tries_the_50_is_charged_and_you_move_by_the_roll() -> None:
    st = act(scenario(audit={0: 2}, dice=[(1, 2)]), 0, "roll")
    assert st["pos"][0] == 13 and st["audit"][0] is None and st["cash"][0] == 1450


def test_no_money_for_the_third_try_is_a_debt() -> None:
    st = act(scenario(audit={0: 2}, dice=[(1, 2)], cash={0: 30}), 0, "roll")
    assert st["debts"][0]["amount"] == 50 and st["cash"][0] == 30
    assert "give_up" in types(st, 0) and "buy" not in types(st, 0)


def test_without_50_bail_is_not_offered() -> None:
    st = scenario(audit={0: 0}, cash={0: 40})
    assert [a["type"] for a in legal_actions(st, 0)] == ["roll"]
