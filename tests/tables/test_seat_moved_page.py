"""The browser a seat moved away from ("Move seat", "Continue on another device") is told its
seat moved, when, and how to bring it back, instead of a private table's 404; a stranger still
gets the 404, and the page tells the old browser nothing of the game or the new device."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from tables_helpers import started_game

from games.platform import services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import Game, Seat

pytestmark = pytest.mark.django_db


def browser(viewer: Viewer) -> Client:
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.save()
    return client


def move(game: Game, old: Viewer, new: Viewer) -> None:
    token = services.seat_move_link_create(table_id=game.table_id, viewer=old)
    services.seat_move_claim(code=game.table.code, token=token, viewer=new)


def table_page(viewer: Viewer, game: Game):
    return browser(viewer).get(f"/t/{game.table.code}/")


def test_the_old_device_of_a_moved_seat_is_told_when_it_moved_and_how_to_get_it_back(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = started_game(alice, (carol, "Carol"))  # private, two people
    move(game, alice, bob)
    response = table_page(alice, game)
    html = response.content.decode()
    assert response.status_code == 200
    assert f"Your seat at table {game.table.code} moved to another device" in html
    moved_at = Seat.objects.get(table_id=game.table_id, guest_key=bob.guest_key).moved_at
    assert f'<time datetime="{moved_at.isoformat()}">' in html and '">just now (' in html
    assert "Choose <strong>Move seat to another device</strong> there" in html
    assert "The game goes on there" in html


def test_the_moved_page_tells_nothing_of_the_game_the_table_or_the_new_device(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = started_game(alice, (carol, "Carol"))
    move(game, alice, bob)
    html = table_page(alice, game).content.decode()
    assert game.table.invite_token not in html and bob.guest_key not in html
    assert "Carol" not in html and 'ws-connect' not in html and "/move/" not in html


def test_a_stranger_still_gets_the_404_of_a_code_that_does_not_exist(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = started_game(alice, (carol, "Carol"))
    move(game, alice, bob)
    stranger = Viewer(user_id=None, guest_key="guest-stranger-000000000000")
    assert table_page(stranger, game).status_code == 404
    assert Client().get(f"/t/{game.table.code}/").status_code == 404


def test_the_seat_keeps_a_digest_of_the_browser_it_left_never_its_key(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = started_game(alice, (carol, "Carol"))
    move(game, alice, bob)
    seat = Seat.objects.get(table_id=game.table_id, guest_key=bob.guest_key)
    assert seat.moved_from and alice.guest_key not in seat.moved_from
    assert len(seat.moved_from) == 64


def test_a_game_continued_on_another_device_says_to_continue_it_back(
        alice: Viewer, bob: Viewer) -> None:
    game = started_game(alice, bots=2)
    token = services.continue_link_create(table_id=game.table_id, viewer=alice)
    services.seat_move_claim(code=game.table.code, token=token, viewer=bob)
    html = table_page(alice, game).content.decode()
    assert "Choose <strong>Continue on another device</strong> there" in html
    assert "works for 24 hours" in html


def test_a_seat_moved_back_opens_the_table_again_and_the_other_device_is_told(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = started_game(alice, (carol, "Carol"))
    move(game, alice, bob)
    move(game, bob, alice)
    assert 'id="table-root"' in table_page(alice, game).content.decode()
    assert 'id="seat-moved-heading"' in table_page(bob, game).content.decode()


def test_reloading_the_moved_page_is_not_counted_as_guessing_codes(
        alice: Viewer, bob: Viewer, carol: Viewer, settings) -> None:
    settings.TABLE_MISSES_PER_CLIENT = 1
    game = started_game(alice, (carol, "Carol"))
    move(game, alice, bob)
    old = browser(alice)
    assert [old.get(f"/t/{game.table.code}/").status_code for _ in range(3)] == [200] * 3


def test_a_finished_game_says_it_is_over_without_offering_a_way_back(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = started_game(alice, (carol, "Carol"))
    move(game, alice, bob)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    html = table_page(alice, game).content.decode()
    assert "That game is no longer running" in html and "get the seat back" not in html


def test_at_a_public_table_the_old_device_watches_and_is_told_its_seat_moved(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = started_game(alice, (carol, "Carol"), is_public=True)
    move(game, alice, bob)
    html = table_page(alice, game).content.decode()
    assert 'id="seat-moved"' in html and 'id="watching"' in html
    assert 'id="seat-moved"' not in table_page(bob, game).content.decode()


def test_the_moved_page_says_how_long_ago_in_minutes_after_the_first(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = started_game(alice, (carol, "Carol"))
    move(game, alice, bob)
    Seat.objects.filter(guest_key=bob.guest_key).update(
        moved_at=timezone.now() - timedelta(minutes=7, seconds=5))
    assert ">7\xa0minutes ago (" in table_page(alice, game).content.decode()
