"""Payment (REFERENCE §5): the payer chooses; no change; insolvency; where paid cards land."""

from __future__ import annotations

from engine_helpers import refused

from games.chudopoly.engine import card, legal_actions, payment_problem, scenario, timeout_actions


def owe(play, state, amount_card="finance_office", payer=1):
    """Seat 0 charges `payer` with Finance Office (5M) and the payer accepts."""
    state = play(state, 0, {"type": "action", "card": card(state, amount_card), "target": payer})
    return play(state, payer, {"type": "respond", "answer": "accept", "target": payer})


def test_the_payer_chooses_the_cards_and_there_is_no_change(play) -> None:
    state = scenario(hands={0: ["finance_office"]}, banks={1: ["money:10", "money:1"]})
    state = owe(play, state)
    assert state["pending"]["targets"][0]["state"] == "pay"
    state = play(state, 1, {"type": "pay", "cards": [card(state, "money:10", 1)]})
    assert state["players"][0]["bank"] == [card(state, "money:10", 0)]
    assert state["players"][1]["bank"] == [card(state, "money:1", 1)]
    assert play.find("payment")["total"] == 10 and play.find("payment")["amount"] == 5


def test_payment_refusals_name_the_rule(play) -> None:
    state = scenario(hands={0: ["finance_office"]}, banks={1: ["money:2", "money:4"]},
                     boards={1: {"red": ["F-22 Raptor"]}})
    state = owe(play, state)
    two, four = card(state, "money:2", 1), card(state, "money:4", 1)
    refused(state, 1, {"type": "pay", "cards": []}, "Select cards to pay with")
    refused(state, 1, {"type": "pay", "cards": [two, two]}, "Payment cards must be unique")
    refused(state, 1, {"type": "pay", "cards": [two, 3]},
            "Payment selection contains an invalid card")
    refused(state, 1, {"type": "pay", "cards": [four]},
            "You must pay at least 5M (or surrender every card you have)")
    refused(state, 0, {"type": "pay", "cards": [two]}, "You owe no payment right now")
    refused(state, 1, {"type": "respond", "answer": "opsec", "target": 1},
            "You accepted: choose cards to pay with")


def test_cards_in_hand_never_pay(play) -> None:
    state = scenario(hands={0: ["finance_office"], 1: ["money:10"]}, banks={1: ["money:5"]})
    state = owe(play, state)
    refused(state, 1, {"type": "pay", "cards": [card(state, "money:10", 1)]},
            "Payment selection contains an invalid card")


def test_a_short_payment_is_legal_only_when_surrendering_everything(play) -> None:
    state = scenario(hands={0: ["finance_office"]}, banks={1: ["money:1"]},
                     boards={1: {"red": ["wild_any"]}})
    state = owe(play, state)
    refused(state, 1, {"type": "pay", "cards": [card(state, "money:1", 1)]},
            "You must pay at least 5M (or surrender every card you have)")
    everything = [card(state, "money:1", 1), card(state, "wild_any", 1)]
    assert [a for a in legal_actions(state, 1) if a["type"] == "pay"] == [
        {"type": "pay", "cards": everything}]
    state = play(state, 1, {"type": "pay", "cards": everything})
    # a zero-value rainbow wild is surrendered too, into the payee's collection
    assert state["players"][0]["zones"] == {"red": [card(state, "wild_any")]}


def test_nothing_to_pay_only_when_the_payer_has_no_cards(play) -> None:
    state = scenario(hands={0: ["finance_office"], 1: ["money:10"]})
    state = play(state, 0, {"type": "action", "card": card(state, "finance_office"),
                            "target": 1})
    state = play(state, 1, {"type": "respond", "answer": "accept", "target": 1})
    assert "insolvent" in play.types()
    assert state["pending"] is None


