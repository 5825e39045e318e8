"""How each action card resolves (REFERENCE §4), one scenario per ruling and refusal."""

from __future__ import annotations

from engine_helpers import refused

from games.chudopoly.engine import card, legal_actions, scenario, to_decide


def accept(play, state, seat):
    return play(state, seat, {"type": "respond", "answer": "accept", "target": seat})


# ---- PCS Orders -----------------------------------------------------------------------------

def test_pcs_orders_draws_two_costs_a_play_and_is_discarded(play) -> None:
    state = scenario(hands={0: ["pcs_orders"]}, deck_top=["money:5", "money:10"])
    pcs = card(state, "pcs_orders")
    state = play(state, 0, {"type": "action", "card": pcs})
    assert state["plays_left"] == 2
    assert state["discard"][-1] == pcs
    assert sorted(state["players"][0]["hand"]) == sorted(
        [card(state, "money:5", 0), card(state, "money:10", 0)])
    assert play.find("draw")["reason"] == "pcs_orders"


def test_pcs_orders_reshuffles_first_when_the_deck_has_fewer_than_two(play) -> None:
    state = scenario(hands={0: ["pcs_orders"]}, deck_top=["money:5"], rest="discard")
    state = play(state, 0, {"type": "action", "card": card(state, "pcs_orders")})
    assert state["shuffle_count"] == 1
    assert len(state["players"][0]["hand"]) == 2


def test_pass_go_restart_gives_three_plays_back(play) -> None:
    state = scenario(ruleset={"preset": "blitz"}, hands={0: ["money:1", "pcs_orders"]})
    state = play(state, 0, {"type": "bank", "card": card(state, "money:1")})
    state = play(state, 0, {"type": "action", "card": card(state, "pcs_orders")})
    assert state["plays_left"] == 3
    assert "turn_restart" in play.types()


# ---- Finance Office and Roll Call -----------------------------------------------------------

def test_finance_office_charges_one_chosen_player_five(play) -> None:
    state = scenario(seats=3, hands={0: ["finance_office"]}, banks={2: ["money:5"]})
    fo = card(state, "finance_office")
    refused(state, 0, {"type": "action", "card": fo}, "Choose a player to collect from")
    refused(state, 0, {"type": "action", "card": fo, "target": 0}, "Invalid target")
    state = play(state, 0, {"type": "action", "card": fo, "target": 2})
    assert state["pending"]["amount"] == 5 and to_decide(state) == [2]
    state = accept(play, state, 2)
    state = play(state, 2, {"type": "pay", "cards": [card(state, "money:5", 2)]})
    assert state["players"][0]["bank"] == [card(state, "money:5", 0)]
    assert state["phase"] == "play"


def test_finance_office_is_never_surged_and_leaves_the_surge_for_rent(play) -> None:
    state = scenario(hands={0: ["surge_ops", "finance_office"]})
    state = play(state, 0, {"type": "action", "card": card(state, "surge_ops")})
    state = play(state, 0, {"type": "action", "card": card(state, "finance_office"),
                            "target": 1})
    assert state["pending"]["amount"] == 5 and state["pending"]["multiplier"] == 1
    assert state["surge"] == 1


def test_roll_call_charges_every_other_active_player_two_each_independently(play) -> None:
    state = scenario(seats=4, hands={0: ["roll_call"], 2: ["opsec"]},
                     banks={1: ["money:2"], 2: ["money:3"]}, scooped=[3])
    state = play(state, 0, {"type": "action", "card": card(state, "roll_call")})
    assert [t["seat"] for t in state["pending"]["targets"]] == [1, 2]
    assert state["pending"]["amount"] == 2
    assert to_decide(state) == [1, 2]
    state = play(state, 2, {"type": "respond", "answer": "opsec", "target": 2})
    state = accept(play, state, 1)
    state = play(state, 1, {"type": "pay", "cards": [card(state, "money:2", 1)]})
    assert to_decide(state) == [0]
    state = play(state, 0, {"type": "respond", "answer": "accept", "target": 2})
    assert play.find("blocked")["seat"] == 2
    assert state["pending"] is None
    assert state["players"][2]["bank"] == [card(state, "money:3", 2)]


