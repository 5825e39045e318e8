"""Every level returns a legal action in every kind of decision a seat can face: plays of
each card (targets, colours, takes), OPSEC answers as target and as source, payments (covered,
from properties, insolvent), discards, free rearranges and ending the turn."""

from __future__ import annotations

import pytest
from bots_helpers import LEVELS, decide, decide_and_apply

from games.chudopoly import engine
from games.chudopoly.engine import ACTIONS, apply, card, scenario, to_decide

BOARDS = {
    0: {"green": ["Thunderbirds", "Weapons School", "Red Flag"], "red": ["F-22 Raptor"],
        "base": ["Ramstein AB", "wild:base/intel"]},
    1: {"yellow": ["KC-135 Stratotanker", "C-17 Globemaster III", "C-130 Hercules"],
        "orange": ["Nellis AFB", "Eglin AFB"], "pink": ["wild:pink/orange"]},
    2: {"brown": ["Creech AFB"]},
}
BANKS = {0: ["money:1"], 1: ["money:2", "money:3"], 2: ["money:1"]}


def table(hand: list, *, seats: int = 3, **kwargs) -> dict:
    kwargs.setdefault("boards", {s: b for s, b in BOARDS.items() if s < seats})
    kwargs.setdefault("banks", {s: b for s, b in BANKS.items() if s < seats})
    return scenario(seats=seats, hands={0: hand, 1: ["opsec", "money:4"], 2: ["opsec"]},
                    **kwargs)


PLAY_HANDS = {
    "properties_and_wilds": ["F-15 Eagle", "wild:red/yellow", "wild_any", "Osan AB"],
    "money_only": ["money:5", "money:1"],
    "opsec_only": ["opsec"],
    "rent_pair": ["rent:red/yellow", "rent:green/darkblue"],
    "rent_any_with_surge": ["rent_any", "surge_ops", "surge_ops"],
    **{key: [key, "money:2"] for key in ACTIONS if key != "opsec"},
}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("hand", sorted(PLAY_HANDS))
def test_every_play_hand_gets_a_legal_move(level: str, hand: str) -> None:
    state = table(PLAY_HANDS[hand])
    decide_and_apply(state, 0, level)


@pytest.mark.parametrize("level", LEVELS)
def test_foc_on_an_upgraded_set_and_moving_upgrades(level: str) -> None:
    state = table(["foc", "upgrade"], upgrades={0: {"green": ["upgrade"]}})
    decide_and_apply(state, 0, level)


@pytest.mark.parametrize("level", LEVELS)
def test_a_whole_turn_ends_within_a_bounded_number_of_moves(level: str) -> None:
    """Wilds that could shuttle between zones for free must not keep a bot busy."""
    state = table(["wild_any", "wild:red/yellow", "money:3", "pcs_orders"],
                  boards={0: {"base": ["wild:base/green", "wild_any"], "intel": ["wild:base/intel"],
                              "green": ["Thunderbirds"]},
                          1: BOARDS[1], 2: BOARDS[2]})
    for _ in range(40):
        if state["turn"] != 0 or state["result"] is not None:
            return
        seat = to_decide(state)[0]
        _, state = decide_and_apply(state, seat, level)
    pytest.fail("the turn did not end within 40 decisions")


@pytest.mark.parametrize("level", LEVELS)
def test_no_plays_left_still_gives_a_legal_move(level: str) -> None:
    state = table(["money:5"], plays_left=0)
    action, _ = decide_and_apply(state, 0, level)
    assert action["type"] in ("end_turn", "move", "swap")


@pytest.mark.parametrize("level", LEVELS)
def test_discarding_down_to_seven(level: str) -> None:
    hand = ["money:1", "money:2", "money:3", "pcs_orders", "pcs_orders", "opsec", "chud",
            "rent_any", "Osan AB", "finance_office"]
    state = table(hand, plays_left=0)
    state = apply(state, 0, {"type": "end_turn"}).state
    assert state["phase"] == "discard"
    action, after = decide_and_apply(state, 0, level)
    assert action["type"] == "discard" and len(action["cards"]) == 3
    assert after["turn"] == 1


