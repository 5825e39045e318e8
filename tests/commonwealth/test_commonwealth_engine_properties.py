"""Refusals change nothing, the view hides what is hidden, replays reproduce, bots keep the
invariants, every game ends, nobody acts out of turn, timeouts always have an answer."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.commonwealth.bots import choose_action
from games.commonwealth.engine import (
    IllegalAction,
    apply,
    check_invariants,
    events_for,
    legal_actions,
    new_game,
    replay,
    scenario,
    timeout_actions,
    to_decide,
    view,
)
from games.commonwealth.engine.data import describe
from games.commonwealth.simulate import play_game

BAD_ACTIONS = [
    {"type": "roll", "extra": 1}, {"type": "develop", "project": 0}, {"type": "buy"},
    {"type": "bid", "amount": 5}, {"type": "donate", "amount": 5}, {"type": "fly"},
    {"type": "offer", "to": 0}, {"type": "offer", "to": 1, "give": {}, "get": {}},
    {"type": "accept"}, "roll", {"type": "play_card", "card": 1.0},
]


@pytest.mark.parametrize("action", BAD_ACTIONS, ids=[str(a) for a in BAD_ACTIONS])
def test_an_illegal_action_is_refused_with_a_reason_and_the_state_unchanged(action):
    st = new_game(seats=2, seed=3)
    before = copy.deepcopy(st)
    with pytest.raises(IllegalAction) as err:
        apply(st, 0, action)
    assert err.value.reason and st == before


def test_a_seat_cannot_act_out_of_turn():
    st = new_game(seats=3, seed=1)
    with pytest.raises(IllegalAction) as err:
        apply(st, 1, {"type": "roll"})
    assert "not your turn" in err.value.reason


def test_the_view_hides_the_deck_order_the_seed_and_rivals_kept_cards():
    st = scenario(seats=3, kept={0: "free_chip", 1: "swap"}, jail_card=2, seed=99)
    v = view(st, 1)
    text = json.dumps(v)
    assert "deck" not in v and "rng" not in text and "seed" not in v and "dice" not in v
    assert v["deck_count"] == len(st["deck"])
    assert v["players"][0]["kept"] is None and v["players"][0]["holds_card"]
    assert v["players"][1]["kept"]["kind"] == "swap"
    assert v["players"][2]["jail_card"]  # face up: public
    assert view(st, None)["legal"] == []


def test_cards_drawn_are_shown_only_to_the_drawer():
    st = scenario(dice=[(1, "3")], deck_top=["remove_chip"])
    applied = apply(st, 0, {"type": "roll"})
    draw = next(e for e in events_for(applied.events, 1) if e["type"] == "draw")
    assert "cards" not in draw
    assert "cards" in next(e for e in events_for(applied.events, 0) if e["type"] == "draw")
    assert view(applied.state, 1)["step"]["cards"] == []


def test_a_replay_from_seed_and_actions_reproduces_the_state_exactly():
    final, log, bad = play_game(["medium", "easy", "hard"], seed=11)
    assert bad == 0
    again = replay(ruleset=None, seats=3, seed=11, actions=log)
    assert again == final
    assert json.loads(json.dumps(again)) == again  # plain JSON


@pytest.mark.parametrize("levels", [["easy", "easy"], ["medium", "hard"],
                                    ["easy", "medium", "hard", "medium"], ["random"] * 3])
def test_seeded_bot_playouts_keep_every_invariant_and_every_game_ends(levels):
    for seed in range(8):
        final, _log, violations = play_game(levels, seed=seed, check=True)
        assert violations == 0
        assert final["result"] is not None
        assert final["result"]["end_reason"] in ("chips", "fund_dry", "cap")


def test_every_owed_decision_has_a_timeout_action_that_is_legal():
    rng = random.Random(5)
    st = new_game(seats=4, seed=5)
    while st["result"] is None:
        for seat in to_decide(st):
            acts = timeout_actions(st, seat)
            assert acts
            nxt = st
            for action in acts:  # each accepted by the engine in turn
                nxt = apply(nxt, seat, action).state
                assert check_invariants(nxt) == []
        seat = rng.choice(to_decide(st))
        st = apply(st, seat, choose_action(view(st, seat), "medium", rng)).state


def test_a_bot_acts_only_from_its_view_and_only_when_owed():
    st = new_game(seats=2, seed=2)
    with pytest.raises(ValueError):
        choose_action(view(st, 1), "medium", random.Random(0))
    assert choose_action(view(st, 0), "hard", random.Random(0)) in legal_actions(st, 0)


def test_the_data_table_is_json_readable_and_holds_the_seeds_split():
    table = json.loads(json.dumps(describe()))
    kinds = [c["category"] for c in table["cards"]]
    assert len(table["cards"]) == 44
    assert (kinds.count("keep"), kinds.count("immediate"), kinds.count("jail_free")) == \
        (32, 11, 1)
    assert len(table["projects"]) == 16 and len(table["spaces"]) == 40
    assert table["fund_start"] == 1848


@pytest.mark.parametrize("value", [1.0, True])
def test_ids_must_be_whole_numbers_not_floats_or_booleans(value):
    st = scenario(kept={0: "free_chip"}, managers={1: 1})
    cid = st["players"][0]["kept"]
    with pytest.raises(IllegalAction):
        apply(st, 0, {"type": "play_card", "card": cid, "project": value})


def _mutate(action: dict, rng: random.Random) -> dict:
    out = dict(action)
    key = rng.choice(sorted(out))
    out[key] = rng.choice([None, -1, 0, 3, 17, 39, 99, "x", [], {}, 2.5])
    return out


def test_malformed_actions_are_refused_with_a_reason_never_a_crash():
    rng = random.Random(8)
    for seed in range(6):
        st = new_game(seats=3, seed=seed)
        while st["result"] is None:
            seat = rng.choice(to_decide(st))
            for _ in range(3):
                legal = legal_actions(st, seat)
                wild = _mutate(rng.choice(legal), rng) if rng.random() < 0.7 else {
                    "type": "offer", "to": rng.choice([0, 1, 2, 5, None]),
                    "give": {"projects": [rng.randrange(-1, 17)], "cash": rng.randrange(-5, 60)},
                    "get": rng.choice([{}, {"cash": 1}, {"jail_card": True}, "nope"])}
                before = copy.deepcopy(st)
                try:
                    after = apply(st, rng.randrange(0, 4), wild).state
                except IllegalAction as err:
                    assert err.reason
                    assert st == before
                else:
                    assert check_invariants(after) == []
            st = apply(st, seat, choose_action(view(st, seat), "easy", rng)).state


def test_apply_leaves_its_input_untouched_and_a_state_loaded_from_json_plays_on_identically():
    rng = random.Random(21)
    st = new_game(seats=4, seed=21)
    while st["result"] is None:
        seat = rng.choice(to_decide(st))
        action = choose_action(view(st, seat), "hard", rng)
        before = copy.deepcopy(st)
        applied = apply(st, seat, action)
        assert st == before
        reloaded = apply(json.loads(json.dumps(st)), seat, action)
        assert reloaded.state == applied.state and reloaded.events == applied.events
        st = applied.state
