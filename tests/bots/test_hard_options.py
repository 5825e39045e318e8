"""Hard-bot options that are off by default: searching discards, and fitting the leaf model on
games the hard bot itself plays (`evalfit.collect` with a lineup)."""

from __future__ import annotations

import random

import pytest

from games.chudopoly.bots import evalfit, hard
from games.chudopoly.bots.observe import Obs
from games.chudopoly.engine import apply, scenario, view
from games.chudopoly.engine.legal import discard_problem

HAND = ["money:1", "money:1", "money:2", "money:3", "pcs_orders", "opsec", "chud", "rent_any",
        "Osan AB", "finance_office"]


def discard_state() -> dict:
    state = scenario(seats=3, hands={0: HAND, 1: ["money:4"], 2: ["opsec"]}, plays_left=0)
    state = apply(state, 0, {"type": "end_turn"}).state
    assert state["phase"] == "discard"
    return state


def test_discards_are_left_to_the_medium_bot_by_default() -> None:
    o = Obs.from_view(view(discard_state(), 0))
    assert len(hard.candidates(o, random.Random(0))) == 1


def test_discard_candidates_are_distinct_legal_selections(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(hard, "SEARCH_DISCARDS", True)
    state = discard_state()
    o = Obs.from_view(view(state, 0))
    cands = hard.candidates(o, random.Random(0))
    assert 1 < len(cands) <= hard.DISCARD_CANDIDATES
    names = {tuple(sorted(o.cat.cards[c].name for c in a["cards"])) for a in cands}
    assert len(names) == len(cands)  # two 1M notes are one choice
    for a in cands:
        assert a["type"] == "discard" and discard_problem(state, 0, a["cards"]) is None
    action, _ = hard.search(view(state, 0), 0.5, steps=200)
    assert action in cands


def test_the_leaf_can_be_fitted_on_games_the_hard_bot_plays() -> None:
    rows = evalfit.collect(1, [4], 90_000, lineup=["hard", "medium", "medium", "medium"],
                           budget=0.01)
    assert rows and all(len(feats) == 4 and 0 <= win < 4 for feats, win in rows)
    assert all(len(f) == len(evalfit.FEATURES) for feats, _ in rows for f in feats)
