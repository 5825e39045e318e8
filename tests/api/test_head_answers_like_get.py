"""HEAD is GET without the body: every /api/ endpoint that answers a GET answers a HEAD with
the same status and headers (a monitor's or a proxy's probe), and a HEAD of a stream opens no
stream and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import bearer, engine_seat_of, seated_game
from django.test import Client
from django.urls import URLPattern

from games.api import urls
from games.platform.models import Seat

pytestmark = pytest.mark.django_db
STREAMS = {"stream/event", "bot/game/stream/<str:ref>"}


def _get_endpoints() -> list[URLPattern]:
    return [p for p in urls.urlpatterns
            if "GET" in getattr(p.callback, "api_methods", ())]


def _url(pattern: URLPattern, values: dict[str, Any]) -> str:
    path = str(pattern.pattern)
    for name, value in values.items():
        path = path.replace(f"<str:{name}>", str(value)).replace(f"<int:{name}>", str(value))
    return f"/api/{path}"


def test_every_api_endpoint_that_answers_get_answers_head_alike_without_a_body(
        alice: Any, alice_secret: str) -> None:
    game = seated_game(alice, kind="boardroom", bots=1)
    values = {"username": "alice", "game_id": game.pk, "ref": game.table.code}
    endpoints = _get_endpoints()
    assert len(endpoints) >= 6
    for pattern in endpoints:
        url = _url(pattern, values)
        for who in (Client(), Client(**bearer(alice_secret))):
            head = who.head(url)
            assert head.status_code != 405 and head.content == b"", url
            if str(pattern.pattern) in STREAMS and head.status_code == 200:
                assert head["Content-Type"] == "application/x-ndjson", url
                continue  # its GET streams for as long as it is read
            get = who.get(url)
            assert head.status_code == get.status_code, url
            assert head["Content-Type"] == get["Content-Type"], url


def test_a_wrong_method_s_refusal_names_head_beside_get(alice_secret: str) -> None:
    response = Client(**bearer(alice_secret)).put("/api/account")
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"


def test_a_head_of_a_game_stream_leaves_an_away_seat_to_the_bot_holding_it(
        alice: Any, alice_secret: str) -> None:
    game = seated_game(alice, kind="boardroom", bots=1)
    Seat.objects.filter(table_id=game.table_id, user_id=alice.pk).update(
        away=True, away_reason="left")
    head = Client(**bearer(alice_secret)).head(f"/api/bot/game/stream/{game.table.code}")
    assert head.status_code == 200 and engine_seat_of(game, alice) is not None
    assert Seat.objects.get(table_id=game.table_id, user_id=alice.pk).away
