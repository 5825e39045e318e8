"""The bots decide every kind of decision from a view, deals and the Jail split included."""

from __future__ import annotations

import random

from commonwealth_helpers import act

from games.commonwealth.bots import choose_action
from games.commonwealth.engine import legal_actions, problem, scenario, view
from games.commonwealth.simulate import play_game


def test_a_bot_offers_cash_for_the_other_project_of_a_half_held_colour():
    offers = []
    for seed in range(10):
        st = scenario(managers={2: 0, 3: 1}, cash={0: 200})
        rng = random.Random(seed)
        while st["step"]["kind"] == "pre_roll" and st["turn"] == 0:
            action = choose_action(view(st, 0), "hard", rng)
            if action["type"] == "offer":
                offers.append(action)
                assert problem(st, 0, action) is None
                break
            st, _ = act(st, 0, action)
    assert offers and all(o["to"] == 1 and o["get"] == {"projects": [3]} for o in offers)


def test_a_bot_answers_a_deal_by_what_it_gains():
    st = scenario(managers={3: 1}, cash={0: 200})
    good, _ = act(st, 0, {"type": "offer", "to": 1, "give": {"cash": 150},
                          "get": {"projects": [3]}})
    bad, _ = act(st, 0, {"type": "offer", "to": 1, "give": {"cash": 1},
                         "get": {"projects": [3]}})
    assert choose_action(view(good, 1), "medium", random.Random(0)) == {"type": "accept"}
    assert choose_action(view(bad, 1), "medium", random.Random(0)) == {"type": "decline"}


def test_bots_pledge_an_even_share_of_a_jail_fee():
    st = scenario(seats=3, in_jail={0: 2}, cash={1: 100, 2: 100}, dice=[(3,)])
    st, _ = act(st, 0, {"type": "jail_roll"})
    for level in ("medium", "hard"):
        assert choose_action(view(st, 1), level, random.Random(0)) == \
            {"type": "pledge", "amount": 25}


def test_every_level_answers_every_step_with_an_action_the_engine_accepts():
    for level in ("easy", "medium", "hard"):
        rng = random.Random(3)
        st = scenario(seats=3, seed=3)
        for _ in range(400):
            if st["result"] is not None:
                break
            seat = rng.choice([s for s in range(3) if legal_actions(st, s)])
            action = choose_action(view(st, seat), level, rng)
            assert problem(st, seat, action) is None
            st, _ = act(st, seat, action)


def test_every_deal_a_bot_offers_hands_over_a_project_or_the_pardon_card():
    offers = [action for seed in range(6)
              for _, action in play_game(["hard", "medium", "hard", "medium"], seed,
                                         check=False)[1]
              if action["type"] == "offer"]
    assert offers
    for offer in offers:
        sides = [offer.get("give", {}), offer.get("get", {})]
        assert any(side.get("projects") or side.get("jail_card") for side in sides), offer
