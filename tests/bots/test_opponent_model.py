"""The hard bot's opponent model (off by default, `hard.OPPONENT_MODEL`): a seat that let an
armed player pass holds no breaker, and sampled worlds deal it none while that can be met."""

from __future__ import annotations

import random

from games.chudopoly import engine
from games.chudopoly.bots import hard
from games.chudopoly.bots.determinize import (
    BREAKERS,
    inferred_absent,
    sample_world,
    turn_seats,
    unseen_cards,
    visible_cards,
)
from games.chudopoly.engine import scenario
from games.chudopoly.engine.cards import catalogue

THREE_SETS = {"yellow": ["KC-135 Stratotanker", "C-17 Globemaster III", "C-130 Hercules"],
              "orange": ["Nellis AFB", "Eglin AFB", "Edwards AFB"],
              "brown": ["Creech AFB", "Cannon AFB"]}


def armed_table(turn_number: int = 4, board: dict | None = None, rest: str = "deck",
                hands: dict | None = None) -> dict:
    """Four seats; seat 1 armed at turn 1 on `board`; seat 0 to move at `turn_number` (turn 1
    was seat 1's, so with the default turns 2 and 3 were seats 2's and 3's)."""
    hands = hands or {0: ["money:1"], 2: ["money:2", "money:3"], 3: ["money:4"]}
    return scenario(seats=4, hands=hands, boards={1: board or THREE_SETS}, armed={1: 1},
                    turn=0, turn_number=turn_number, order=[1, 2, 3, 0], rest=rest)


def test_past_turns_are_mapped_back_to_their_seats() -> None:
    view = engine.view(armed_table(), 0)
    assert turn_seats(view, 1) == {1: 1, 2: 2, 3: 3}


def test_seats_that_let_an_armed_player_pass_hold_no_breaker() -> None:
    view = engine.view(armed_table(), 0)
    assert inferred_absent(view) == {2: BREAKERS, 3: BREAKERS}


def test_no_inference_before_anyone_has_had_a_turn_since_the_arming() -> None:
    view = engine.view(armed_table(turn_number=2), 0)  # seat 0 moves right after seat 1
    assert inferred_absent(view) == {}


def test_no_inference_when_one_shot_would_not_break_the_approach() -> None:
    four = {**THREE_SETS, "darkblue": ["The Pentagon", "Air Force One"]}
    view = engine.view(armed_table(board=four), 0)
    assert inferred_absent(view) == {}


def test_constrained_worlds_deal_only_unseen_cards_to_the_known_counts() -> None:
    state = armed_table()
    view = engine.view(state, 0)
    key = catalogue(view["ruleset"]["deck"]).key
    unseen = sorted(unseen_cards(view))
    for i in range(20):
        world = sample_world(view, random.Random(i), infer=True)
        assert not engine.check_invariants(world)
        assert engine.view(world, 0) | {"legal": None} == view | {"legal": None}
        hidden = sorted([c for s in (1, 2, 3) for c in world["players"][s]["hand"]]
                        + world["deck"])
        assert hidden == unseen and not set(hidden) & visible_cards(view)
        for s in (2, 3):
            hand = world["players"][s]["hand"]
            assert len(hand) == len(state["players"][s]["hand"])
            assert not any(key[c] in BREAKERS for c in hand)


def test_without_the_inference_the_worlds_are_dealt_as_before() -> None:
    view = engine.view(armed_table(), 0)
    plain = [sample_world(view, random.Random(i)) for i in range(5)]
    assert plain == [sample_world(view, random.Random(i), infer=False) for i in range(5)]
    key = catalogue(view["ruleset"]["deck"]).key
    # Unconstrained, breakers do land in those hands (so the constraint above is doing work).
    dealt = [c for i in range(200) for s in (2, 3)
             for c in sample_world(view, random.Random(i))["players"][s]["hand"]]
    assert any(key[c] in BREAKERS for c in dealt)


def test_an_unmeetable_constraint_falls_back_to_plain_dealing() -> None:
    # Everything not placed is in seat 3's hand, breakers included: no deal can keep them
    # out of it, so the world is dealt without the constraint (and is still consistent).
    state = armed_table(rest="hand:3", hands={0: ["money:1"]})
    view = engine.view(state, 0)
    assert inferred_absent(view) == {2: BREAKERS, 3: BREAKERS}
    world = sample_world(view, random.Random(0), infer=True)
    assert not engine.check_invariants(world)
    assert sorted(world["players"][3]["hand"]) == sorted(state["players"][3]["hand"])


def test_the_search_reads_the_view_only_with_the_model_on(monkeypatch) -> None:
    monkeypatch.setattr(hard, "OPPONENT_MODEL", True)
    state = armed_table(hands={0: ["money:1", "inspector_general", "property:red"],
                               2: ["money:2"], 3: ["money:4"]})
    # The same table with seat 2's card and the deck's top card swapped: the view is the
    # same, so the move must be too.
    twin = {**state, "players": [dict(p, hand=p["hand"][:]) for p in state["players"]],
            "deck": state["deck"][:]}
    twin["players"][2]["hand"][0], twin["deck"][-1] = state["deck"][-1], \
        state["players"][2]["hand"][0]
    assert engine.view(twin, 0) == engine.view(state, 0)
    assert hard.search(engine.view(state, 0), 0.5, steps=300)[0] == \
        hard.search(engine.view(twin, 0), 0.5, steps=300)[0]
