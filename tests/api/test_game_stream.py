"""GET /api/bot/game/stream/<game>: one seat's game as NDJSON, opened with gameFull and a
gameState after every change, each built from that seat's view alone."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from api_helpers import (
    engine_seat_of,
    make_account,
    make_token,
    move_for_whoever_decides,
    seated_game,
)
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from games.api import game_stream
from games.platform import services
from games.platform.interface import get_game
from games.platform.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
KINDS = ("chudopoly", "boardroom", "commonwealth")
WAIT = 20  # seconds a test waits for a line before it fails (a hang, not a measure)


class Stream:
    """An open game stream, read line by line."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.chunks: AsyncIterator[bytes] = aiter(response.streaming_content)
        self.buffer = b""

    async def raw_line(self) -> bytes:
        while b"\n" not in self.buffer:
            self.buffer += await asyncio.wait_for(anext(self.chunks), WAIT)
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    async def event(self) -> dict[str, Any]:
        """The next event, skipping keep-alive lines."""
        while not (line := await self.raw_line()):
            pass
        return json.loads(line)

    async def close(self) -> None:
        await self.chunks.aclose()


async def open_stream(ref: Any, secret: str) -> Stream:
    response = await AsyncClient().get(f"/api/bot/game/stream/{ref}",
                                       headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/x-ndjson"
    return Stream(response)


def expected_state(game_id: int, seat: int) -> dict[str, Any]:
    game = Game.objects.get(pk=game_id)
    engine = get_game(game.game_kind)
    families = tuple(getattr(engine, "action_families", ()))
    return {
        "version": game.version,
        "view": json.loads(json.dumps(engine.view(game.state, seat))),
        "decision_token": services.decision_token(engine, game.state, seat),
        "legal_actions": [a for a in engine.legal_actions(game.state, seat)
                          if a["type"] not in families],
    }


def _seen(state: dict[str, Any]) -> dict[str, Any]:
    return {key: state[key] for key in ("version", "view", "decision_token", "legal_actions")}


@pytest.fixture
def alice_and_token(transactional_db: None) -> tuple[Any, str]:
    alice = make_account("alice")
    return alice, make_token(alice)


@pytest.mark.parametrize("kind", KINDS)
async def test_the_stream_opens_with_the_game_and_the_seats_own_view(
        alice_and_token: tuple[Any, str], kind: str) -> None:
    alice, secret = alice_and_token
    game = await sync_to_async(seated_game)(alice, kind=kind)
    seat = await sync_to_async(engine_seat_of)(game, alice)
    stream = await open_stream(game.pk, secret)
    full = await stream.event()
    assert full["type"] == "gameFull" and full["kind"] == kind and full["id"] == game.pk
    assert full["seat"] == seat and full["table"] == game.table.code
    assert full["ruleset"] == game.ruleset
    assert [s["you"] for s in full["seats"]] == [i == seat for i in range(game.seat_count)]
    assert full["state"]["type"] == "gameState" and full["state"]["status"] == "running"
    assert _seen(full["state"]) == await sync_to_async(expected_state)(game.pk, seat)
    await stream.close()


@pytest.mark.parametrize("kind", KINDS)
async def test_every_move_brings_a_game_state_of_the_new_version(
        alice_and_token: tuple[Any, str], kind: str) -> None:
    alice, secret = alice_and_token
    game = await sync_to_async(seated_game)(alice, kind=kind)
    seat = await sync_to_async(engine_seat_of)(game, alice)
    stream = await open_stream(game.table.code, secret)  # a table code works too
    await stream.event()
    for _ in range(3):
        game = await sync_to_async(move_for_whoever_decides)(game)
        state = await stream.event()
        assert state["type"] == "gameState" and state["version"] == game.version
        assert _seen(state) == await sync_to_async(expected_state)(game.pk, seat)
    await stream.close()


async def test_a_chat_line_at_the_table_is_streamed(alice_and_token: tuple[Any, str]) -> None:
    alice, secret = alice_and_token
    game = await sync_to_async(seated_game)(alice)
    stream = await open_stream(game.pk, secret)
    await stream.event()
    await sync_to_async(services.chat_post)(
        table_id=game.table_id, viewer=services.Viewer(user_id=alice.pk, guest_key=None),
        text="good luck")
    line = await stream.event()
    assert line["type"] == "chatLine" and line["text"] == "good luck"
    assert line["username"] == "alice"
    await stream.close()


async def test_a_quiet_stream_sends_empty_lines_to_stay_open(
        alice_and_token: tuple[Any, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_stream, "KEEP_ALIVE_SECONDS", 0.01)
    alice, secret = alice_and_token
    game = await sync_to_async(seated_game)(alice)
    stream = await open_stream(game.pk, secret)
    assert json.loads(await stream.raw_line())["type"] == "gameFull"
    assert await stream.raw_line() == b""
    await stream.close()


async def test_a_missed_group_message_is_caught_up_at_the_next_keep_alive(
        alice_and_token: tuple[Any, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Redis restarted and the message was lost: the quiet stream reads the game anyway."""
    monkeypatch.setattr(game_stream, "KEEP_ALIVE_SECONDS", 0.01)
    alice, secret = alice_and_token
    game = await sync_to_async(seated_game)(alice)
    stream = await open_stream(game.pk, secret)
    await stream.event()
    monkeypatch.setattr("games.platform.broadcast._deliver", lambda code, message: None)
    game = await sync_to_async(move_for_whoever_decides)(game)
    state = await stream.event()
    assert state["version"] == game.version
    await stream.close()


async def test_reconnecting_starts_again_from_the_current_state(
        alice_and_token: tuple[Any, str]) -> None:
    """After a web restart the client opens the stream again and is up to date at once."""
    alice, secret = alice_and_token
    game = await sync_to_async(seated_game)(alice)
    seat = await sync_to_async(engine_seat_of)(game, alice)
    stream = await open_stream(game.pk, secret)
    await stream.event()
    await stream.close()
    for _ in range(2):
        game = await sync_to_async(move_for_whoever_decides)(game)
    again = await open_stream(game.pk, secret)
    full = await again.event()
    assert full["state"]["version"] == game.version
    assert _seen(full["state"]) == await sync_to_async(expected_state)(game.pk, seat)
    await again.close()


async def test_the_stream_ends_with_the_last_state_when_the_game_is_over(
        alice_and_token: tuple[Any, str]) -> None:
    """Leaving Boardroom is going bankrupt: against one bot, the game is over."""
    alice, secret = alice_and_token
    game = await sync_to_async(seated_game)(alice, kind="boardroom", bots=1)
    stream = await open_stream(game.pk, secret)
    await stream.event()
    await sync_to_async(services.seat_leave)(
        table_id=game.table_id, viewer=services.Viewer(user_id=alice.pk, guest_key=None))
    last = await stream.event()
    assert last["status"] == "finished" and last["legal_actions"] == []
    assert last["decision_token"] == "" and set(last["result"]) == {"winner", "placements"}
    with pytest.raises(StopAsyncIteration):
        await stream.raw_line()


async def test_opening_the_stream_takes_back_the_seat_a_bot_held(
        alice_and_token: tuple[Any, str]) -> None:
    from games.platform.models import Seat

    alice, secret = alice_and_token
    game = await sync_to_async(seated_game)(alice)
    await sync_to_async(services.seat_leave)(
        table_id=game.table_id, viewer=services.Viewer(user_id=alice.pk, guest_key=None))
    assert (await sync_to_async(Seat.objects.get)(table_id=game.table_id, user=alice)).away
    stream = await open_stream(game.pk, secret)
    full = await stream.event()
    assert not [s for s in full["seats"] if s["you"] and s["away"]]
    assert not (await sync_to_async(Seat.objects.get)(table_id=game.table_id, user=alice)).away
    await stream.close()


async def test_one_read_of_the_game_serves_every_stream_of_the_table_here(
        alice_and_token: tuple[Any, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each update is read once for all the table's streams in this process, not per seat."""
    monkeypatch.setattr(game_stream, "KEEP_ALIVE_SECONDS", 600)
    alice, secret = alice_and_token
    bob = await sync_to_async(make_account)("bob")
    bob_secret = await sync_to_async(make_token)(bob)
    game = await sync_to_async(seated_game)(alice, bots=0, others=[bob])
    reads: list[int] = []
    real_read = game_stream.read_game

    def counted(game_id: int) -> Any:
        reads.append(game_id)
        return real_read(game_id)

    monkeypatch.setattr(game_stream, "read_game", counted)
    streams = [await open_stream(game.pk, s) for s in (secret, bob_secret)]
    for stream in streams:
        assert (await stream.event())["type"] == "gameFull"
    opened = len(reads)
    game = await sync_to_async(move_for_whoever_decides)(game)
    for stream in streams:
        assert (await stream.event())["version"] == game.version
    assert len(reads) == opened + 1
    for stream in streams:
        await stream.close()
