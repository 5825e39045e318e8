"""GET /api/stream/event: the account's events as NDJSON through the ASGI stack (AsyncClient):
what is pending first, then challenges and games as they happen, keep-alive lines between."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from challenges import event_stream, services
from tests.challenges.challenge_helpers import account, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GUARD_SECONDS = 20  # a stuck stream fails the test instead of hanging it (not a timing check)


async def _open(secret: str) -> tuple[Any, AsyncIterator[bytes]]:
    response = await AsyncClient().get("/api/stream/event",
                                       headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    return response, aiter(response.streaming_content)


async def _next_event(lines: AsyncIterator[bytes]) -> dict[str, Any]:
    """The next event line, skipping keep-alives."""
    while True:
        raw = await asyncio.wait_for(anext(lines), GUARD_SECONDS)
        if raw.strip():
            return json.loads(raw)


async def test_a_bot_hears_challenges_and_its_games_start_and_finish() -> None:
    maia = await sync_to_async(account)("maia", bot=True)
    alice = await sync_to_async(account)("alice")
    secret = await sync_to_async(token_for)(maia)
    response, lines = await _open(secret)
    try:
        first = asyncio.ensure_future(_next_event(lines))
        await asyncio.sleep(0)
        challenge = await sync_to_async(services.challenge_create)(
            challenger_id=alice.user_id, username="maia", game_kind="chudopoly")
        event = await first
        # The stream may have opened before or after the challenge was made: either way it
        # is the first thing heard (as a pending challenge or as news).
        assert event["type"] == "challenge" and event["challenge"]["id"] == challenge.pk
        assert event["challenge"]["challenger"]["name"] == "alice"

        await sync_to_async(services.challenge_cancel)(challenge_id=challenge.pk,
                                                      user_id=alice.user_id)
        event = await _next_event(lines)
        assert event["type"] == "challengeCanceled"
        assert event["challenge"]["status"] == "cancelled"

        again = await sync_to_async(services.challenge_create)(
            challenger_id=alice.user_id, username="maia", game_kind="chudopoly",
            ruleset_spec={"preset": "blitz"})
        assert (await _next_event(lines))["challenge"]["id"] == again.pk
        accepted = await sync_to_async(services.challenge_accept)(challenge_id=again.pk,
                                                                 user_id=maia.user_id)
        event = await _next_event(lines)
        assert event["type"] == "gameStart"
        assert event["game"]["table"] == accepted.table.code
        assert event["game"]["game"] == "chudopoly" and event["game"]["seat"] in (0, 1)
        assert "state" not in event["game"] and "seed" not in event["game"]

        from games.platform.models import Game
        from tests.ladder.ladder_helpers import play_moves

        game = await sync_to_async(Game.objects.get)(table_id=accepted.table_id)
        await sync_to_async(play_moves)(game, 3000)
        event = await _next_event(lines)
        assert event["type"] == "gameFinish" and event["game"]["id"] == game.pk
        assert event["game"]["status"] == "finished"
    finally:
        await response.streaming_content.aclose()


async def test_a_reconnecting_stream_first_sends_what_is_pending_and_the_games_under_way(
) -> None:
    maia, alice, bob = (await sync_to_async(account)("maia", bot=True),
                        await sync_to_async(account)("alice"),
                        await sync_to_async(account)("bob"))
    playing = await sync_to_async(services.challenge_create)(
        challenger_id=alice.user_id, username="maia", game_kind="boardroom")
    table = (await sync_to_async(services.challenge_accept)(
        challenge_id=playing.pk, user_id=maia.user_id)).table
    waiting = await sync_to_async(services.challenge_create)(
        challenger_id=bob.user_id, username="maia", game_kind="commonwealth", seats=3)
    response, lines = await _open(await sync_to_async(token_for)(maia))
    try:
        opening = [await _next_event(lines), await _next_event(lines)]
        assert [e["type"] for e in opening] == ["challenge", "gameStart"]
        assert opening[0]["challenge"]["id"] == waiting.pk
        assert opening[1]["game"]["table"] == table.code
    finally:
        await response.streaming_content.aclose()


async def test_a_quiet_stream_sends_keep_alive_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 0.05)
    maia = await sync_to_async(account)("maia", bot=True)
    response, lines = await _open(await sync_to_async(token_for)(maia))
    try:
        assert await asyncio.wait_for(anext(lines), GUARD_SECONDS) == b"\n"
    finally:
        await response.streaming_content.aclose()


async def test_the_stream_needs_a_token_with_bot_play() -> None:
    maia = await sync_to_async(account)("maia", bot=True)
    secret = await sync_to_async(token_for)(maia, scopes=("game:read",))
    response = await AsyncClient().get("/api/stream/event",
                                       headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 403 and response.json()["code"] == "missing_scope"
    response = await AsyncClient().get("/api/stream/event")
    assert response.status_code == 401


async def test_an_event_sent_from_a_worker_thread_reaches_the_stream_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process task runner (bot moves, clocks) is a thread with no event loop: its
    events must wake the stream's loop, not wait for its next keep-alive."""
    import threading

    from challenges import events

    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 3600)
    maia = await sync_to_async(account)("maia", bot=True)
    response, lines = await _open(await sync_to_async(token_for)(maia))
    try:
        opened = asyncio.ensure_future(_next_event(lines))
        await asyncio.sleep(0.2)  # let the stream join its group (no pending events to wait on)
        worker = threading.Thread(target=events._send, args=(
            [maia.user_id], {"type": "gameFinish", "game": {"id": 1}}))
        worker.start()  # not joined from here: that would wake this loop by itself
        event = await asyncio.wait_for(opened, 5)
        worker.join()
        assert event == {"type": "gameFinish", "game": {"id": 1}}
    finally:
        await response.streaming_content.aclose()
