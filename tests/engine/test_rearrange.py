"""Free rearranges (REFERENCE §3 and RULINGS): wild moves, upgrade moves, the own-wild swap."""

from __future__ import annotations

from engine_helpers import refused

from games.chudopoly.engine import apply, card, legal_actions, scenario


def test_a_wild_moves_for_free_without_spending_a_play(play) -> None:
    state = scenario(boards={0: {"red": ["wild:red/yellow"]}}, plays_left=0)
    state = play(state, 0, {"type": "move", "card": card(state, "wild:red/yellow"),
                            "colour": "yellow"})
    assert state["players"][0]["zones"] == {"yellow": [card(state, "wild:red/yellow")]}
    assert state["plays_left"] == 0 and state["rearranges_left"] == 11


def test_fixed_properties_never_move() -> None:
    state = scenario(boards={0: {"red": ["F-22 Raptor"]}})
    refused(state, 0, {"type": "move", "card": card(state, "F-22 Raptor"), "colour": "yellow"},
            "Only wild properties can be moved between sets")


def test_a_wild_moves_only_to_a_legal_colour_with_room() -> None:
    state = scenario(boards={0: {"red": ["wild:red/yellow"],
                                 "yellow": ["KC-135 Stratotanker", "C-17 Globemaster III",
                                            "C-130 Hercules"]}})
    wild = card(state, "wild:red/yellow")
    refused(state, 0, {"type": "move", "card": wild, "colour": "green"},
            "This wild cannot go on Elite Programs")
    refused(state, 0, {"type": "move", "card": wild, "colour": "yellow"},
            "Mobility already holds a full set (3)")
    refused(state, 0, {"type": "move", "card": wild, "colour": "red"}, "Already in that set")
    refused(state, 0, {"type": "move", "card": 999, "colour": "red"},
            "Card not found in your properties")


def test_a_wild_leaving_a_complete_set_sends_its_upgrades_to_the_owners_bank(play) -> None:
    state = scenario(boards={0: {"brown": ["Creech AFB", "wild:brown/lightblue"]}},
                     upgrades={0: {"brown": ["upgrade"]}})
    state = play(state, 0, {"type": "move", "card": card(state, "wild:brown/lightblue"),
                            "colour": "lightblue"})
    assert state["players"][0]["bank"] == [card(state, "upgrade")]
    assert state["players"][0]["upgrades"] == {}


def test_rearranges_only_on_your_own_turn_in_the_play_phase() -> None:
    state = scenario(boards={1: {"red": ["wild:red/yellow"]}})
    refused(state, 1, {"type": "move", "card": card(state, "wild:red/yellow"),
                       "colour": "yellow"}, "Not your turn")
    state = scenario(hands={0: ["chud"]}, boards={0: {"red": ["wild:red/yellow"]},
                                                  1: {"green": ["Red Flag"]}})
    state = apply(state, 0, {"type": "action", "card": card(state, "chud"), "target": 1,
                             "take": card(state, "Red Flag")}).state
    refused(state, 0, {"type": "move", "card": card(state, "wild:red/yellow"),
                       "colour": "yellow"}, "Resolve pending action first")


def test_twelve_rearranges_per_turn_then_refused(play) -> None:
    state = scenario(boards={0: {"red": ["wild:red/yellow"]}})
    wild = card(state, "wild:red/yellow")
    for i in range(12):
        state = play(state, 0, {"type": "move", "card": wild,
                                "colour": "yellow" if i % 2 == 0 else "red"})
    assert state["rearranges_left"] == 0
    refused(state, 0, {"type": "move", "card": wild, "colour": "red"},
            "No free rearranges left this turn — end your turn to reset them")
    assert not [a for a in legal_actions(state, 0) if a["type"] in ("move", "swap")]


def test_a_refused_rearrange_costs_nothing() -> None:
    state = scenario(boards={0: {"red": ["wild:red/yellow"]}})
    refused(state, 0, {"type": "move", "card": card(state, "wild:red/yellow"), "colour": "pink"})
    assert state["rearranges_left"] == 12


def test_the_budget_refills_at_turn_start(play) -> None:
    state = scenario(boards={0: {"red": ["wild:red/yellow"]}}, rearranges_left=0)
    state = play(state, 0, {"type": "end_turn"})
    assert state["rearranges_left"] == 12