def test_roll_call_does_not_use_up_a_surge(play) -> None:
    state = scenario(hands={0: ["surge_ops", "roll_call"]})
    state = play(state, 0, {"type": "action", "card": card(state, "surge_ops")})
    state = play(state, 0, {"type": "action", "card": card(state, "roll_call")})
    assert state["pending"]["amount"] == 2 and state["surge"] == 1


# ---- Rent -----------------------------------------------------------------------------------

def test_two_colour_rent_charges_all_other_active_players(play) -> None:
    state = scenario(seats=3, hands={0: ["rent:red/yellow"]}, boards={0: {"red": ["F-22 Raptor"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "rent:red/yellow"),
                            "colour": "red"})
    assert [t["seat"] for t in state["pending"]["targets"]] == [1, 2]
    assert state["pending"]["amount"] == 2


def test_two_colour_rent_names_only_its_colours_and_needs_a_card_there() -> None:
    state = scenario(hands={0: ["rent:red/yellow"]}, boards={0: {"red": ["F-22 Raptor"],
                                                                 "green": ["Red Flag"]}})
    rent = card(state, "rent:red/yellow")
    refused(state, 0, {"type": "action", "card": rent}, "Choose a color to charge rent for")
    refused(state, 0, {"type": "action", "card": rent, "colour": "green"},
            "This rent card cannot be used for Elite Programs")
    refused(state, 0, {"type": "action", "card": rent, "colour": "yellow"},
            "You have no properties of that color")


def test_any_colour_rent_charges_one_chosen_player() -> None:
    state = scenario(seats=3, hands={0: ["rent_any"]}, boards={0: {"green": ["Red Flag"]}})
    rent = card(state, "rent_any")
    refused(state, 0, {"type": "action", "card": rent, "colour": "green"},
            "Choose a player to charge")
    refused(state, 0, {"type": "action", "card": rent, "colour": "green", "target": 7},
            "Invalid target")
    offered = [a for a in legal_actions(state, 0) if a.get("card") == rent
               and a["type"] == "action"]
    assert offered == [{"type": "action", "card": rent, "colour": "green", "target": 1},
                       {"type": "action", "card": rent, "colour": "green", "target": 2}]


def test_rent_of_a_full_command_set_with_upgrade_and_foc_is_fifteen(play) -> None:
    state = scenario(hands={0: ["rent_any"]},
                     boards={0: {"darkblue": ["The Pentagon", "Air Force One"]}},
                     upgrades={0: {"darkblue": ["upgrade", "foc"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "rent_any"),
                            "colour": "darkblue", "target": 1})
    assert state["pending"]["amount"] == 15


def test_rent_counts_cards_in_the_zone_without_a_complete_set(play) -> None:
    state = scenario(hands={0: ["rent:green/darkblue"]},
                     boards={0: {"green": ["Red Flag", "wild:green/darkblue"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "rent:green/darkblue"),
                            "colour": "green"})
    assert state["pending"]["amount"] == 4


def test_surge_doubles_the_next_rent_and_two_surges_quadruple_it(play) -> None:
    state = scenario(hands={0: ["surge_ops", "surge_ops", "rent:red/yellow"]},
                     boards={0: {"red": ["F-22 Raptor", "F-15 Eagle"]}})
    for _ in range(2):
        state = play(state, 0, {"type": "action", "card": card(state, "surge_ops", 0)})
    assert state["surge"] == 2 and state["plays_left"] == 1
    state = play(state, 0, {"type": "action", "card": card(state, "rent:red/yellow"),
                            "colour": "red"})
    assert state["pending"]["amount"] == 3 * 4
    assert state["pending"]["multiplier"] == 4
    assert state["surge"] == 0


# ---- steals and swaps -----------------------------------------------------------------------

def test_midnight_requisition_takes_one_property_outside_a_complete_set(play) -> None:
    state = scenario(hands={0: ["midnight_requisition"]},
                     boards={1: {"red": ["F-22 Raptor"], "brown": ["Creech AFB", "Cannon AFB"]}})
    mr = card(state, "midnight_requisition")
    refused(state, 0, {"type": "action", "card": mr, "target": 1,
                       "take": card(state, "Creech AFB")},
            "Cannot steal from a complete set or card not found")
    refused(state, 0, {"type": "action", "card": mr},
            "Choose a player and a property to requisition")
    state = play(state, 0, {"type": "action", "card": mr, "target": 1,
                            "take": card(state, "F-22 Raptor")})
    assert state["discard"][-1] == mr
    state = accept(play, state, 1)
    assert state["players"][0]["zones"] == {"red": [card(state, "F-22 Raptor")]}
    assert "red" not in state["players"][1]["zones"]
    assert play.find("steal")["to"] == "red"


def test_under_pure_sets_an_all_rainbow_full_zone_is_fair_game(play) -> None:
    state = scenario(ruleset={"pureSetRequired": True}, hands={0: ["midnight_requisition"]},
                     boards={1: {"brown": ["wild_any", "wild_any"]}})
    rainbow = card(state, "wild_any", 1)
    state = play(state, 0, {"type": "action", "card": card(state, "midnight_requisition"),
                            "target": 1, "take": rainbow})
    state = accept(play, state, 1)
    assert rainbow in state["players"][0]["zones"]["brown"]


def test_tdy_orders_swaps_one_property_each_way(play) -> None:
    state = scenario(hands={0: ["tdy_orders"]}, boards={0: {"pink": ["Peterson SFB"]},
                                                        1: {"orange": ["Nellis AFB"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "tdy_orders"), "target": 1,
                            "take": card(state, "Nellis AFB"),
                            "give": card(state, "Peterson SFB")})
    state = accept(play, state, 1)
    assert state["players"][0]["zones"] == {"orange": [card(state, "Nellis AFB")]}
    assert state["players"][1]["zones"] == {"pink": [card(state, "Peterson SFB")]}


def test_tdy_orders_cannot_touch_a_complete_set_on_either_side() -> None:
    state = scenario(hands={0: ["tdy_orders"]},
                     boards={0: {"brown": ["Creech AFB", "Cannon AFB"], "pink": ["Peterson SFB"]},
                             1: {"intel": ["PAVE PAWS Radar", "GPS Constellation"],
                                 "orange": ["Nellis AFB"]}})
    tdy = card(state, "tdy_orders")
    refused(state, 0, {"type": "action", "card": tdy, "target": 1,
                       "take": card(state, "Nellis AFB"), "give": card(state, "Creech AFB")},
            "You cannot trade a card out of one of your complete sets")
    refused(state, 0, {"type": "action", "card": tdy, "target": 1,
                       "take": card(state, "PAVE PAWS Radar"),
                       "give": card(state, "Peterson SFB")},
            "TDY Orders cannot touch a complete set")
    refused(state, 0, {"type": "action", "card": tdy, "target": 1, "take": 999,
                       "give": card(state, "Peterson SFB")},
            "Selected property is no longer available")
    refused(state, 0, {"type": "action", "card": tdy, "target": 1},
            "Choose your property and a target property to swap")


def test_tdy_cards_go_to_the_colour_they_sat_in(play) -> None:
    state = scenario(hands={0: ["tdy_orders"]},
                     boards={0: {"red": ["wild:red/yellow"]}, 1: {"green": ["wild_any"]}})
    wild, rainbow = card(state, "wild:red/yellow"), card(state, "wild_any")
    state = play(state, 0, {"type": "action", "card": card(state, "tdy_orders"), "target": 1,
                            "take": rainbow, "give": wild})
    state = accept(play, state, 1)
    assert state["players"][0]["zones"] == {"green": [rainbow]}
    assert state["players"][1]["zones"] == {"red": [wild]}


def test_inspector_general_seizes_a_complete_set_with_its_upgrades(play) -> None:
    state = scenario(hands={0: ["inspector_general"]},
                     boards={1: {"green": ["Red Flag", "Thunderbirds", "wild:green/darkblue"]}},
                     upgrades={1: {"green": ["upgrade", "foc"]}})
    ig = card(state, "inspector_general")
    refused(state, 0, {"type": "action", "card": ig}, "Choose a player and a complete set to seize")
    refused(state, 0, {"type": "action", "card": ig, "target": 1, "colour": "red"},
            "That set is not complete")
    state = play(state, 0, {"type": "action", "card": ig, "target": 1, "colour": "green"})
    state = accept(play, state, 1)
    assert len(state["players"][0]["zones"]["green"]) == 3
    assert len(state["players"][0]["upgrades"]["green"]) == 2
    assert state["players"][1]["zones"] == {} and state["players"][1]["upgrades"] == {}


def test_inspector_general_duplicate_upgrades_go_to_the_thiefs_bank(play) -> None:
    state = scenario(hands={0: ["inspector_general"]},
                     boards={0: {"green": ["wild:base/green"]},
                             1: {"green": ["Red Flag", "Thunderbirds", "Weapons School"]}},
                     upgrades={1: {"green": ["upgrade"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "inspector_general"),
                            "target": 1, "colour": "green"})
    state = accept(play, state, 1)
    zones = state["players"][0]["zones"]
    # the thief's own wild slides to Bases to make room for the third fixed card
    assert sorted(zones["green"]) == sorted([card(state, n) for n in
                                             ("Red Flag", "Thunderbirds", "Weapons School")])
    assert zones["base"] == [card(state, "wild:base/green")]
    assert state["players"][0]["upgrades"] == {"green": [card(state, "upgrade")]}


def test_a_seized_set_routes_each_card_by_involuntary_receipt(play) -> None:
    state = scenario(hands={0: ["inspector_general"]},
                     boards={0: {"green": ["Red Flag", "Thunderbirds", "Weapons School"]},
                             1: {"green": ["wild:green/darkblue", "wild:base/green",
                                           "wild_any"]}},
                     upgrades={0: {"green": ["upgrade"]}, 1: {"green": ["upgrade"]}})
    mine, theirs = state["players"][0]["upgrades"]["green"][0], \
        state["players"][1]["upgrades"]["green"][0]
    state = play(state, 0, {"type": "action", "card": card(state, "inspector_general"),
                            "target": 1, "colour": "green"})
    state = accept(play, state, 1)
    zones = state["players"][0]["zones"]
    assert zones["darkblue"] == [card(state, "wild:green/darkblue"), card(state, "wild_any")]
    assert zones["base"] == [card(state, "wild:base/green")]
    # the thief already had an Upgrade on green: the seized one goes to the thief's bank
    assert state["players"][0]["upgrades"] == {"green": [mine]}
    assert state["players"][0]["bank"] == [theirs]
    assert [e["colour"] for e in play.events if e["type"] == "set_completed"] == ["darkblue"]


def test_chud_steals_any_property_even_from_a_complete_set(play) -> None:
    state = scenario(hands={0: ["chud"]},
                     boards={1: {"darkblue": ["The Pentagon", "Air Force One"]}},
                     upgrades={1: {"darkblue": ["upgrade"]}})
    chud = card(state, "chud")
    refused(state, 0, {"type": "action", "card": chud, "target": 1, "take": 999},
            "Property not found on target")
    refused(state, 0, {"type": "action", "card": chud},
            "Choose a player and ANY property to commandeer")
    state = play(state, 0, {"type": "action", "card": chud, "target": 1,
                            "take": card(state, "The Pentagon")})
    state = accept(play, state, 1)
    assert state["players"][0]["zones"] == {"darkblue": [card(state, "The Pentagon")]}
    # the victim's set broke: its upgrade goes to the victim's own bank
    assert state["players"][1]["bank"] == [card(state, "upgrade")]
    assert state["players"][1]["upgrades"] == {}
    assert "upgrade_banked" in play.types()


# ---- Upgrade and FOC ------------------------------------------------------------------------

def test_upgrade_needs_a_complete_set_without_one(play) -> None:
    state = scenario(hands={0: ["upgrade", "upgrade"]},
                     boards={0: {"intel": ["PAVE PAWS Radar", "GPS Constellation"],
                                 "red": ["F-22 Raptor"]}})
    up = card(state, "upgrade", 0)
    refused(state, 0, {"type": "action", "card": up}, "Choose a complete set to upgrade")
    refused(state, 0, {"type": "action", "card": up, "colour": "red"},
            "Set must be complete to add Upgrade")
    state = play(state, 0, {"type": "action", "card": up, "colour": "intel"})
    assert state["players"][0]["upgrades"] == {"intel": [up]}
    assert up not in state["discard"]
    refused(state, 0, {"type": "action", "card": card(state, "upgrade", 0), "colour": "intel"},
            "Set already has an Upgrade")


def test_upgrades_go_on_any_complete_set_bases_and_intel_included(play) -> None:
    state = scenario(hands={0: ["upgrade"]},
                     boards={0: {"base": ["Ramstein AB", "Kadena AB", "Osan AB", "Thule AB"]}})
    play(state, 0, {"type": "action", "card": card(state, "upgrade"), "colour": "base"})


def test_foc_needs_an_upgrade_first_and_only_one_per_set(play) -> None:
    state = scenario(hands={0: ["foc", "foc"]},
                     boards={0: {"brown": ["Creech AFB", "Cannon AFB"],
                                 "intel": ["PAVE PAWS Radar", "GPS Constellation"],
                                 "red": ["F-22 Raptor"]}},
                     upgrades={0: {"intel": ["upgrade"]}})
    foc = card(state, "foc", 0)
    refused(state, 0, {"type": "action", "card": foc}, "Choose a set for FOC")
    refused(state, 0, {"type": "action", "card": foc, "colour": "red"}, "Set must be complete")
    refused(state, 0, {"type": "action", "card": foc, "colour": "brown"},
            "Must have Upgrade before FOC")
    state = play(state, 0, {"type": "action", "card": foc, "colour": "intel"})
    refused(state, 0, {"type": "action", "card": card(state, "foc", 0), "colour": "intel"},
            "Already at FOC")


def test_actions_need_another_active_player_as_target() -> None:
    state = scenario(seats=3, hands={0: ["finance_office"]}, scooped=[2])
    refused(state, 0, {"type": "action", "card": card(state, "finance_office"), "target": 2},
            "Invalid target")


def test_under_pure_sets_an_all_rainbow_zone_is_not_a_set(play) -> None:
    state = scenario(ruleset={"preset": "mdFaithful"}, hands={0: ["wild_any"], 1: []},
                     boards={0: {"brown": ["wild_any"]}})
    state = play(state, 0, {"type": "place", "card": card(state, "wild_any", 0),
                            "colour": "brown"})
    assert "set_completed" not in play.types()
    assert len(state["players"][0]["zones"]["brown"]) == 2  # full: the zone cap still holds


def test_inspector_general_cannot_target_an_all_rainbow_zone_under_pure_sets() -> None:
    state = scenario(ruleset={"pureSetRequired": True}, hands={0: ["inspector_general"]},
                     boards={1: {"brown": ["wild_any", "wild_any"]}})
    refused(state, 0, {"type": "action", "card": card(state, "inspector_general"), "target": 1,
                       "colour": "brown"}, "That set is not complete")
