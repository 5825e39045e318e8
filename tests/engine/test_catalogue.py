"""Every number of the rules page (seeds/000) and REFERENCE §1, read from the engine."""

from __future__ import annotations

from collections import Counter

import pytest

from games.chudopoly.engine import (
    ACTIONS,
    COLOURS,
    PAIR_WILDS,
    build_deck,
    card_dict,
    describe_rules,
)
from games.chudopoly.engine.cards import MONEY, PROPERTIES, STOCK_COUNTS
from games.chudopoly.engine.describe import deck_families

SET_TABLE = {
    # key: (display name, cards to complete, rent by cards owned)
    "brown": ("Drone Ops", 2, (1, 2)),
    "lightblue": ("Training", 3, (1, 2, 3)),
    "pink": ("Space Force", 3, (1, 2, 4)),
    "orange": ("Test & Eval", 3, (1, 3, 5)),
    "red": ("Fighters", 3, (2, 3, 6)),
    "yellow": ("Mobility", 3, (2, 4, 6)),
    "green": ("Elite Programs", 3, (2, 4, 7)),
    "darkblue": ("Command", 2, (3, 8)),
    "base": ("Overseas Bases", 4, (1, 2, 3, 4)),
    "intel": ("Intelligence", 2, (1, 2)),
}

ACTION_TABLE = {
    # key: (name, in deck, bank value)
    "inspector_general": ("Inspector General", 2, 5),
    "opsec": ("OPSEC", 3, 4),
    "midnight_requisition": ("Midnight Requisition", 3, 3),
    "tdy_orders": ("TDY Orders", 3, 3),
    "finance_office": ("Finance Office", 3, 3),
    "roll_call": ("Roll Call", 3, 2),
    "pcs_orders": ("PCS Orders", 10, 1),
    "upgrade": ("Upgrade (House)", 3, 3),
    "foc": ("Full Operational Capability (Hotel)", 2, 4),
    "surge_ops": ("Surge Operations", 2, 1),
    "chud": ("THE CHUD CARD", 2, 4),
}


def test_set_and_rent_table_matches_the_rules_page() -> None:
    assert list(COLOURS) == list(SET_TABLE)
    for key, (name, size, rents) in SET_TABLE.items():
        colour = COLOURS[key]
        assert (colour.name, colour.set_size, colour.rents) == (name, size, rents)


def test_each_colour_has_exactly_set_size_fixed_property_cards() -> None:
    per_colour = Counter(colour for colour, _, _ in PROPERTIES)
    assert per_colour == {k: c.set_size for k, c in COLOURS.items()}


def test_action_table_counts_and_bank_values_match_the_rules_page() -> None:
    assert list(ACTIONS) == list(ACTION_TABLE)
    deck = build_deck()
    counted = Counter(c.key for c in deck if c.kind == "action")
    for key, (name, count, value) in ACTION_TABLE.items():
        assert (ACTIONS[key].name, ACTIONS[key].stock, ACTIONS[key].value) == (name, count, value)
        assert counted[key] == count
        assert all(c.value == value for c in deck if c.key == key)


def test_surge_text_says_rent_only_never_a_demand() -> None:
    assert ACTIONS["surge_ops"].text == (
        "Double your next RENT this turn — rent only, never a demand. Stacks.")


def test_stock_deck_families_are_28_9_13_20_36_for_106() -> None:
    assert deck_families() == {"property": 28, "wild": 9, "rent": 13, "money": 20,
                               "action": 36, "total": 106}
    assert len(build_deck()) == 106


def test_money_is_20_cards_worth_57m() -> None:
    money = [c for c in build_deck() if c.kind == "money"]
    assert len(money) == 20
    assert sum(c.value for c in money) == 57
    assert Counter(c.value for c in money) == dict(MONEY)


def test_rent_cards_are_ten_two_colour_at_1m_and_three_any_colour_at_3m() -> None:
    rents = [c for c in build_deck() if c.kind == "rent"]
    assert Counter((c.key, c.value) for c in rents) == {("rent_pair", 1): 10, ("rent_any", 3): 3}


def test_stock_wilds_are_two_rainbow_and_the_first_seven_pairs() -> None:
    wilds = [c for c in build_deck() if c.kind == "wild"]
    assert [c.key for c in wilds[:2]] == ["wild_any", "wild_any"]
    assert all(c.value == 0 and len(c.colours) == 10 for c in wilds[:2])
    assert [(c.colours, c.name, c.value) for c in wilds[2:]] == list(PAIR_WILDS[:7])


def test_card_ids_follow_the_pinned_order() -> None:
    deck = build_deck()
    kinds = [c.key if c.kind == "action" else c.kind for c in deck]
    assert kinds[:28] == ["property"] * 28
    assert kinds[28:37] == ["wild"] * 9
    assert kinds[37:57] == ["money"] * 20
    # actions in table order except CHUD, then rents, then CHUD last
    assert kinds[57] == "inspector_general"
    assert kinds[57 + 34 - 1] == "surge_ops"
    assert kinds[91:104] == ["rent"] * 13
    assert kinds[104:] == ["chud", "chud"]
    assert [c.id for c in deck] == list(range(106))
    assert deck[0].name == "Creech AFB" and deck[27].name == "GPS Constellation"


def test_md_faithful_deck_is_the_official_106() -> None:
    deck = build_deck({**STOCK_COUNTS, "chud": 0, "wildPairs": 9})
    kinds = Counter(c.kind for c in deck)
    assert kinds == {"property": 28, "wild": 11, "rent": 13, "money": 20, "action": 34}
    assert not [c for c in deck if c.key == "chud"]


def test_card_dict_carries_what_a_view_needs() -> None:
    card = build_deck()[11]
    assert card_dict(card, "red") == {"id": 11, "kind": "property", "key": "property",
                                      "name": "F-22 Raptor", "value": 3, "colours": ["red"],
                                      "colour": "red"}


def test_describe_rules_feeds_the_rules_page_from_engine_data() -> None:
    rules = describe_rules()
    assert rules["constants"]["hand_limit"] == 7
    assert rules["constants"]["plays_per_turn"] == 3
    assert rules["constants"]["rearranges_per_turn"] == 12
    assert rules["constants"]["deck_cycle_limit"] == 16
    assert rules["constants"]["contest_lap_cap"] == 2
    assert rules["families"]["total"] == 106
    assert [(a["name"], a["count"], a["value"]) for a in rules["actions"]] == [
        v for v in ACTION_TABLE.values()]
    assert [(p["name"], p["setsToWin"]) for p in rules["presets"]] == [
        ("Chudopoly", 3), ("MD Faithful", 3), ("Blitz", 3), ("Long Game", 5)]
    assert rules["colours"][7] == {"key": "darkblue", "name": "Command", "set_size": 2,
                                   "rents": [3, 8], "bg": "#00308F"}


@pytest.mark.parametrize("preset", ["chudopoly", "mdFaithful", "blitz", "longGame"])
def test_every_preset_deck_holds_106_cards(preset: str) -> None:
    assert deck_families({"preset": preset})["total"] == 106
