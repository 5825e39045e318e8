"""Turn rules (REFERENCE §3): deal, automatic draw, reshuffle, plays, hand limit, end of turn."""

from __future__ import annotations

import pytest
from engine_helpers import dump, refused

from games.chudopoly.engine import (
    IllegalAction,
    apply,
    card,
    legal_actions,
    new_game,
    scenario,
    start_game,
    to_decide,
)


def test_new_game_deals_five_each_and_turn_one_draws_two() -> None:
    state = new_game(ruleset=None, seats=4, seed=7)
    hands = [len(p["hand"]) for p in state["players"]]
    assert hands == [7, 5, 5, 5]
    assert len(state["deck"]) == 106 - 22
    assert state["turn"] == 0 and state["turn_number"] == 1 and state["plays_left"] == 3
    assert to_decide(state) == [0]


def test_the_same_seed_deals_the_same_game_and_another_seed_does_not() -> None:
    a = new_game(ruleset=None, seats=3, seed=42)
    assert dump(a) == dump(new_game(ruleset=None, seats=3, seed=42))
    assert a["deck"] != new_game(ruleset=None, seats=3, seed=43)["deck"]


def test_seat_order_is_shuffled_by_the_game_generator_when_asked() -> None:
    orders = {tuple(new_game(ruleset=None, seats=5, seed=s, shuffle_seats=True)["order"])
              for s in range(10)}
    assert len(orders) > 1
    state = new_game(ruleset=None, seats=5, seed=3, shuffle_seats=True)
    assert state["turn"] == state["order"][0]
    assert len(state["players"][state["turn"]]["hand"]) == 7


def test_seat_count_must_be_two_to_five() -> None:
    with pytest.raises(ValueError, match="Need at least 2 players"):
        new_game(ruleset=None, seats=1, seed=1)
    with pytest.raises(ValueError, match=r"Room is full \(max 5\)"):
        new_game(ruleset=None, seats=6, seed=1)


def test_opening_events_deal_then_start_then_draw() -> None:
    events = start_game(ruleset=None, seats=2, seed=1).events
    assert [e["type"] for e in events] == ["game_start", "deal", "deal", "turn_start", "draw"]
    assert events[-1]["count"] == 2 and len(events[-1]["cards"]) == 2


def test_next_turn_draws_two(play) -> None:
    state = scenario(hands={0: ["money:1"], 1: ["money:2"]}, deck_top=["money:5", "money:10"])
    state = play(state, 0, {"type": "end_turn"})
    assert state["turn"] == 1 and state["turn_number"] == 2
    assert len(state["players"][1]["hand"]) == 3
    assert card(state, "money:10", seat=1) in state["players"][1]["hand"]
    assert play.types() == ["turn_end", "turn_start", "draw"]


def test_a_turn_started_with_an_empty_hand_draws_five(play) -> None:
    state = scenario(hands={0: ["money:1"]})
    state = play(state, 0, {"type": "end_turn"})
    assert len(state["players"][1]["hand"]) == 5


def test_the_deck_reshuffles_the_discard_when_short_and_counts_a_cycle(play) -> None:
    state = scenario(hands={0: ["money:1"], 1: ["money:2"]}, deck_top=["money:3"],
                     rest="discard")
    assert len(state["deck"]) == 1
    state = play(state, 0, {"type": "end_turn"})
    assert state["shuffle_count"] == 1
    assert state["discard"] == []
    assert len(state["players"][1]["hand"]) == 3
    assert "shuffle" in play.types()


def test_no_reshuffle_with_an_empty_discard_draws_what_is_left(play) -> None:
    state = scenario(hands={0: ["money:1"], 1: ["money:2"]}, deck_top=["money:3"], rest="bank:0")
    state = play(state, 0, {"type": "end_turn"})
    assert state["shuffle_count"] == 0
    assert len(state["players"][1]["hand"]) == 2
    assert play.find("draw")["count"] == 1


def test_three_plays_then_no_plays_remaining(play) -> None:
    state = scenario(hands={0: ["money:1", "money:2", "money:3", "money:4"]})
    for value in (1, 2, 3):
        state = play(state, 0, {"type": "bank", "card": card(state, f"money:{value}", 0)})
    assert state["plays_left"] == 0
    refused(state, 0, {"type": "bank", "card": card(state, "money:4", 0)}, "No plays remaining")
    assert {"type": "end_turn"} in legal_actions(state, 0)


def test_properties_cannot_be_banked() -> None:
    state = scenario(hands={0: ["F-22 Raptor", "wild_any"]})
    refused(state, 0, {"type": "bank", "card": card(state, "F-22 Raptor")},
            "Properties cannot be banked")
    refused(state, 0, {"type": "bank", "card": card(state, "wild_any")},
            "Properties cannot be banked")


def test_action_and_rent_cards_bank_at_face_value(play) -> None:
    state = scenario(hands={0: ["inspector_general", "rent_any"]})
    state = play(state, 0, {"type": "bank", "card": card(state, "inspector_general")})
    assert play.find("bank")["value"] == 5
    state = play(state, 0, {"type": "bank", "card": card(state, "rent_any")})
    assert play.find("bank")["value"] == 3
    assert state["plays_left"] == 1


