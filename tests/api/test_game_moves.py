"""POST /api/bot/game/<game>/move, /chat and /resign: the websocket's services, as JSON."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import (
    api_post,
    engine_seat_of,
    game_path,
    move_for_whoever_decides,
    seated_game,
    stream_state,
    until_seat_decides,
)
from django.test import Client

from games.platform.models import ChatMessage, Game, GameAction

pytestmark = pytest.mark.django_db
KINDS = ("chudopoly", "boardroom", "commonwealth")


def _unchanged(game: Game) -> tuple[int, int]:
    fresh = Game.objects.get(pk=game.pk)
    return fresh.version, GameAction.objects.filter(game=game).count()


def _ready(alice: Any, kind: str, **table: Any) -> tuple[Game, int, dict[str, Any]]:
    game = seated_game(alice, kind=kind, **table)
    seat = engine_seat_of(game, alice)
    game = until_seat_decides(game, seat)
    return game, seat, stream_state(game, seat)


@pytest.mark.parametrize("kind", KINDS)
def test_a_listed_action_posted_back_as_it_is_is_played(alice: Any, alice_secret: str,
                                                        kind: str) -> None:
    game, seat, state = _ready(alice, kind)
    body = {"action": state["legal_actions"][0], "version": state["version"],
            "decision_token": state["decision_token"]}
    response = api_post(Client(), game_path(game, "move"), alice_secret, body)
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["ok"] and answer["id"] == game.pk and answer["version"] == state["version"] + 1
    row = GameAction.objects.get(game=game, version=state["version"])
    assert row.seat == seat and row.action == state["legal_actions"][0]


@pytest.mark.parametrize("kind", KINDS)
def test_every_listed_action_is_accepted_by_the_engine(alice: Any, kind: str) -> None:
    """What the stream lists is postable as it is (each tried on a copy of the state)."""
    from games.platform.interface import get_game

    game, seat, state = _ready(alice, kind)
    engine = get_game(kind)
    for action in state["legal_actions"]:
        engine.apply(game.state, seat, action)


def test_the_same_move_sent_twice_is_refused_as_a_duplicate(alice: Any,
                                                            alice_secret: str) -> None:
    game, _seat, state = _ready(alice, "boardroom")
    body = {"action": state["legal_actions"][0], "version": state["version"],
            "decision_token": state["decision_token"]}
    client = Client()
    assert api_post(client, game_path(game, "move"), alice_secret, body).status_code == 200
    before = _unchanged(game)
    again = api_post(client, game_path(game, "move"), alice_secret, body)
    assert again.status_code == 409 and again.json()["code"] in ("duplicate", "stale")
    assert _unchanged(game) == before


def test_a_move_chosen_at_an_old_version_for_another_decision_is_stale(
        alice: Any, alice_secret: str) -> None:
    game, seat, state = _ready(alice, "chudopoly")
    old = {"action": state["legal_actions"][0], "version": state["version"],
           "decision_token": state["decision_token"]}
    assert api_post(Client(), game_path(game, "move"), alice_secret, old).status_code == 200
    game = until_seat_decides(game, seat)
    before = _unchanged(game)
    stale = {**old, "action": stream_state(game, seat)["legal_actions"][0]}
    response = api_post(Client(), game_path(game, "move"), alice_secret, stale)
    assert response.status_code == 409 and response.json()["code"] == "stale"
    assert "moved on" in response.json()["error"]
    assert _unchanged(game) == before


def test_an_illegal_action_is_refused_with_the_engines_reason(alice: Any,
                                                              alice_secret: str) -> None:
    game, _seat, state = _ready(alice, "boardroom")
    before = _unchanged(game)
    body = {"action": {"type": "build", "tile": 999}, "version": state["version"],
            "decision_token": state["decision_token"]}
    response = api_post(Client(), game_path(game, "move"), alice_secret, body)
    assert response.status_code == 400
    assert response.json()["code"] in ("illegal", "not_your_turn") and response.json()["error"]
    assert _unchanged(game) == before


def test_a_move_out_of_turn_is_refused(alice: Any, alice_secret: str) -> None:
    game = seated_game(alice, kind="boardroom", bots=1)
    seat = engine_seat_of(game, alice)
    game = until_seat_decides(game, 1 - seat)
    state = stream_state(game, seat)
    assert not state["your_decision"]
    before = _unchanged(game)
    body = {"action": {"type": "roll"}, "version": state["version"],
            "decision_token": state["decision_token"]}
    response = api_post(Client(), game_path(game, "move"), alice_secret, body)
    assert response.status_code == 400 and response.json()["code"] == "not_your_turn"
    assert _unchanged(game) == before


@pytest.mark.parametrize("body", [
    {}, {"action": "roll", "version": 0}, {"action": {"type": "roll"}},
    {"action": {"type": "roll"}, "version": "3"}, {"action": {"type": "roll"}, "version": True},
    {"action": {"type": "roll"}, "version": -1}, {"action": {}, "version": 0},
    {"action": {"type": "roll"}, "version": 0, "decision_token": 5},
])
def test_a_malformed_move_is_a_400_that_changes_nothing(alice: Any, alice_secret: str,
                                                        body: dict[str, Any]) -> None:
    game = seated_game(alice, kind="boardroom")
    before = _unchanged(game)
    response = api_post(Client(), game_path(game, "move"), alice_secret, body)
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert _unchanged(game) == before


def test_chat_posts_a_line_under_the_seats_name(alice: Any, alice_secret: str) -> None:
    game = seated_game(alice)
    response = api_post(Client(), game_path(game, "chat"), alice_secret, {"text": "gg"})
    assert response.status_code == 200
    line = ChatMessage.objects.get(table_id=game.table_id)
    assert (line.name, line.text) == ("alice", "gg")


@pytest.mark.parametrize(("body", "code"), [({"text": ""}, "empty"),
                                            ({"text": "x" * 501}, "too_long"),
                                            ({"text": 5}, "bad_request")])
def test_a_bad_chat_line_is_refused(alice: Any, alice_secret: str, body: dict[str, Any],
                                    code: str) -> None:
    game = seated_game(alice)
    response = api_post(Client(), game_path(game, "chat"), alice_secret, body)
    assert response.status_code == 400 and response.json()["code"] == code
    assert not ChatMessage.objects.exists()


def test_chatting_too_fast_is_a_429_with_retry_after(alice: Any, alice_secret: str) -> None:
    game = seated_game(alice)
    client = Client()
    assert api_post(client, game_path(game, "chat"), alice_secret, {"text": "a"}).status_code \
        == 200
    response = api_post(client, game_path(game, "chat"), alice_secret, {"text": "b"})
    assert response.status_code == 429 and response["Retry-After"]
    assert ChatMessage.objects.count() == 1


def test_resigning_boardroom_is_going_bankrupt(alice: Any, alice_secret: str) -> None:
    game = seated_game(alice, kind="boardroom", bots=1)
    response = api_post(Client(), game_path(game, "resign"), alice_secret)
    assert response.status_code == 200 and response.json()["status"] == "finished"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    again = api_post(Client(), game_path(game, "resign"), alice_secret)
    assert again.status_code == 409 and again.json()["code"] == "finished"


def test_resigning_chudopoly_hands_the_seat_to_a_bot(alice: Any, alice_secret: str) -> None:
    from games.platform.models import Seat

    game = seated_game(alice)
    response = api_post(Client(), game_path(game, "resign"), alice_secret)
    assert response.status_code == 200 and response.json()["status"] == "running"
    assert Seat.objects.get(table_id=game.table_id, user=alice).away


def test_a_move_for_a_finished_game_is_refused(alice: Any, alice_secret: str) -> None:
    game = seated_game(alice, kind="boardroom", bots=1)
    api_post(Client(), game_path(game, "resign"), alice_secret)
    before = _unchanged(game)
    body = {"action": {"type": "roll"}, "version": before[0], "decision_token": ""}
    response = api_post(Client(), game_path(game, "move"), alice_secret, body)
    assert response.status_code == 409 and response.json()["code"] == "finished"
    assert _unchanged(game) == before


def test_the_table_code_names_the_game_too(alice: Any, alice_secret: str) -> None:
    game = seated_game(alice, kind="commonwealth")
    move_for_whoever_decides(game)
    response = api_post(Client(), f"/api/bot/game/{game.table.code}/chat", alice_secret,
                        {"text": "hello"})
    assert response.status_code == 200


def test_a_move_takes_back_the_seat_a_bot_held(alice: Any, alice_secret: str) -> None:
    """Resigning Chudopoly hands the seat to a bot; the program's next move takes it back."""
    from games.platform.models import Seat

    game, _seat, state = _ready(alice, "chudopoly")
    api_post(Client(), game_path(game, "resign"), alice_secret)
    assert Seat.objects.get(table_id=game.table_id, user=alice).away
    body = {"action": state["legal_actions"][0], "version": state["version"],
            "decision_token": state["decision_token"]}
    response = api_post(Client(), game_path(game, "move"), alice_secret, body)
    assert response.status_code == 200, response.content
    assert not Seat.objects.get(table_id=game.table_id, user=alice).away


def test_a_table_code_of_digits_alone_still_names_its_table(alice: Any, alice_secret: str,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """Codes may be all digits ("2345"): such a reference is tried as a game id and as a
    code, and names the game the account sits in."""
    from games.platform import services

    monkeypatch.setattr(services, "_new_code", lambda: "2345")
    game = seated_game(alice)
    assert game.table.code == "2345" and game.pk != 2345
    response = api_post(Client(), "/api/bot/game/2345/chat", alice_secret, {"text": "hi"})
    assert response.status_code == 200
    assert ChatMessage.objects.get(table_id=game.table_id).text == "hi"
