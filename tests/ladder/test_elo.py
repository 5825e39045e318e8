"""Multiplayer Elo, checked against numbers worked out by hand."""

from __future__ import annotations

import pytest

from ladder.elo import Entrant, expected_score, k_factor, rating_changes


def test_expected_score_is_the_textbook_elo_expectation() -> None:
    # 1 / (1 + 10^(-200/400)) = 1 / (1 + 0.316228) = 0.759747
    assert expected_score(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    assert expected_score(1400, 1600) == pytest.approx(0.240253, abs=1e-6)
    assert expected_score(1500, 1500) == 0.5


def test_two_players_follow_the_classic_formula() -> None:
    # Established players, K = 20: the favourite wins 20 × (1 − 0.759747) = 4.805.
    favourite, underdog = rating_changes([Entrant(1600, 30, 1), Entrant(1400, 30, 2)])
    assert favourite == pytest.approx(20 * (1 - expected_score(1600, 1400)))
    assert favourite == pytest.approx(4.805, abs=1e-3)
    assert underdog == pytest.approx(-4.805, abs=1e-3)


def test_an_upset_in_a_two_player_game_moves_more_points() -> None:
    favourite, underdog = rating_changes([Entrant(1600, 30, 2), Entrant(1400, 30, 1)])
    assert underdog == pytest.approx(15.195, abs=1e-3)  # 20 × (1 − 0.240253)
    assert favourite == pytest.approx(-15.195, abs=1e-3)


def test_three_equal_provisional_players_split_k_over_two_pairs() -> None:
    # K = 40 while provisional, divided by N − 1 = 2. Winner: 2 × (1 − ½) = 1 → +20.
    # Second: (0 − ½) + (1 − ½) = 0 → 0. Third: −1 → −20.
    changes = rating_changes([Entrant(1500, 0, 1), Entrant(1500, 3, 2), Entrant(1500, 9, 3)])
    assert changes == pytest.approx([20.0, 0.0, -20.0])


def test_a_shared_place_scores_half_a_point_each() -> None:
    # Four established players at 1500, places 1, 2, 2, 4, K / (N − 1) = 20 / 3.
    # Winner: 3 × ½ = 1.5 → +10. The tied pair: (0 − ½) + (½ − ½) + (1 − ½) = 0. Last: −10.
    changes = rating_changes([Entrant(1500, 50, 1), Entrant(1500, 50, 2),
                              Entrant(1500, 50, 2), Entrant(1500, 50, 4)])
    assert changes == pytest.approx([10.0, 0.0, 0.0, -10.0])


def test_three_players_of_different_ratings_worked_by_hand() -> None:
    # 1300 wins, 1700 second, 1500 third; all established, K / (N − 1) = 10.
    # 1300: (1 − 1/11) + (1 − 0.240253) = 1.668838 → +16.688
    # 1700: (0 − 10/11) + (1 − 0.759747) = −0.668838 → −6.688
    # 1500: (0 − 0.759747) + (0 − 0.240253) = −1 → −10
    changes = rating_changes([Entrant(1300, 40, 1), Entrant(1700, 40, 2),
                              Entrant(1500, 40, 3)])
    assert changes == pytest.approx([16.688, -6.688, -10.0], abs=1e-3)
    assert sum(changes) == pytest.approx(0.0)


def test_provisional_players_move_twice_as_far() -> None:
    assert k_factor(0) == 40 and k_factor(9) == 40 and k_factor(10) == 20
    established, newcomer = rating_changes([Entrant(1500, 10, 1), Entrant(1500, 0, 2)])
    assert established == pytest.approx(10.0)
    assert newcomer == pytest.approx(-20.0)


def test_a_game_of_one_changes_nothing() -> None:
    assert rating_changes([Entrant(1500, 0, 1)]) == [0.0]
