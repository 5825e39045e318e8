"""GET /api/games/user/<name> and /api/game/export/<id>: finished games, never running ones."""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_helpers import api_get, api_post, game_path, make_account, make_token, seated_game
from django.test import Client

from games.platform.models import Game

pytestmark = pytest.mark.django_db


def _finished_boardroom(user: Any, secret: str) -> Game:
    """Against one bot, resigning Boardroom ends the game."""
    game = seated_game(user, kind="boardroom", bots=1)
    assert api_post(Client(), game_path(game, "resign"), secret).status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_an_accounts_finished_games_come_one_a_line_newest_first(alice: Any,
                                                                 alice_secret: str) -> None:
    first = _finished_boardroom(alice, alice_secret)
    second = _finished_boardroom(alice, alice_secret)
    seated_game(alice)  # running: not exported
    reader = make_token(make_account("reader"), scopes=("game:read",))
    response = api_get(Client(), "/api/games/user/ALICE", reader)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in response.content.decode().splitlines()]
    assert [g["game_id"] for g in lines] == [second.pk, first.pk]
    assert lines[0]["format"] == "chudopoly-game" and lines[0]["game_kind"] == "boardroom"
    assert lines[0]["seed"] == second.seed and lines[0]["result"] == second.result
    one = api_get(Client(), "/api/games/user/alice?max=1&game=boardroom", reader)
    assert len(one.content.decode().splitlines()) == 1
    none = api_get(Client(), "/api/games/user/alice?game=chudopoly", reader)
    assert none.status_code == 200 and none.content == b""


def test_one_finished_game_is_exported_and_a_running_one_is_not(alice: Any,
                                                               alice_secret: str) -> None:
    done = _finished_boardroom(alice, alice_secret)
    running = seated_game(alice)
    response = api_get(Client(), f"/api/game/export/{done.pk}", alice_secret)
    assert response.status_code == 200 and response.json()["game_id"] == done.pk
    hidden = api_get(Client(), f"/api/game/export/{running.pk}", alice_secret)
    assert hidden.status_code == 404 and hidden.json()["code"] == "not_found"


@pytest.mark.parametrize(("path", "status", "code"), [
    ("/api/games/user/nobody", 404, "no_such_account"),
    ("/api/games/user/alice?max=0", 400, "bad_request"),
    ("/api/games/user/alice?max=301", 400, "bad_request"),
    ("/api/games/user/alice?max=x", 400, "bad_request"),
    ("/api/games/user/alice?game=chess", 400, "bad_game"),
])
def test_bad_export_requests_are_json_errors(alice_secret: str, path: str, status: int,
                                             code: str) -> None:
    response = api_get(Client(), path, alice_secret)
    assert response.status_code == status and response.json()["code"] == code


def test_exports_need_the_game_read_scope(alice: Any) -> None:
    player = make_token(alice, scopes=("bot:play",))
    response = api_get(Client(), "/api/games/user/alice", player)
    assert response.status_code == 403 and response.json()["code"] == "missing_scope"
