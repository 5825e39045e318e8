"""A guest who signs up (or logs in) keeps the games and seats of that browser."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.platform import services as tables
from games.platform.identity import GUEST_SESSION_KEY, Viewer, viewer_from_request
from games.platform.models import Seat
from ladder.models import PlayerResult

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


def _guest(client: Client) -> Viewer:
    client.get(reverse("ladder:queue"))  # any page that gives the browser a guest identity
    return Viewer(user_id=None, guest_key=client.session[GUEST_SESSION_KEY])


def _finished_game_with(guest: Viewer, other: Viewer) -> int:
    table = tables.table_create(viewer=guest, name="Gus", ruleset_spec={"preset": "blitz"},
                                max_seats=2)
    tables.seat_join(table_id=table.pk, viewer=other, name="Olga")
    game = tables.game_start(table_id=table.pk, viewer=guest)
    seat = next(s.game_seat for s in Seat.objects.filter(table=table) if other.owns(s))
    from games.platform.interface import get_game

    engine = get_game("chudopoly")
    while True:
        game.refresh_from_db()
        if game.status == "finished":
            return game.pk
        deciding = engine.to_decide(game.state)[0]
        action = ({"type": "scoop"} if deciding == seat
                  else {"type": "end_turn"} if {"type": "end_turn"} in engine.legal_actions(
                      game.state, deciding)
                  else engine.legal_actions(game.state, deciding)[0])
        tables.table_apply_action(game_id=game.pk, seat=deciding, action=action,
                                  expected_version=game.version)


def test_signing_up_keeps_the_guests_finished_games_and_open_seats(client: Client) -> None:
    guest = _guest(client)
    olga = Viewer(user_id=None, guest_key="guest-olga-00000000000000000")
    game_id = _finished_game_with(guest, olga)
    open_table = tables.table_create(viewer=guest, name="Gus", ruleset_spec=None)
    assert PlayerResult.objects.get(record__game_id=game_id, guest_key=guest.guest_key)

    client.post(reverse("accounts:signup"), {"username": "gus", "password1": PASSWORD,
                                             "password2": PASSWORD})
    user = get_user_model().objects.get(username="gus")
    mine = PlayerResult.objects.get(record__game_id=game_id, user=user)
    assert mine.guest_key is None and mine.placement == 1
    assert Seat.objects.get(table=open_table, name="Gus").user_id == user.pk
    # The account now sees both on its pages, and owns the seat at the open table.
    history = client.get(reverse("ladder:history"))
    assert f'href="/ladder/games/{game_id}/replay/"'.encode() in history.content
    profile = client.get(reverse("accounts:profile_detail", args=["gus"]))
    assert b"Olga" in profile.content
    request = history.wsgi_request
    assert viewer_from_request(request).owns(Seat.objects.get(table=open_table, name="Gus"))


def test_logging_in_from_a_guest_browser_also_keeps_its_games(client: Client) -> None:
    get_user_model().objects.create_user(username="hana", password=PASSWORD)
    guest = _guest(client)
    game_id = _finished_game_with(guest, Viewer(user_id=None, guest_key="guest-x-000000000"))
    client.post(reverse("accounts:login"), {"username": "hana", "password": PASSWORD})
    assert PlayerResult.objects.get(record__game_id=game_id, seat__isnull=False,
                                    user__username="hana")
