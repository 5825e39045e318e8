"""Continue at a Commonwealth game against bots: "Continue game" on the home page brings it
back in the same browser; "Continue on another device" pauses it (the bots wait too) and its
one-time link moves the game to the browser that opens it, where it goes on at once."""

from __future__ import annotations

import pytest
from commonwealth_clock_helpers import act, online, position, seat_of, vs_bots
from django.test import Client

from games.platform import services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import Seat
from games.platform.services import TableError

pytestmark = pytest.mark.django_db(transaction=True)


def browser(viewer: Viewer) -> Client:
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.save()
    return client


def test_the_home_page_offers_to_continue_this_browsers_game(alice: Viewer, bob: Viewer
                                                             ) -> None:
    game = vs_bots(alice)
    page = browser(alice).get("/").content.decode()
    assert 'id="continue-games"' in page and f"/t/{game.table.code}/" in page
    assert 'id="continue-games"' not in browser(bob).get("/").content.decode()


def test_the_link_pauses_the_game_then_moves_it_to_the_browser_opening_it(
        alice: Viewer, bob: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, dice=[(4, "2")])
    made = browser(alice).post(f"/t/{game.table.code}/continue/").content.decode()
    token = Seat.objects.get(table_id=game.table_id, is_bot=False).move_token
    assert f"/t/{game.table.code}/move/{token}/" in made
    with pytest.raises(TableError) as paused:
        act(game, me, {"type": "roll"})
    assert paused.value.code == "paused"
    assert services.schedule_bot_moves(game_id=game.pk) == 0  # the bots wait too
    other = browser(bob)
    assert other.post(f"/t/{game.table.code}/move/{token}/").status_code == 302
    assert bob.owns(Seat.objects.get(table_id=game.table_id, is_bot=False))
    page = other.get(f"/t/{game.table.code}/").content.decode()
    assert 'id="cw-board"' in page and 'id="resume-here"' not in page
    game = act(game, me, {"type": "roll"})  # it goes on at once, from where it was
    assert game.version == 1 and game.state["players"][me]["pos"] == 6
    assert services.games_to_continue(alice) == []


def test_an_online_table_has_no_continue_link(alice: Viewer, bob: Viewer) -> None:
    game = online(alice, (bob, "Bob"))
    with pytest.raises(TableError) as refused:
        services.continue_link_create(table_id=game.table_id, viewer=alice)
    assert refused.value.code == "not_bot_game"
