"""The generator and `apply` agree: everything listed is accepted, anything else is refused
with a reason and leaves the state as it was."""

from __future__ import annotations

import copy
import random

import pytest

from games.boardroom.engine import (
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    problem,
    to_decide,
)
from games.boardroom.engine.random_player import choose, concrete

JUNK = [
    {"type": "roll", "extra": 1}, {"type": "buy", "tile": 41}, {"type": "buy", "tile": "3"},
    {"type": "bid", "amount": 1}, {"type": "build", "tile": None}, {"type": "close", "tile": -1},
    {"type": "sell_bank", "tile": 5}, {"type": "answer", "accept": "yes"},
    {"type": "propose", "kind": "swap", "to": 9, "take": 1, "give": None, "cash": 10},
    {"type": "propose", "kind": "sell", "to": 1, "give": 5, "cash": -5},
    {"type": "auction_own", "tile": 5, "start": 1}, {"type": "end_turn", "now": True},
    {}, {"type": None}, {"type": "lot_expired"}, {"type": "give_up"},
]


@pytest.mark.parametrize("seed", range(3))
def test_listed_actions_are_accepted_and_junk_is_refused_without_change(seed: int) -> None:
    st = new_game(seats=3, seed=seed, bots=[seed % 2 == 0, True, False], turn_cap=120,
                  cap_people=True)
    rng = random.Random(seed)
    while st["phase"] != "finished":
        seat = to_decide(st)[0]
        legal = legal_actions(st, seat)
        for a in legal:
            if a["type"] in ("propose", "auction_own"):
                c = concrete(a, rng)
                why = problem(st, seat, c)
                assert why is None or "refused" in why or "declined" in why, (c, why)
            else:
                assert problem(st, seat, a) is None, a
        frozen = copy.deepcopy(st)
        for junk in JUNK:
            for who in (seat, (seat + 1) % 3):
                if junk in legal and who == seat:
                    continue
                with pytest.raises(IllegalAction) as exc:
                    apply(st, who, junk)
                assert exc.value.reason
        assert st == frozen
        st = apply(st, seat, choose(st, seat, legal, rng)).state


def test_a_listed_action_edited_in_place_is_checked_again() -> None:
    from games.boardroom.engine import scenario

    from .helpers import act

    st = act(act(scenario(dice=[(1, 2)]), 0, "roll"), 0, "decline", tile=3)
    bid = legal_actions(st, 0)[0]
    bid["amount"] = 5
    with pytest.raises(IllegalAction, match="exactly 45"):
        apply(st, 0, bid)
