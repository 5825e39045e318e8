"""Sampled worlds dealt by a hand prior (off by default, `hard.HAND_PRIOR`): other hands hold
each card sort in proportion to its weight, and the worlds still agree with the view."""

from __future__ import annotations

import random
from collections import Counter

from games.chudopoly import engine
from games.chudopoly.bots import hard
from games.chudopoly.bots.determinize import card_sort, sample_world, unseen_cards
from games.chudopoly.engine import scenario
from games.chudopoly.engine.cards import catalogue

HANDS = {0: ["money:1"], 1: ["money:2", "money:3", "money:4"], 2: ["money:5", "money:1"],
         3: ["money:2", "money:3", "money:10"]}


def table() -> dict:
    return scenario(seats=4, hands=HANDS, turn=0, turn_number=5, rest="deck")


def sorts_dealt(view: dict, prior: dict[str, float] | None, worlds: int = 300
                ) -> tuple[Counter[str], Counter[str]]:
    """How often each card sort was dealt into the other hands, and into the deck."""
    cat = catalogue(view["ruleset"]["deck"])
    hands: Counter[str] = Counter()
    deck: Counter[str] = Counter()
    for i in range(worlds):
        world = sample_world(view, random.Random(i), prior=prior)
        hands.update(card_sort(cat, c) for s in (1, 2, 3) for c in world["players"][s]["hand"])
        deck.update(card_sort(cat, c) for c in world["deck"])
    return hands, deck


def share(counts: Counter[str], sort: str) -> float:
    return counts[sort] / sum(counts.values())


def test_prior_dealt_worlds_agree_with_the_view() -> None:
    view = engine.view(table(), 0)
    unseen = sorted(unseen_cards(view))
    for i in range(20):
        world = sample_world(view, random.Random(i), prior=hard.MEDIUM_HAND_PRIOR)
        assert not engine.check_invariants(world)
        assert engine.view(world, 0) | {"legal": None} == view | {"legal": None}
        hidden = [c for s in (1, 2, 3) for c in world["players"][s]["hand"]] + world["deck"]
        assert sorted(hidden) == unseen
        assert [len(world["players"][s]["hand"]) for s in (1, 2, 3)] == [3, 2, 3]


def test_a_heavy_sort_goes_to_the_hands_and_a_light_one_to_the_deck() -> None:
    view = engine.view(table(), 0)
    hands, deck = sorts_dealt(view, {"opsec": 20.0, "property": 0.05})
    assert share(hands, "opsec") > 4 * share(deck, "opsec")
    assert share(hands, "property") < share(deck, "property") / 4


def test_without_a_prior_hands_are_a_uniform_draw() -> None:
    view = engine.view(table(), 0)
    hands, deck = sorts_dealt(view, None)
    assert abs(share(hands, "property") - share(deck, "property")) < 0.06
    plain = [sample_world(view, random.Random(i)) for i in range(5)]
    assert plain == [sample_world(view, random.Random(i), prior=None) for i in range(5)]


def test_the_hard_bot_deals_no_prior_unless_asked() -> None:
    assert hard.HAND_PRIOR is None
