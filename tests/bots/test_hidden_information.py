"""Bots decide from the seat's view alone, and the hard bot's sampled worlds only ever place
cards where the seat could know them to be."""

from __future__ import annotations

import random

import pytest
from bots_helpers import LEVELS, decide

from games.chudopoly import engine
from games.chudopoly.bots import hard
from games.chudopoly.bots.determinize import sample_world, unseen_cards, visible_cards
from games.chudopoly.engine import to_decide


def midgame(seed: int = 3, seats: int = 4, actions: int = 70) -> dict:
    state = engine.new_game(ruleset={}, seats=seats, seed=seed)
    for _ in range(actions):
        seat = to_decide(state)[0]
        state = engine.apply(state, seat, decide(state, seat, "medium")).state
    assert state["result"] is None
    return state


def reshuffle_hidden(state: dict, seat: int, rng: random.Random) -> dict:
    """The same table as `seat` sees it, with other hands and the deck dealt differently."""
    other = {**state, "players": [dict(p, hand=p["hand"][:]) for p in state["players"]],
             "deck": state["deck"][:]}
    hidden = [c for s, p in enumerate(other["players"]) if s != seat for c in p["hand"]]
    hidden += other["deck"]
    rng.shuffle(hidden)
    at = 0
    for s, p in enumerate(other["players"]):
        if s != seat:
            n = len(p["hand"])
            p["hand"] = hidden[at:at + n]
            at += n
    other["deck"] = hidden[at:]
    assert not engine.check_invariants(other)
    return other


def test_a_view_holds_no_other_hand_and_no_deck_order() -> None:
    state = midgame()
    seat = to_decide(state)[0]
    view = engine.view(state, seat)
    assert [c["id"] for c in view["hand"]] == state["players"][seat]["hand"]
    for p in view["players"]:
        assert "hand" not in p and isinstance(p["hand_count"], int)
    assert "deck" not in view and "rng" not in view and "seed" not in view


@pytest.mark.parametrize("level", LEVELS)
def test_moves_do_not_change_when_only_hidden_cards_do(level: str) -> None:
    rng = random.Random(1)
    for seed in (3, 4, 5):
        state = midgame(seed=seed)
        seat = to_decide(state)[0]
        twin = reshuffle_hidden(state, seat, rng)
        assert twin["players"][(seat + 1) % 4]["hand"] != state["players"][(seat + 1) % 4]["hand"] \
            or twin["deck"] != state["deck"]
        assert engine.view(twin, seat) == engine.view(state, seat)
        assert decide(twin, seat, level) == decide(state, seat, level)


def test_sampled_worlds_keep_every_visible_card_in_place_and_deal_only_unseen_ones() -> None:
    state = midgame()
    seat = to_decide(state)[0]
    view = engine.view(state, seat)
    truth_hidden = sorted([c for s, p in enumerate(state["players"]) if s != seat
                           for c in p["hand"]] + state["deck"])
    assert sorted(unseen_cards(view)) == truth_hidden
    differs = 0
    for i in range(10):
        world = sample_world(view, random.Random(i))
        assert not engine.check_invariants(world)
        assert engine.view(world, seat) | {"legal": None} == view | {"legal": None}
        dealt = sorted([c for s, p in enumerate(world["players"]) if s != seat
                        for c in p["hand"]] + world["deck"])
        assert dealt == truth_hidden
        assert not set(dealt) & visible_cards(view)
        differs += any(world["players"][s]["hand"] != state["players"][s]["hand"]
                       for s in range(4) if s != seat)
    assert differs >= 9  # the true hands are not what gets sampled


def test_sampled_worlds_depend_on_the_view_only() -> None:
    state = midgame()
    seat = to_decide(state)[0]
    twin = reshuffle_hidden(state, seat, random.Random(2))
    a = sample_world(engine.view(state, seat), random.Random(5))
    b = sample_world(engine.view(twin, seat), random.Random(5))
    assert a == b


def test_the_hard_bot_searches_only_worlds_sampled_from_the_view(monkeypatch) -> None:
    state = midgame(actions=50)
    seat = to_decide(state)[0]
    view = engine.view(state, seat)
    unseen = sorted(unseen_cards(view))
    seen_worlds = []

    def spy(v: dict, rng: random.Random, infer: bool = False,
            prior: dict[str, float] | None = None) -> dict:
        assert v == view
        world = sample_world(v, rng, infer=infer, prior=prior)
        hidden = sorted([c for s, p in enumerate(world["players"]) if s != seat
                         for c in p["hand"]] + world["deck"])
        assert hidden == unseen
        seen_worlds.append(world)
        return world

    monkeypatch.setattr(hard, "sample_world", spy)
    # A play decision with several candidates, so the search really runs.
    while not (state["turn"] == seat and state["phase"] == "play" and state["plays_left"]):
        state = engine.apply(state, to_decide(state)[0],
                             decide(state, to_decide(state)[0], "medium")).state
        seat = to_decide(state)[0]
        view = engine.view(state, seat)
        unseen = sorted(unseen_cards(view))
    _, info = hard.search(view, 0.3)
    assert info["candidates"] > 1
    # Every world searched, by the one-turn preselection and by the game playouts, came through
    # the spy (one more for each if the deadline cut a round short).
    searched = info["worlds"] + info.get("preselect_worlds", 0)
    assert 1 <= searched <= len(seen_worlds) <= searched + 2