def test_paid_properties_go_to_the_payees_collection_in_the_colour_they_sat_in(play) -> None:
    state = scenario(hands={0: ["finance_office"]},
                     boards={1: {"yellow": ["wild:red/yellow", "KC-135 Stratotanker"]}})
    state = owe(play, state)
    wild = card(state, "wild:red/yellow")
    state = play(state, 1, {"type": "pay", "cards": [wild, card(state, "KC-135 Stratotanker")]})
    assert sorted(state["players"][0]["zones"]["yellow"]) == sorted(
        [wild, card(state, "KC-135 Stratotanker")])


def test_paid_upgrades_go_to_the_payees_bank_and_the_foc_follows_its_house(play) -> None:
    state = scenario(hands={0: ["roll_call"]},
                     boards={1: {"darkblue": ["The Pentagon", "Air Force One"]}},
                     upgrades={1: {"darkblue": ["upgrade", "foc"]}})
    state = play(state, 0, {"type": "action", "card": card(state, "roll_call")})
    state = play(state, 1, {"type": "respond", "answer": "accept", "target": 1})
    house, foc = card(state, "upgrade"), card(state, "foc")
    state = play(state, 1, {"type": "pay", "cards": [house]})
    assert state["players"][0]["bank"] == [house]
    # the FOC may not stand without the Upgrade: it goes to its owner's bank
    assert state["players"][1]["bank"] == [foc]
    assert state["players"][1]["upgrades"] == {}
    assert len(state["players"][1]["zones"]["darkblue"]) == 2


def test_paying_with_house_and_foc_together_hands_over_both(play) -> None:
    state = scenario(hands={0: ["finance_office"]},
                     boards={1: {"darkblue": ["The Pentagon", "Air Force One"]}},
                     upgrades={1: {"darkblue": ["upgrade", "foc"]}})
    state = owe(play, state)
    house, foc = card(state, "upgrade"), card(state, "foc")
    state = play(state, 1, {"type": "pay", "cards": [house, foc]})
    assert sorted(state["players"][0]["bank"]) == sorted([house, foc])
    assert state["players"][1]["bank"] == []


def test_breaking_a_set_to_pay_banks_its_upgrades_with_the_owner(play) -> None:
    state = scenario(hands={0: ["finance_office"]},
                     boards={1: {"green": ["Red Flag", "Thunderbirds", "Weapons School"]}},
                     upgrades={1: {"green": ["upgrade"]}})
    state = owe(play, state)
    state = play(state, 1, {"type": "pay", "cards": [card(state, "Red Flag"),
                                                      card(state, "Thunderbirds")]})
    assert state["players"][1]["bank"] == [card(state, "upgrade")]
    assert state["players"][1]["zones"] == {"green": [card(state, "Weapons School")]}


def test_receipt_slides_a_wild_out_of_a_full_zone_to_make_room(play) -> None:
    state = scenario(hands={0: ["finance_office"]},
                     boards={0: {"brown": ["Creech AFB", "wild:brown/lightblue"]},
                             1: {"brown": ["Cannon AFB"]}})
    state = owe(play, state)
    state = play(state, 1, {"type": "pay", "cards": [card(state, "Cannon AFB")]})
    zones = state["players"][0]["zones"]
    assert sorted(zones["brown"]) == sorted([card(state, "Creech AFB"), card(state, "Cannon AFB")])
    assert zones["lightblue"] == [card(state, "wild:brown/lightblue")]
    forced = play.find("move")
    assert forced["forced"] is True and forced["to"] == "lightblue"


def test_a_rainbow_wild_slides_to_the_first_colour_with_room(play) -> None:
    state = scenario(hands={0: ["finance_office"]},
                     boards={0: {"brown": ["Creech AFB", "wild_any"],
                                 "lightblue": ["wild:brown/lightblue", "Keesler AFB",
                                               "Goodfellow AFB"]},
                             1: {"brown": ["Cannon AFB"]}},
                     )
    state = owe(play, state)
    state = play(state, 1, {"type": "pay", "cards": [card(state, "Cannon AFB")]})
    zones = state["players"][0]["zones"]
    assert card(state, "Cannon AFB") in zones["brown"]
    assert zones["pink"] == [card(state, "wild_any")]


