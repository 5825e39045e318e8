"""Continue (the guide's "Auto move and saving"): a game against bots is kept after every
action and "Continue game" on the home page brings it back in the same browser; "Continue on
another device" pauses it and makes a one-time link, valid 24 hours, that moves it to the
browser opening it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from board_clock_helpers import act, online, position, seat_of, vs_bots
from django.test import Client
from django.utils import timezone

from games.platform import services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.models import Game, Seat
from games.platform.services import TableError

pytestmark = pytest.mark.django_db(transaction=True)


def browser(viewer: Viewer) -> Client:
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.save()
    return client


def link_token(game: Game, viewer: Viewer) -> str:
    return services.continue_link_create(table_id=game.table_id, viewer=viewer)


def refused(fn: Any, **kwargs: Any) -> str:
    with pytest.raises(TableError) as exc:
        fn(**kwargs)
    return exc.value.code


def test_the_home_page_offers_to_continue_this_browsers_game_against_bots(
        alice: Viewer, bob: Viewer) -> None:
    game = vs_bots(alice)
    page = browser(alice).get("/").content.decode()
    assert 'id="continue-games"' in page and f"/t/{game.table.code}/" in page
    assert 'id="continue-games"' not in browser(bob).get("/").content.decode()


def test_an_online_game_is_not_listed_to_continue(alice: Viewer, bob: Viewer) -> None:
    online(alice, (bob, "Bob"))
    assert services.games_to_continue(alice) == []


def test_making_the_link_pauses_the_game(alice: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, phase="roll")
    link_token(game, alice)
    assert refused(services.table_apply_action, game_id=game.pk, seat=me,
                   action={"type": "roll"}, expected_version=game.version) == "paused"
    game.refresh_from_db()
    assert game.version == 0
    assert services.schedule_bot_moves(game_id=game.pk) == 0  # the bots wait too


def test_the_link_moves_the_game_to_the_browser_that_opens_it(
        alice: Viewer, bob: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, phase="roll")
    token = link_token(game, alice)
    services.seat_move_claim(code=game.table.code, token=token, viewer=bob)
    seat = Seat.objects.get(table_id=game.table_id, is_bot=False)
    assert bob.owns(seat) and not alice.owns(seat)
    game = act(game, me, {"type": "roll"})  # it goes on at once
    assert game.version == 1
    assert services.games_to_continue(alice) == []
    assert [g["table"].pk for g in services.games_to_continue(bob)] == [game.table_id]


def test_the_link_works_once(alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = vs_bots(alice)
    token = link_token(game, alice)
    services.seat_move_claim(code=game.table.code, token=token, viewer=bob)
    assert refused(services.seat_move_claim, code=game.table.code, token=token,
                   viewer=carol) == "bad_token"


def test_the_link_expires_after_24_hours(alice: Viewer, bob: Viewer) -> None:
    game = vs_bots(alice)
    token = link_token(game, alice)
    seat = Seat.objects.get(move_token=token)
    assert seat.move_token_expires - timezone.now() > timedelta(hours=23, minutes=59)
    Seat.objects.filter(pk=seat.pk).update(move_token_expires=timezone.now()
                                           - timedelta(seconds=1))
    assert refused(services.seat_move_claim, code=game.table.code, token=token,
                   viewer=bob) == "expired"
    page = browser(bob).get(f"/t/{game.table.code}/move/{token}/").content.decode()
    assert 'id="link-expired"' in page


def test_a_forged_link_is_refused_and_changes_nothing(alice: Viewer, bob: Viewer) -> None:
    game = vs_bots(alice)
    link_token(game, alice)
    assert refused(services.seat_move_claim, code=game.table.code, token="x" * 43,
                   viewer=bob) == "bad_token"
    assert alice.owns(Seat.objects.get(table_id=game.table_id, is_bot=False))


def test_resuming_here_unpauses_and_the_link_dies(alice: Viewer, bob: Viewer) -> None:
    game = vs_bots(alice)
    me = seat_of(game, alice)
    game = position(game, turn=me, phase="roll")
    token = link_token(game, alice)
    services.continue_here(table_id=game.table_id, viewer=alice)
    assert act(game, me, {"type": "roll"}).version == 1
    assert refused(services.seat_move_claim, code=game.table.code, token=token,
                   viewer=bob) == "bad_token"


def test_an_online_table_uses_move_seat_instead(alice: Viewer, bob: Viewer) -> None:
    game = online(alice, (bob, "Bob"))
    assert refused(services.continue_link_create, table_id=game.table_id,
                   viewer=alice) == "not_bot_game"


def test_the_continue_pages_make_and_claim_the_link(alice: Viewer, bob: Viewer) -> None:
    game = vs_bots(alice)
    made = browser(alice).post(f"/t/{game.table.code}/continue/").content.decode()
    token = Seat.objects.get(table_id=game.table_id, is_bot=False).move_token
    assert f"/t/{game.table.code}/move/{token}/" in made and "24 hours" in made
    other = browser(bob)
    asked = other.get(f"/t/{game.table.code}/move/{token}/").content.decode()
    assert "Continue the game here" in asked
    assert other.post(f"/t/{game.table.code}/move/{token}/").status_code == 302
    assert bob.owns(Seat.objects.get(table_id=game.table_id, is_bot=False))
    page = other.get(f"/t/{game.table.code}/").content.decode()
    assert 'id="resume-here"' not in page and 'id="continue-elsewhere"' in page


def test_the_paused_table_offers_to_resume_here(alice: Viewer) -> None:
    game = vs_bots(alice)
    link_token(game, alice)
    page = browser(alice).get(f"/t/{game.table.code}/").content.decode()
    assert 'id="resume-here"' in page


def test_leaving_a_paused_game_ends_the_pause_and_the_link(alice: Viewer, bob: Viewer) -> None:
    game = vs_bots(alice)
    token = link_token(game, alice)
    services.seat_leave(table_id=game.table_id, viewer=alice)
    game.table.refresh_from_db()
    assert game.table.paused_at is None
    assert refused(services.seat_move_claim, code=game.table.code, token=token,
                   viewer=bob) == "bad_token"