def test_an_upgrade_moves_between_two_complete_sets(play) -> None:
    state = scenario(boards={0: {"brown": ["Creech AFB", "Cannon AFB"],
                                 "intel": ["PAVE PAWS Radar", "GPS Constellation"],
                                 "red": ["F-22 Raptor"]}},
                     upgrades={0: {"brown": ["upgrade", "foc"]}})
    house, foc = card(state, "upgrade"), card(state, "foc")
    refused(state, 0, {"type": "move", "card": house, "colour": "intel"},
            "Move the FOC off that set first")
    refused(state, 0, {"type": "move", "card": foc, "colour": "intel"},
            "FOC needs an Upgrade on that set first")
    refused(state, 0, {"type": "move", "card": foc, "colour": "red"},
            "Fighters is not a complete set")
    refused(state, 0, {"type": "move", "card": foc, "colour": "brown"}, "Already on that set")
    state = scenario(boards={0: {"brown": ["Creech AFB", "Cannon AFB"],
                                 "intel": ["PAVE PAWS Radar", "GPS Constellation"]}},
                     upgrades={0: {"brown": ["upgrade"], "intel": ["upgrade", "foc"]}})
    house = state["players"][0]["upgrades"]["brown"][0]
    foc = card(state, "foc")
    refused(state, 0, {"type": "move", "card": house, "colour": "intel"},
            "Intelligence already has an Upgrade")
    state = play(state, 0, {"type": "move", "card": foc, "colour": "brown"})
    assert state["players"][0]["upgrades"]["brown"] == [house, foc]
    assert state["rearranges_left"] == 11


def test_two_own_wilds_swap_atomically_for_two_rearranges(play) -> None:
    # Both zones are full, so no order of single moves can exchange the wilds.
    state = scenario(boards={0: {"brown": ["Creech AFB", "wild:brown/lightblue"],
                                 "lightblue": ["Keesler AFB", "Goodfellow AFB", "wild_any"]}})
    a, b = card(state, "wild:brown/lightblue"), card(state, "wild_any")
    assert {"type": "move", "card": a, "colour": "lightblue"} not in legal_actions(state, 0)
    state = play(state, 0, {"type": "swap", "cards": sorted([a, b])})
    zones = state["players"][0]["zones"]
    assert b in zones["brown"] and a in zones["lightblue"]
    assert state["rearranges_left"] == 10


def test_swap_refusals() -> None:
    state = scenario(boards={0: {"brown": ["Creech AFB", "wild:brown/lightblue"],
                                 "lightblue": ["Keesler AFB", "wild_any"],
                                 "red": ["wild:red/yellow"],
                                 "darkblue": ["The Pentagon", "Air Force One"]},
                             1: {"green": ["wild:green/darkblue"]}},
                     upgrades={0: {"darkblue": ["upgrade"]}})
    a, b = card(state, "wild:brown/lightblue"), card(state, "wild_any")
    refused(state, 0, {"type": "swap", "cards": [a, a]}, "Choose two different cards")
    refused(state, 0, {"type": "swap", "cards": [a, card(state, "wild:green/darkblue")]},
            "Both cards must be on your own board")
    refused(state, 0, {"type": "swap", "cards": [a, card(state, "Creech AFB")]},
            "Both cards are in the same set")
    refused(state, 0, {"type": "swap", "cards": [a, card(state, "upgrade")]},
            "An Upgrade moves on its own")
    refused(state, 0, {"type": "swap", "cards": [a, card(state, "wild:red/yellow")]},
            "Each card must be legal in the other's colour")
    refused(state, 1, {"type": "swap", "cards": [a, b]}, "Not your turn")
    one_left = {**state, "rearranges_left": 1}
    refused(one_left, 0, {"type": "swap", "cards": [a, b]},
            "A swap costs two free rearranges and you have one left")
    none_left = {**state, "rearranges_left": 0}
    refused(none_left, 0, {"type": "swap", "cards": [a, b]},
            "No free rearranges left this turn — end your turn to reset them")


def test_swap_cards_may_be_given_in_either_order(play) -> None:
    state = scenario(boards={0: {"brown": ["wild:brown/lightblue"], "lightblue": ["wild_any"]}})
    a, b = card(state, "wild:brown/lightblue"), card(state, "wild_any")
    play(state, 0, {"type": "swap", "cards": [max(a, b), min(a, b)]}, listed=False)
