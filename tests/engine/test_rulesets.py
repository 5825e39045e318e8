"""Presets, toggles, labelling and strict refusal (REFERENCE §1.7 and §2)."""

from __future__ import annotations

import pytest

from games.chudopoly.engine import EDITABLE_DECK_COUNTS, PRESETS, RulesetError, resolve_ruleset
from games.chudopoly.engine.cards import STOCK_COUNTS, deck_size
from games.chudopoly.engine.rulesets import normalize_deck


def test_presets_table() -> None:
    table = {k: (p["winRule"], p["setsToWin"], p["pureSetRequired"], p["counterCostsPlay"],
                 p["passGoRestartsTurn"], p["suddenDeath"]) for k, p in PRESETS.items()}
    assert table == {
        "chudopoly": ("finalApproach", 3, False, False, False, "off"),
        "mdFaithful": ("mdFaithful", 3, True, True, False, "off"),
        "blitz": ("instant", 3, False, False, True, "off"),
        "longGame": ("finalApproach", 5, False, False, False, "off"),
    }
    assert PRESETS["mdFaithful"]["deck"] == {**STOCK_COUNTS, "chud": 0, "wildPairs": 9}


def test_absent_spec_resolves_to_chudopoly() -> None:
    assert resolve_ruleset(None) == PRESETS["chudopoly"]
    assert resolve_ruleset({})["label"] == "chudopoly"


def test_instant_plus_pass_go_restart_is_labelled_blitz() -> None:
    assert resolve_ruleset({"winRule": "instant", "passGoRestartsTurn": True})["label"] == "blitz"


def test_blitz_with_five_sets_is_labelled_custom() -> None:
    rules = resolve_ruleset({"preset": "blitz", "setsToWin": 5})
    assert rules["label"] == "custom" and rules["setsToWin"] == 5


def test_md_faithful_with_a_third_inspector_general_is_custom_on_the_md_deck() -> None:
    rules = resolve_ruleset({"preset": "mdFaithful", "deck": {"inspector_general": 3}})
    assert rules["label"] == "custom"
    assert rules["deck"] == {**PRESETS["mdFaithful"]["deck"], "inspector_general": 3}


def test_a_resolved_ruleset_resolves_to_itself() -> None:
    for spec in ({"preset": "blitz", "setsToWin": 4}, {"preset": "mdFaithful"}):
        rules = resolve_ruleset(spec)
        assert resolve_ruleset(rules) == rules


def test_sudden_death_is_forced_off_under_instant() -> None:
    rules = resolve_ruleset({"preset": "blitz", "suddenDeath": "points"})
    assert rules["suddenDeath"] == "off" and rules["label"] == "blitz"


def test_sudden_death_with_final_approach_is_custom() -> None:
    rules = resolve_ruleset({"suddenDeath": "escalate"})
    assert rules["suddenDeath"] == "escalate" and rules["label"] == "custom"


def test_inspector_general_and_chud_at_three_totals_108_and_is_accepted() -> None:
    rules = resolve_ruleset({"deck": {"inspector_general": 3, "chud": 3}})
    assert deck_size(rules["deck"]) == 108


def test_thirteen_counts_are_editable_with_their_bounds() -> None:
    assert len(EDITABLE_DECK_COUNTS) == 13
    assert EDITABLE_DECK_COUNTS["wildAny"] == (0, 4)
    assert EDITABLE_DECK_COUNTS["wildPairs"] == (0, 9)
    assert all(EDITABLE_DECK_COUNTS[k] == (0, 12) for k in STOCK_COUNTS
               if k not in ("wildAny", "wildPairs"))


@pytest.mark.parametrize(("spec", "field", "message"), [
    ({"deck": {k: 0 for k in STOCK_COUNTS if k not in ("wildAny", "wildPairs")}}, "deck",
     "Deck must hold 80–130 cards (that one holds 70)"),
    ({"deck": {k: 12 for k in STOCK_COUNTS if k not in ("wildAny", "wildPairs")}}, "deck",
     "Deck must hold 80–130 cards (that one holds 202)"),
    ({"deck": []}, "deck", "Deck composition must be an object"),
    ({"deck": {"dealbreaker": 1}}, "deck.dealbreaker", 'Unknown deck card "dealbreaker"'),
    ({"deck": {"chud": 13}}, "deck.chud", 'Invalid count for "chud" (0–12)'),
    ({"deck": {"wildAny": 5}}, "deck.wildAny", 'Invalid count for "wildAny" (0–4)'),
    ({"deck": {"wildPairs": -1}}, "deck.wildPairs", 'Invalid count for "wildPairs" (0–9)'),
    ({"deck": {"opsec": 2.5}}, "deck.opsec", 'Invalid count for "opsec" (0–12)'),
    ({"setsToWin": 6}, "setsToWin", "setsToWin must be 3, 4 or 5"),
    ({"setsToWin": "3"}, "setsToWin", "setsToWin must be 3, 4 or 5"),
    ({"setsToWin": True}, "setsToWin", "setsToWin must be 3, 4 or 5"),
    ({"winRule": "sudden"}, "winRule", "winRule must be one of finalApproach, mdFaithful, instant"),
    ({"suddenDeath": "always"}, "suddenDeath",
     "suddenDeath must be one of off, oneLap, escalate, points"),
    ({"pureSetRequired": "yes"}, "pureSetRequired", "pureSetRequired must be true or false"),
    ({"preset": "monopoly"}, "preset",
     "Unknown preset (choose chudopoly, mdFaithful, blitz, longGame)"),
    ({"turbo": True}, "turbo", 'Unknown rule "turbo"'),
])
def test_bad_specs_are_refused_naming_the_field_and_range(spec: dict, field: str,
                                                          message: str) -> None:
    with pytest.raises(RulesetError) as info:
        resolve_ruleset(spec)
    assert (info.value.field, info.value.message) == (field, message)
    assert isinstance(info.value, ValueError)


def test_deck_bounds_are_inclusive_80_and_130() -> None:
    # 61 fixed + 19 editable = 80; 61 + 69 = 130.
    low = {k: 0 for k in STOCK_COUNTS} | {"pcs_orders": 12, "opsec": 7}
    assert deck_size(resolve_ruleset({"deck": low})["deck"]) == 80
    high = {"inspector_general": 12, "chud": 12, "surge_ops": 6}
    assert deck_size(resolve_ruleset({"deck": high})["deck"]) == 130
    with pytest.raises(RulesetError):
        resolve_ruleset({"deck": {**low, "opsec": 6}})
    with pytest.raises(RulesetError):
        resolve_ruleset({"deck": {**high, "surge_ops": 7}})


def test_lenient_normaliser_clamps_ignores_and_drops_out_of_range_totals() -> None:
    assert normalize_deck({"chud": 99, "bogus": 3, "opsec": "x"})["chud"] == 12
    assert normalize_deck({k: 0 for k in STOCK_COUNTS}) == STOCK_COUNTS
