"""`apply` takes an action object a shared view just listed for the same state and seat without
listing its candidates again; anything else is checked in full, and either way the result is
the same."""

from __future__ import annotations

import random

import pytest

from games.chudopoly.engine import IllegalAction, apply, new_game, to_decide, view
from games.chudopoly.engine.random_player import choose


def _states(seed: int, moves: int) -> list[dict]:
    """The states of a random five-seat game, move by move."""
    state = new_game(ruleset=None, seats=5, seed=seed)
    rng = random.Random(seed)
    out = [state]
    while state["result"] is None and len(out) < moves:
        seat = to_decide(state)[0]
        state = apply(state, seat, choose(state, seat, rng)).state
        out.append(state)
    return out


def test_every_listed_action_applies_as_its_copy_from_elsewhere_does() -> None:
    for state in _states(7, 60):
        seat = to_decide(state)[0]
        for action in view(state, seat, shared=True)["legal"]:
            if action["type"] in ("pay", "discard"):
                continue
            shown = apply(state, seat, action)
            copied = apply(state, seat, {k: v[:] if isinstance(v, list) else v
                                         for k, v in action.items()})
            assert shown.state == copied.state
            assert shown.events == copied.events


def test_applying_a_listed_action_leaves_the_listed_object_as_it_was() -> None:
    state = _states(3, 1)[0]
    seat = to_decide(state)[0]
    listed = view(state, seat, shared=True)["legal"]
    before = [dict(a) for a in listed]
    for action in listed:
        apply(state, seat, action)
    assert [dict(a) for a in listed] == before


def test_an_action_listed_for_another_state_is_checked_in_full() -> None:
    states = _states(11, 40)
    first = states[0]
    seat = to_decide(first)[0]
    bank = next(a for a in view(first, seat, shared=True)["legal"] if a["type"] == "bank")
    # Another seat's turn: the same object is no longer this seat's to play.
    later = next(s for s in states if s["phase"] == "play" and s["turn"] != seat)
    view(later, to_decide(later)[0], shared=True)
    with pytest.raises(IllegalAction):
        apply(later, seat, bank)


def test_an_action_listed_for_another_seat_is_checked_in_full() -> None:
    state = _states(5, 1)[0]
    seat = to_decide(state)[0]
    bank = next(a for a in view(state, seat, shared=True)["legal"] if a["type"] == "bank")
    with pytest.raises(IllegalAction):
        apply(state, (seat + 1) % 5, bank)


@pytest.mark.parametrize("pure", [False, True])
def test_a_shared_view_lists_a_turns_plays_as_legal_actions_does(pure: bool) -> None:
    # A shared view takes a turn's plays from lists kept per position of the boards; they
    # must read as the generator's own list at every decision, whatever came before.
    from games.chudopoly.engine import legal_actions

    for seed in (2, 9):
        state = new_game(ruleset={"pureSetRequired": pure}, seats=5, seed=seed)
        rng = random.Random(seed)
        while state["result"] is None:
            seat = to_decide(state)[0]
            assert view(state, seat, shared=True)["legal"] == legal_actions(state, seat)
            state = apply(state, seat, choose(state, seat, rng)).state


def test_a_banking_leaves_the_other_cards_plays_as_the_objects_listed_before() -> None:
    for state in _states(13, 200):
        seat = to_decide(state)[0]
        if state["phase"] != "play" or state["plays_left"] < 2:
            continue
        listed = view(state, seat, shared=True)["legal"]
        bank = next((a for a in listed if a["type"] == "bank"), None)
        if bank is None or not any(a.get("card") not in (None, bank["card"]) for a in listed):
            continue
        after = apply(state, seat, bank).state
        again = view(after, seat, shared=True)["legal"]
        kept = [a for a in listed if a["type"] not in ("end_turn", "scoop")
                and a.get("card") != bank["card"]]
        assert [id(a) for a in again if a["type"] not in ("end_turn", "scoop")] == \
            [id(a) for a in kept]
        return
    raise AssertionError("no turn banked a card with other plays listed")


def test_a_listed_action_changed_in_place_by_its_reader_is_checked_in_full() -> None:
    # A bot holds the very objects its view listed: editing one (here a banking, made to bank
    # a property, which the rules forbid) must not pass as what was listed.
    from games.chudopoly.engine.state import catalogue_for

    for state in _states(17, 200):
        seat = to_decide(state)[0]
        if state["phase"] != "play":
            continue
        cat = catalogue_for(state)
        hand = state["players"][seat]["hand"]
        prop = next((c for c in hand if cat.is_property[c]), None)
        listed = view(state, seat, shared=True)["legal"]
        bank = next((a for a in listed if a["type"] == "bank"), None)
        if prop is None or bank is None:
            continue
        listed_card = bank["card"]
        bank["card"] = prop
        try:
            with pytest.raises(IllegalAction, match="cannot be banked"):
                apply(state, seat, bank)
        finally:
            bank["card"] = listed_card  # the object is kept for later views of such boards
        # Changed back, it reads as listed again and applies.
        banked = apply(state, seat, bank).state
        assert listed_card in banked["players"][seat]["bank"]
        return
    raise AssertionError("no turn had both a property and a card to bank")