def test_a_fixed_property_with_nowhere_to_go_is_banked_as_money(play) -> None:
    state = scenario(hands={0: ["finance_office"]},
                     boards={0: {"intel": ["PAVE PAWS Radar", "wild:base/intel"],
                                 "base": ["Ramstein AB", "Kadena AB", "Osan AB", "Thule AB"]},
                             1: {"intel": ["GPS Constellation"]}})
    state = owe(play, state)
    gps = card(state, "GPS Constellation")
    state = play(state, 1, {"type": "pay", "cards": [gps]})
    assert state["players"][0]["bank"] == [gps]
    assert play.find("banked_property")["card"]["id"] == gps


def test_payment_options_start_with_the_automatic_choice_and_are_all_legal(play) -> None:
    state = scenario(hands={0: ["finance_office"]},
                     banks={1: ["money:1", "money:2", "money:3", "money:4"]},
                     boards={1: {"green": ["Red Flag"], "brown": ["Creech AFB", "Cannon AFB"]}})
    state = owe(play, state)
    options = [a["cards"] for a in legal_actions(state, 1) if a["type"] == "pay"]
    assert len(options) > 3
    assert all(payment_problem(state, 1, sel) is None for sel in options)
    assert options[0] == sorted(timeout_actions(state, 1)[0]["cards"])
    assert len({tuple(o) for o in options}) == len(options)


def test_received_cards_go_to_the_fullest_legal_zone_with_room(play) -> None:
    state = scenario(hands={0: ["finance_office"]},
                     boards={0: {"red": ["F-22 Raptor", "F-35 Lightning II", "F-15 Eagle"],
                                 "yellow": ["KC-135 Stratotanker"],
                                 "green": ["Red Flag", "Thunderbirds"]},
                             1: {"red": ["wild_any"]}},
                     banks={1: ["money:5"]})
    state = owe(play, state)
    rainbow = card(state, "wild_any")
    state = play(state, 1, {"type": "pay", "cards": [card(state, "money:5", 1), rainbow]})
    # its own colour (red) is full, so the fullest other zone with room takes it
    assert rainbow in state["players"][0]["zones"]["green"]
    assert [e["colour"] for e in play.events if e["type"] == "set_completed"] == ["green"]


def test_a_payer_holding_only_a_rainbow_wild_must_hand_it_over(play) -> None:
    state = scenario(hands={0: ["finance_office"]}, boards={1: {"pink": ["wild_any"]}})
    state = owe(play, state)
    refused(state, 1, {"type": "pay", "cards": []}, "Select cards to pay with")
    assert [a for a in legal_actions(state, 1) if a["type"] == "pay"] == [
        {"type": "pay", "cards": [card(state, "wild_any")]}]


def test_the_automatic_payment_is_the_cheapest_cover_by_brute_force() -> None:
    import itertools
    import random

    from games.chudopoly.engine.payment import _cheapest_cover, _minimal_covers

    rng = random.Random(4)
    ids = iter(range(10_000))
    for _ in range(300):
        groups = sorted(((rng.randint(1, 10), rng.choice((1, 100, 10_000, 1_000_000)),
                          [next(ids) for _ in range(rng.randint(1, 3))])
                         for _ in range(rng.randint(1, 5))), key=lambda g: -g[0])
        where = {c: (v, w) for v, w, cs in groups for c in cs}
        amount = rng.randint(1, sum(v for v, _ in where.values()))

        def score(sel, where=where):
            return sum(where[c][0] for c in sel), sum(where[c][1] for c in sel)

        best = min(score(sel) for r in range(1, len(where) + 1)
                   for sel in itertools.combinations(where, r) if score(sel)[0] >= amount)
        assert score(_cheapest_cover(groups, amount)) == best
        for sel in _minimal_covers(groups, amount, 8):
            assert score(sel)[0] >= amount
            assert all(score(sel)[0] - where[c][0] < amount for c in sel)  # minimal
