"""`GET /api/stream/event`: the account's events as NDJSON, for as long as the client reads.

It listens to the account's channel-layer group (challenges/events.py) from before it reads
what is pending, then sends, as lichess does on every (re)connection, a `challenge` line for
each challenge waiting for the account's answer and a `gameStart` line for each game it is
playing; then every event as it happens, one JSON object a line, and an empty line after
KEEPALIVE_SECONDS of quiet so that clients and proxies know the stream is alive. Served by
Daphne as an async view: an open stream holds no thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.http import HttpRequest, HttpResponse

from challenges.events import (
    MESSAGE_TYPE,
    account_group,
    challenge_json,
    game_json,
)
from challenges.services import pending_received
from games.api.auth import ApiError, api_view
from games.api.ndjson import stream_response

KEEPALIVE_SECONDS = 7.0


def line(event: dict[str, Any]) -> bytes:
    return json.dumps(event, separators=(",", ":")).encode() + b"\n"


def opening_events(user_id: int) -> list[dict[str, Any]]:
    """What a (re)connecting stream sends first: pending challenges, then games under way."""
    from games.platform.models import Game

    out: list[dict[str, Any]] = [{"type": "challenge", "challenge": challenge_json(c)}
                                 for c in pending_received(user_id)]
    running = (Game.objects.filter(status=Game.Status.RUNNING,
                                   table__seats__user_id=user_id, table__seats__is_bot=False)
               .select_related("table").distinct().order_by("pk"))
    for game in running:
        entry = game_json(game, user_id)
        if entry["seat"] is not None:
            out.append({"type": "gameStart", "game": entry})
    return out


def _key(event: dict[str, Any]) -> tuple[str, Any]:
    subject = event.get("challenge") or event.get("game") or {}
    return event.get("type", ""), subject.get("id")


async def account_events(user_id: int) -> AsyncIterator[bytes]:
    """The stream's lines. Joins the group first, so nothing sent while the opening events
    are read is lost; news of a challenge or a game the opening already sent is not sent
    again."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("the account event stream needs a channel layer")
    channel = await layer.new_channel(prefix="account-events.")
    group = account_group(user_id)
    await layer.group_add(group, channel)
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def pump() -> None:
        # One long receive loop (cancelled once, at the end), not a receive cancelled at
        # every keep-alive.
        while True:
            message = await layer.receive(channel)
            if message.get("type") == MESSAGE_TYPE:
                await inbox.put(message["event"])

    pumping = asyncio.ensure_future(pump())
    try:
        opened = set()
        for event in await sync_to_async(opening_events)(user_id):
            opened.add(_key(event))
            yield line(event)
        while True:
            try:
                event = await asyncio.wait_for(inbox.get(), timeout=KEEPALIVE_SECONDS)
            except TimeoutError:
                yield b"\n"
                continue
            if _key(event) in opened:
                opened.discard(_key(event))
                continue
            yield line(event)
    finally:
        pumping.cancel()
        with contextlib.suppress(BaseException):
            await pumping
        await layer.group_discard(group, channel)


@api_view(methods=("GET",), scopes=("bot:play",))
async def event_stream(request: HttpRequest) -> HttpResponse:
    user = request.user
    if user is None or not user.pk:
        raise ApiError(401, "No account.", code="no_token")
    return stream_response(request, lambda: account_events(user.pk))