def test_opsec_cannot_be_played_as_an_action_but_can_be_banked(play) -> None:
    state = scenario(hands={0: ["opsec"]})
    opsec = card(state, "opsec")
    refused(state, 0, {"type": "action", "card": opsec},
            "OPSEC can only be played in response to an action")
    play(state, 0, {"type": "bank", "card": opsec})


def test_placing_a_wild_needs_a_legal_colour() -> None:
    state = scenario(hands={0: ["wild:red/yellow"]})
    wild = card(state, "wild:red/yellow")
    refused(state, 0, {"type": "place", "card": wild}, "Choose a color for the wild property")
    refused(state, 0, {"type": "place", "card": wild, "colour": "green"},
            "Wild cannot be placed on Elite Programs")
    refused(state, 0, {"type": "place", "card": wild, "colour": "purple"},
            "Invalid property color")


def test_placing_any_property_into_a_full_zone_is_refused() -> None:
    state = scenario(hands={0: ["wild_any", "wild:brown/lightblue"]},
                     boards={0: {"brown": ["Creech AFB", "Cannon AFB"]}})
    refused(state, 0, {"type": "place", "card": card(state, "wild_any"), "colour": "brown"},
            "Drone Ops already holds a full set (2)")
    refused(state, 0, {"type": "place", "card": card(state, "wild:brown/lightblue"),
                       "colour": "brown"}, "Drone Ops already holds a full set (2)")


def test_a_card_not_in_hand_cannot_be_played() -> None:
    state = scenario(hands={0: ["money:1"], 1: ["money:2"]})
    refused(state, 0, {"type": "bank", "card": card(state, "money:2")},
            "That card is not in your hand")


def test_only_the_seat_whose_turn_it_is_may_play() -> None:
    state = scenario(hands={0: ["money:1"], 1: ["money:2"]})
    refused(state, 1, {"type": "bank", "card": card(state, "money:2")}, "Not your turn")
    refused(state, 1, {"type": "end_turn"}, "Not your turn")
    assert legal_actions(state, 1) == [{"type": "scoop"}]


def test_a_draw_command_is_refused_because_drawing_is_automatic() -> None:
    state = scenario(hands={0: ["money:1"]})
    refused(state, 0, {"type": "draw"}, "Cards are drawn automatically at the start of your turn")


def test_ending_the_turn_over_seven_asks_for_exactly_the_excess(play) -> None:
    state = scenario(hands={0: ["money:1"] * 6 + ["money:2"] * 3})
    state = play(state, 0, {"type": "end_turn"})
    assert state["phase"] == "discard" and to_decide(state) == [0]
    assert play.find("discard_required")["count"] == 2
    hand = state["players"][0]["hand"]
    refused(state, 0, {"type": "discard", "cards": hand[:1]}, "Discard exactly 2 cards")
    refused(state, 0, {"type": "discard", "cards": [hand[0], hand[0]]},
            "Discarded cards must be unique")
    refused(state, 0, {"type": "discard", "cards": [hand[0], 999]},
            "Discard selection contains an invalid card")
    refused(state, 0, {"type": "bank", "card": hand[0]}, "Discard down to 7 cards first")
    state = play(state, 0, {"type": "discard", "cards": hand[:2]})
    assert len(state["players"][0]["hand"]) == 7
    assert state["discard"][-2:] == hand[:2]
    assert state["turn"] == 1


def test_exactly_seven_cards_ends_the_turn_without_a_discard(play) -> None:
    state = scenario(hands={0: ["money:1"] * 6 + ["money:2"]})
    state = play(state, 0, {"type": "end_turn"})
    assert state["turn"] == 1


def test_unused_surge_is_cleared_at_end_of_turn(play) -> None:
    state = scenario(hands={0: ["surge_ops"]})
    state = play(state, 0, {"type": "action", "card": card(state, "surge_ops")})
    assert state["surge"] == 1
    state = play(state, 0, {"type": "end_turn"})
    assert state["surge"] == 0


def test_an_unknown_action_type_is_refused() -> None:
    state = scenario()
    refused(state, 0, {"type": "teleport"}, "Unknown action type")
    with pytest.raises(IllegalAction):
        apply(state, 0, "end_turn")  # type: ignore[arg-type]


def test_a_float_or_bool_card_id_is_refused() -> None:
    state = scenario(hands={0: ["money:1"]})
    cid = card(state, "money:1")
    refused(state, 0, {"type": "bank", "card": float(cid)})
    refused(state, 0, {"type": "bank", "card": True})


def test_extra_fields_on_an_action_are_refused() -> None:
    state = scenario(hands={0: ["money:1"]})
    refused(state, 0, {"type": "bank", "card": card(state, "money:1"), "colour": "red"})
    refused(state, 0, {"type": "end_turn", "now": True})
