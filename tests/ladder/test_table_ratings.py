"""A ranked game shows it at the table: a "Rated" badge, each player's rating by their name,
and at the end each seat's change and a link to the replay; the whole numbers add up."""

from __future__ import annotations

import re
from html import unescape

import pytest
from ladder_helpers import engine_seat, matched_game, private_game, scoop_out, set_rating

from games.platform import presenters
from games.platform.identity import Viewer
from ladder.models import PlayerResult

pytestmark = pytest.mark.django_db


def _page(game, viewer: Viewer) -> dict[str, str]:
    return presenters.render_all(presenters.load_screen(game.table, viewer), oob=False)


def test_a_ranked_game_shows_the_rated_badge_and_each_players_rating(alice, bob) -> None:
    set_rating(alice, "chudopoly", 1612.4)
    set_rating(bob, "chudopoly", 1487.6)
    game = matched_game(alice, bob)
    parts = _page(game, alice)
    assert 'id="rated-badge"' in parts["status"]
    # Each name, as every seat reads it (the panel is shared: "You" is marked for its own seat
    # by CSS), stands beside its rating.
    names = {name: rating for name, rating in re.findall(
        r'class="them-mark"[^>]*>(\w+)</span>.*?</strong> <span class="rating" '
        r'title="Ladder rating">(\d+)</span>', parts["players"])}
    assert names == {"alice": "1612", "bob": "1488"}


def test_a_casual_or_private_game_shows_no_badge_and_no_ratings(alice, bob) -> None:
    for game in (matched_game(alice, bob, ranked=False), private_game(alice, bob)):
        parts = _page(game, alice)
        assert "rated-badge" not in parts["status"]
        assert 'class="rating"' not in parts["players"]


def test_the_end_shows_each_change_and_the_replay_and_the_numbers_add_up(alice, bob) -> None:
    set_rating(alice, "chudopoly", 1500.4)
    set_rating(bob, "chudopoly", 1500.4)
    game = matched_game(alice, bob)
    game = scoop_out(game, bob)
    status = _page(game, bob)["status"]
    win = PlayerResult.objects.get(record__game=game, seat=engine_seat(game, alice))
    before, after = round(win.rating_before), round(win.rating_after)
    # The text it shows: → is written as a character reference (games/platform/one_byte.py).
    assert (f"{before} → {after} (<span class=\"delta\">+{after - before}</span>)"
            in unescape(status))
    assert f'href="/ladder/games/{game.pk}/replay/"' in status
    assert 'id="rated-badge"' in status


def test_a_rating_change_is_the_difference_of_the_rounded_ratings() -> None:
    result = PlayerResult(rating_before=1500.4, rating_after=1512.6)
    assert result.rating_change == 13  # 1500 → 1513 shows +13, not +12
    assert PlayerResult(rating_before=None, rating_after=1500).rating_change is None
