"""The hard bot's "adaptive" horizon: playouts run a whole round only while the final approach
is in play, where the opponents' replies decide the game."""

from __future__ import annotations

import pytest

from games.chudopoly.bots import hard
from games.chudopoly.bots.observe import Obs
from games.chudopoly.engine import scenario

TWO_SETS = {"orange": ["Nellis AFB", "Eglin AFB", "Edwards AFB"],
            "brown": ["Creech AFB", "Cannon AFB"]}
THREE_SETS = {**TWO_SETS,
              "yellow": ["KC-135 Stratotanker", "C-17 Globemaster III", "C-130 Hercules"]}


def horizon(monkeypatch: pytest.MonkeyPatch, **table: object) -> str:
    monkeypatch.setattr(hard, "HORIZON", "adaptive")
    state = scenario(seats=3, **table)
    return hard.horizon_for(Obs.from_state(state, 0, legal=[]))


def test_early_in_the_game_playouts_stop_at_the_end_of_the_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert horizon(monkeypatch, boards={0: {"brown": ["Creech AFB"]}}) == "turn"


def test_one_set_short_of_arming_playouts_run_a_round(monkeypatch: pytest.MonkeyPatch) -> None:
    assert horizon(monkeypatch, boards={0: TWO_SETS}) == "round"


def test_while_an_opponent_is_armed_playouts_run_a_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert horizon(monkeypatch, boards={1: THREE_SETS}, armed={1: 1}) == "round"


def test_a_fixed_horizon_is_kept_as_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "HORIZON", "turn")
    state = scenario(seats=3, boards={1: THREE_SETS}, armed={1: 1})
    assert hard.horizon_for(Obs.from_state(state, 0, legal=[])) == "turn"
