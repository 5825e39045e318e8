"""The hard bot's forecast of a final approach: who would shoot an armed player down, given
every hand and the deck of one sampled world."""

from __future__ import annotations

import pytest

from games.chudopoly.bots import hard
from games.chudopoly.engine import scenario

THREE_SETS = {"yellow": ["KC-135 Stratotanker", "C-17 Globemaster III", "C-130 Hercules"],
              "orange": ["Nellis AFB", "Eglin AFB", "Edwards AFB"],
              "brown": ["Creech AFB", "Cannon AFB"]}
FOUR_SETS = {**THREE_SETS, "darkblue": ["The Pentagon", "Air Force One"]}


def armed_seat_one(hand: list[str], board: dict, bank: list[str] | None = None,
                   armed_hand: list[str] | None = None) -> dict:
    """Seat 1 is armed (holding `armed_hand`); seat 0, to move, holds `hand`; nothing is left
    to draw."""
    return scenario(seats=3, hands={0: hand, 1: armed_hand or []}, boards={1: board},
                    banks={1: bank or []}, armed={1: 1}, rest="discard")


def test_a_breaker_in_an_opponents_hand_shoots_an_armed_player_down() -> None:
    assert hard.approach_forecast(armed_seat_one(["chud"], THREE_SETS)) == (None, {1: 0})


def test_an_armed_player_with_nobody_to_shoot_it_converts() -> None:
    assert hard.approach_forecast(armed_seat_one(["money:1"], THREE_SETS)) == (1, {})


@pytest.mark.parametrize("spare, expected", [(True, (1, {})), (False, (None, {1: 0}))])
def test_a_set_beyond_the_target_absorbs_one_shot_when_spares_count(
        monkeypatch: pytest.MonkeyPatch, spare: bool, expected: tuple) -> None:
    monkeypatch.setattr(hard, "FORECAST_SPARE", spare)
    monkeypatch.setattr(hard, "FORECAST_HAND_ONCE", True)
    assert hard.approach_forecast(armed_seat_one(["chud"], FOUR_SETS)) == expected


@pytest.mark.parametrize("bank, expected", [([], (None, {1: 0})), (["money:5"], (1, {}))])
def test_a_charge_only_a_set_can_pay_counts_as_a_shot_when_charges_count(
        monkeypatch: pytest.MonkeyPatch, bank: list[str], expected: tuple) -> None:
    monkeypatch.setattr(hard, "FORECAST_CHARGES", True)
    assert hard.approach_forecast(armed_seat_one(["finance_office"], THREE_SETS, bank)) \
        == expected


def test_a_breaker_blocked_by_opsec_does_not_shoot_again_next_lap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = armed_seat_one(["chud"], THREE_SETS, armed_hand=["opsec"])
    monkeypatch.setattr(hard, "FORECAST_HAND_ONCE", True)
    assert hard.approach_forecast(state) == (1, {})


def test_charges_are_not_shots_unless_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "FORECAST_CHARGES", False)
    assert hard.approach_forecast(armed_seat_one(["finance_office"], THREE_SETS)) == (1, {})