# ---- answers ----------------------------------------------------------------------------------

def attacks(state: dict) -> dict[str, dict]:
    """One play of each answerable kind by seat 0 against seat 1."""
    c = lambda d: card(state, d, 0)  # noqa: E731
    yellow = card(state, "KC-135 Stratotanker", 1)
    eglin = card(state, "Eglin AFB", 1)
    return {
        "inspector_general": {"type": "action", "card": c("inspector_general"), "target": 1,
                              "colour": "yellow"},
        "chud": {"type": "action", "card": c("chud"), "target": 1, "take": yellow},
        "midnight_requisition": {"type": "action", "card": c("midnight_requisition"),
                                 "target": 1, "take": eglin},
        "tdy_orders": {"type": "action", "card": c("tdy_orders"), "target": 1, "take": eglin,
                       "give": card(state, "F-22 Raptor", 0)},
        "finance_office": {"type": "action", "card": c("finance_office"), "target": 1},
        "rent_any": {"type": "action", "card": c("rent_any"), "colour": "green", "target": 1},
        "roll_call": {"type": "action", "card": c("roll_call")},
        "rent_pair": {"type": "action", "card": c("rent:green/darkblue"), "colour": "green"},
    }


ATTACK_HAND = ["inspector_general", "chud", "midnight_requisition", "tdy_orders",
               "finance_office", "rent_any", "roll_call", "rent:green/darkblue", "opsec"]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("kind", sorted(attacks(table(ATTACK_HAND))))
def test_answers_as_target_then_as_source_then_payment(level: str, kind: str) -> None:
    state = table(ATTACK_HAND)
    state = apply(state, 0, attacks(state)[kind]).state
    for _ in range(12):
        if state["phase"] != "respond":
            break
        seat = to_decide(state)[0]
        _, state = decide_and_apply(state, seat, level)
    assert state["phase"] == "play" and state["turn"] == 0


@pytest.mark.parametrize("level", LEVELS)
def test_paying_from_properties_alone(level: str) -> None:
    state = table(["finance_office"], banks={})
    state = apply(state, 0, {"type": "action", "card": card(state, "finance_office"),
                             "target": 2}).state
    state = apply(state, 2, {"type": "respond", "answer": "accept", "target": 2}).state
    action, _ = decide_and_apply(state, 2, level)
    assert action == {"type": "pay", "cards": [card(state, "Creech AFB")]}


@pytest.mark.parametrize("level", LEVELS)
def test_paying_when_nothing_covers_the_debt(level: str) -> None:
    state = table(["rent_any"], banks={1: ["money:1"]},
                  boards={0: BOARDS[0], 1: {"pink": ["wild_any"]}, 2: BOARDS[2]})
    state = apply(state, 0, {"type": "action", "card": card(state, "rent_any"),
                             "colour": "green", "target": 1}).state
    state = apply(state, 1, {"type": "respond", "answer": "accept", "target": 1}).state
    action, _ = decide_and_apply(state, 1, level)
    assert sorted(action["cards"]) == sorted([card(state, "money:1", 1),
                                              card(state, "wild_any", 1)])


@pytest.mark.parametrize("level", LEVELS)
def test_every_decision_in_random_positions_is_legal(level: str) -> None:
    """Positions from real games of medium bots, every seat's decision checked."""
    state = engine.new_game(ruleset={}, seats=3, seed=7)
    checked = 0
    while state["result"] is None and checked < (60 if level == "hard" else 400):
        seat = to_decide(state)[0]
        _, state = decide_and_apply(state, seat, level)
        checked += 1
    assert checked > 0


def test_scoop_is_never_chosen() -> None:
    state = table(["money:1"])
    for level in LEVELS:
        assert decide(state, 0, level)["type"] != "scoop"


def test_a_seat_with_nothing_to_decide_is_refused_not_scooped() -> None:
    from games.chudopoly.bots import choose_action

    state = table(["money:1"])
    view = engine.view(state, 1)  # seat 1 owes nothing while seat 0 plays
    assert [a["type"] for a in view["legal"]] == ["scoop"]
    for level in LEVELS:
        with pytest.raises(ValueError):
            choose_action(view, level=level)
