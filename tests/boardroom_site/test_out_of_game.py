"""Out of a game the others play on (the guide: "against bots, the game ends for you as soon
as you go bankrupt"): the page shows the player's place and lets them watch the bots finish
or leave; leaving then says no more than that."""

from __future__ import annotations

import pytest
from board_clock_helpers import position, seat_of, vs_bots
from django.test import Client

from games.platform import services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def browser(viewer: Viewer) -> Client:
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.save()
    return client


def bankrupt_against_bots(viewer: Viewer) -> Game:
    """Three seats, the player the first out: bankrupt to the bank (as a missed clock does)."""
    game = vs_bots(viewer)
    me = seat_of(game, viewer)
    game = position(game, turn=me, phase="roll")
    return services.table_apply_action(game_id=game.pk, seat=me, expected_version=game.version,
                                       action={"type": "forfeit", "clock": True})


def test_the_page_shows_the_place_and_offers_to_watch_or_leave(alice: Viewer) -> None:
    game = bankrupt_against_bots(alice)
    assert game.status == Game.Status.RUNNING  # the two bots play on
    page = browser(alice).get(f"/t/{game.table.code}/").content.decode()
    assert 'id="out-of-game-result"' in page
    assert "place 3 of 3" in page and "The bots play on" in page
    assert 'id="leave-after-out"' in page
    assert 'id="auto-move"' not in page  # nothing left for it to play


def test_a_player_still_in_sees_no_result(alice: Viewer) -> None:
    game = vs_bots(alice)
    page = browser(alice).get(f"/t/{game.table.code}/").content.decode()
    assert 'id="out-of-game-result"' not in page


def test_leaving_once_out_says_only_that(alice: Viewer) -> None:
    game = bankrupt_against_bots(alice)
    client = browser(alice)
    done = client.post(f"/t/{game.table.code}/leave/", follow=True).content.decode()
    assert f"You left table {game.table.code}." in done
    assert "bankrupt to the bank" not in done
    assert services.games_to_continue(alice) == []  # nothing of theirs left to continue


def test_out_but_still_at_the_table_the_game_is_there_to_watch(alice: Viewer) -> None:
    game = bankrupt_against_bots(alice)
    assert [g["table"].pk for g in services.games_to_continue(alice)] == [game.table_id]


def test_leaving_while_still_in_says_it_put_you_out(alice: Viewer) -> None:
    game = vs_bots(alice)
    done = browser(alice).post(f"/t/{game.table.code}/leave/", follow=True).content.decode()
    assert "leaving put you out of that game (bankrupt to the bank)" in done
    game.refresh_from_db()
    assert not game.state["active"][seat_of(game, alice)]
