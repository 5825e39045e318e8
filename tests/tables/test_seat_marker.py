"""The seat marker: the one element of a table's screen that says whose screen it is, so panels
that read alike for every seat can be shared and still mark the viewer's own parts (CSS)."""

from __future__ import annotations

import pytest

from games.platform.presenters import seat_marker
from tests.board_game_screens import every_screen, guests, started


def test_a_seat_marker_names_the_viewers_engine_seat_and_swaps_out_of_band() -> None:
    assert seat_marker(2, oob=True) == (
        '<span id="table-me" class="table-me" hidden data-me="2" hx-swap-oob="true"></span>\n')


def test_a_watchers_marker_names_no_seat() -> None:
    assert "data-me" not in seat_marker(None, oob=False)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["chudopoly", "boardroom", "commonwealth"])
def test_every_screen_of_a_game_carries_its_own_seat_and_a_watchers_none(kind: str) -> None:
    players = guests(f"marker-{kind}")
    game = started(kind, players, ("Bea", "Cal", "Dot"))
    screens = every_screen(game, players)
    markers = [screen["me"] for screen in screens]
    # Engine seats are dealt in the order of play, not of joining: each player has one of its own.
    assert sorted(markers[:4]) == [seat_marker(n, oob=True) for n in range(4)]
    assert "data-me" not in markers[4]
