"""The hard bot plays its own seat with its own weights (`hard.STYLE`) and models every other
seat as a standard medium bot, in its candidates and in its playouts alike."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from games.chudopoly import engine
from games.chudopoly.bots import hard, medium
from games.chudopoly.bots.observe import Obs, rng_for
from games.chudopoly.engine import to_decide

ODD = dataclasses.replace(medium.STANDARD, place_base=-20.0, money=2.0)


def test_the_medium_style_is_scoped_to_its_block() -> None:
    assert medium._style.get() is medium.STANDARD
    with medium.playing(ODD):
        assert medium._style.get() is ODD
        with medium.playing(medium.STANDARD):
            assert medium._style.get() is medium.STANDARD
        assert medium._style.get() is ODD
    assert medium._style.get() is medium.STANDARD


def test_playouts_give_the_bot_its_style_and_everyone_else_the_standard_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "PLAYOUT_EXACT", True)
    monkeypatch.setattr(hard, "STYLE", ODD)
    state = engine.new_game(ruleset={}, seats=3, seed=5)
    differed = 0
    for _ in range(300):
        if state["result"] is not None:
            break
        seat = to_decide(state)[0]
        view = engine.view(state, seat)
        standard = medium.choose_action(view)
        with medium.playing(ODD):
            odd = medium.decide(Obs.from_view(view), rng_for(view, "medium"))
        assert hard.policy(state, seat, me=0) == (odd if seat == 0 else standard)
        differed += seat == 0 and odd != standard
        state = engine.apply(state, seat, standard).state
    assert differed, "the odd style never changed a move: the test shows nothing"


def test_the_search_draws_its_candidates_in_its_own_style(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "STYLE", ODD)
    seen: list[medium.Style] = []
    real = hard.candidates

    def spy(o: Obs, rng: random.Random) -> list[dict[str, Any]]:
        seen.append(medium._style.get())
        return real(o, rng)

    monkeypatch.setattr(hard, "candidates", spy)
    state = engine.new_game(ruleset={}, seats=3, seed=5)
    hard.search(engine.view(state, to_decide(state)[0]), 1.0, steps=60)
    assert seen == [ODD]
    assert medium._style.get() is medium.STANDARD
