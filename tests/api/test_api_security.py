"""The bot API refuses what it must, each with a clear JSON error and no change to any game:
revoked and wrong-scope tokens, another account's game, another seat, a spectator, a forged
decision token, oversized and malformed bodies."""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_helpers import (
    api_get,
    api_post,
    engine_seat_of,
    first_move_body,
    game_path,
    make_account,
    make_token,
    seated_at_a_decision,
    seated_game,
    stream_state,
    until_seat_decides,
)
from django.test import Client

from accounts.api_tokens import token_for_secret, token_revoke
from games.platform.models import ChatMessage, Game, GameAction, Seat

pytestmark = pytest.mark.django_db
ENDPOINTS = ("move", "chat", "resign")


def _snapshot(game: Game) -> tuple[Any, ...]:
    fresh = Game.objects.get(pk=game.pk)
    return (fresh.version, fresh.status, GameAction.objects.filter(game=game).count(),
            ChatMessage.objects.filter(table_id=game.table_id).count(),
            tuple(Seat.objects.filter(table_id=game.table_id).values_list("away", flat=True)))


def _bodies(game: Game, seat: int) -> dict[str, dict[str, Any]]:
    return {"move": first_move_body(stream_state(game, seat)), "chat": {"text": "hi"}, "resign": {}}


def _refused_everywhere(game: Game, secret: str, status: int, code: str,
                        bodies: dict[str, dict[str, Any]]) -> None:
    before = _snapshot(game)
    client = Client()
    for what in ENDPOINTS:
        response = api_post(client, game_path(game, what), secret, bodies[what])
        assert response.status_code == status, (what, response.content)
        assert response.json()["code"] == code and response.json()["error"], what
    stream = api_get(client, f"/api/bot/game/stream/{game.pk}", secret)
    assert stream.status_code == status and stream.json()["code"] == code
    assert _snapshot(game) == before


@pytest.fixture
def ready(alice: Any) -> tuple[Game, int]:
    return seated_at_a_decision(alice, kind="boardroom")


def test_a_revoked_token_is_refused_everywhere(alice: Any, alice_secret: str,
                                               ready: tuple[Game, int]) -> None:
    game, seat = ready
    bodies = _bodies(game, seat)
    token_revoke(user_id=alice.pk, token_id=token_for_secret(alice_secret).pk)
    _refused_everywhere(game, alice_secret, 401, "revoked_token", bodies)


def test_a_token_without_bot_play_is_refused_everywhere(alice: Any,
                                                        ready: tuple[Game, int]) -> None:
    game, seat = ready
    reader = make_token(alice, scopes=("game:read",))
    _refused_everywhere(game, reader, 403, "missing_scope", _bodies(game, seat))


def test_another_accounts_game_is_refused_everywhere(ready: tuple[Game, int]) -> None:
    """Mallory's token, at a table where she holds no seat (a spectator's, too)."""
    game, seat = ready
    mallory = make_account("mallory")
    _refused_everywhere(game, make_token(mallory), 403, "not_seated", _bodies(game, seat))


def test_a_game_that_does_not_exist_is_a_404(alice_secret: str) -> None:
    for path in ("/api/bot/game/999999/move", "/api/bot/game/ZZZZ/chat",
                 "/api/bot/game/stream/999999", "/api/bot/game/a%20b/resign"):
        if "stream" in path:
            response = api_get(Client(), path, alice_secret)
        else:
            response = api_post(Client(), path, alice_secret,
                                {"action": {"type": "roll"}, "version": 0, "text": "hi"})
        assert response.status_code == 404 and response.json()["code"] == "not_found", path


def test_moving_for_another_seat_at_the_table_is_refused(alice: Any, alice_secret: str) -> None:
    bob = make_account("bob")
    game = seated_game(alice, kind="boardroom", bots=0, others=[bob])
    mine, his = engine_seat_of(game, alice), engine_seat_of(game, bob)
    game = until_seat_decides(game, his)
    before = _snapshot(game)
    body = first_move_body(stream_state(game, his))
    # The seat is the token's: naming Bob's is refused, and his move is not Alice's to make.
    named = api_post(Client(), game_path(game, "move"), alice_secret, {**body, "seat": his})
    assert named.status_code == 403 and named.json()["code"] == "forged"
    played = api_post(Client(), game_path(game, "move"), alice_secret, body)
    assert played.status_code == 400 and played.json()["code"] == "not_your_turn"
    assert _snapshot(game) == before and mine != his


def test_a_forged_decision_token_does_not_revive_an_old_version(alice: Any,
                                                                alice_secret: str) -> None:
    game, seat = seated_at_a_decision(alice, kind="chudopoly")
    state = stream_state(game, seat)
    assert api_post(Client(), game_path(game, "move"), alice_secret,
                    first_move_body(state)).status_code == 200
    game = until_seat_decides(game, seat)
    before = _snapshot(game)
    now = stream_state(game, seat)
    for token in ("0" * 16, "forged", now["decision_token"][::-1]):
        body = {"action": now["legal_actions"][0], "version": state["version"],
                "decision_token": token}
        response = api_post(Client(), game_path(game, "move"), alice_secret, body)
        assert response.status_code == 409 and response.json()["code"] in ("stale", "duplicate")
    assert _snapshot(game) == before


@pytest.mark.parametrize("what", ENDPOINTS)
def test_an_oversized_body_is_a_413_that_changes_nothing(alice_secret: str,
                                                         ready: tuple[Game, int],
                                                         what: str) -> None:
    game, _seat = ready
    before = _snapshot(game)
    raw = json.dumps({"text": "x" * 9000, "action": {"type": "roll"}, "version": 0}).encode()
    response = api_post(Client(), game_path(game, what), alice_secret, raw=raw)
    assert response.status_code == 413 and response.json()["code"] == "too_large"
    assert _snapshot(game) == before


@pytest.mark.parametrize("raw", [b"", b"{", b"null", b"[]", b'"roll"', b"\xff\xfe",
                                 b'{"action": {"type": "roll\\u0000"}, "version": 0}',
                                 b'{"text": "a\\u0000b"}'])
@pytest.mark.parametrize("what", ("move", "chat"))
def test_a_malformed_body_is_a_400_that_changes_nothing(alice_secret: str,
                                                        ready: tuple[Game, int], what: str,
                                                        raw: bytes) -> None:
    game, _seat = ready
    before = _snapshot(game)
    response = api_post(Client(), game_path(game, what), alice_secret, raw=raw)
    assert response.status_code == 400 and response.json()["code"] in ("bad_json",
                                                                       "bad_request")
    assert _snapshot(game) == before
