"""What a seat does when its clock runs out (RULINGS)."""

from __future__ import annotations

from games.chudopoly.engine import apply, card, scenario, timeout_actions


def charge(state, amount_card="finance_office", target=1):
    return apply(state, 0, {"type": "action", "card": card(state, amount_card),
                            "target": target}).state


def run(state, seat):
    for action in timeout_actions(state, seat):
        state = apply(state, seat, action).state
    return state


def test_a_timed_out_response_accepts_and_never_opsecs() -> None:
    state = scenario(hands={0: ["chud"], 1: ["opsec"]}, boards={1: {"red": ["F-22 Raptor"]}})
    state = apply(state, 0, {"type": "action", "card": card(state, "chud"), "target": 1,
                             "take": card(state, "F-22 Raptor")}).state
    assert timeout_actions(state, 1) == [{"type": "respond", "answer": "accept", "target": 1}]
    state = run(state, 1)
    assert card(state, "F-22 Raptor") in state["players"][0]["zones"]["red"]


def test_automatic_payment_is_the_smallest_covering_total_preferring_bank() -> None:
    state = scenario(hands={0: ["finance_office"]},
                     banks={1: ["money:3", "money:1", "money:10"]},
                     boards={1: {"orange": ["Nellis AFB"]}})
    state = charge(state)
    actions = timeout_actions(state, 1)
    assert actions[0]["type"] == "respond"
    # 5M: bank 3 + property 2 is 5 exactly, but bank 3 + 1 is short; smallest total covering
    # 5 is 5 — {3M, Nellis 2M}; a bank-only choice would be 10M.
    assert sorted(actions[1]["cards"]) == sorted([card(state, "money:3", 1),
                                                  card(state, "Nellis AFB")])


def test_automatic_payment_prefers_bank_then_loose_then_upgrades_then_set_cards() -> None:
    state = scenario(hands={0: ["roll_call"]}, banks={1: ["money:2"]},
                     boards={1: {"pink": ["Peterson SFB"],
                                 "orange": ["Nellis AFB", "Eglin AFB", "Edwards AFB"]}})
    state = apply(state, 0, {"type": "action", "card": card(state, "roll_call")}).state
    assert timeout_actions(state, 1)[1]["cards"] == [card(state, "money:2", 1)]
    no_bank = scenario(hands={0: ["roll_call"]},
                       boards={1: {"pink": ["Peterson SFB"],
                                   "orange": ["Nellis AFB", "Eglin AFB", "Edwards AFB"]}})
    no_bank = apply(no_bank, 0, {"type": "action", "card": card(no_bank, "roll_call")}).state
    assert timeout_actions(no_bank, 1)[1]["cards"] == [card(no_bank, "Peterson SFB")]


def test_automatic_payment_surrenders_everything_when_it_cannot_cover() -> None:
    state = scenario(hands={0: ["finance_office"]}, banks={1: ["money:1"]},
                     boards={1: {"red": ["wild_any"]}})
    state = charge(state)
    assert sorted(timeout_actions(state, 1)[1]["cards"]) == sorted(
        [card(state, "money:1", 1), card(state, "wild_any")])
    state = run(state, 1)
    assert state["pending"] is None


def test_a_payer_with_nothing_just_accepts() -> None:
    state = charge(scenario(hands={0: ["finance_office"]}))
    assert timeout_actions(state, 1) == [{"type": "respond", "answer": "accept", "target": 1}]
    assert run(state, 1)["pending"] is None


def test_a_timed_out_turn_ends_and_discards_the_lowest_value_most_recent_first() -> None:
    state = scenario(hands={0: ["money:5", "money:1", "money:3", "money:1", "money:4",
                                "money:2", "money:10", "money:2", "money:1"]})
    hand = state["players"][0]["hand"]
    actions = timeout_actions(state, 0)
    assert actions[0] == {"type": "end_turn"}
    # two 1M cards go first: the most recently drawn of the three (the last two in hand)
    assert sorted(actions[1]["cards"]) == sorted([hand[3], hand[8]])
    state = run(state, 0)
    assert state["turn"] == 1 and len(state["players"][0]["hand"]) == 7


def test_a_seat_owing_nothing_has_no_timeout_actions() -> None:
    state = scenario(seats=3)
    assert timeout_actions(state, 1) == []
    assert timeout_actions(state, 0) == [{"type": "end_turn"}]


def test_a_timed_out_source_lets_every_pending_opsec_stand() -> None:
    state = scenario(seats=3, hands={0: ["roll_call", "opsec"], 1: ["opsec"], 2: ["opsec"]})
    state = apply(state, 0, {"type": "action", "card": card(state, "roll_call")}).state
    for seat in (1, 2):
        state = apply(state, seat, {"type": "respond", "answer": "opsec", "target": seat}).state
    assert timeout_actions(state, 0) == [
        {"type": "respond", "answer": "accept", "target": 1},
        {"type": "respond", "answer": "accept", "target": 2}]
    state = run(state, 0)
    assert state["pending"] is None and state["players"][0]["bank"] == []
