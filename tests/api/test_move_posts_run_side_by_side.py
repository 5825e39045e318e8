"""Two bots' move POSTs are served side by side through the ASGI application Daphne serves,
each on a thread of its own request, neither on the event loop's thread: a move does not
wait for another table's move to end (docs/performance.md, "The bot API under load").

Django's ASGI handler gives every request its own thread-sensitive context, so a sync view
runs on a thread of that request's own, not on one thread the process shares. The moves
below meet at a barrier inside the view: were they served one after the other, the first
would wait there for a second that never comes, and the barrier would break."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from api_helpers import (
    first_move_body,
    game_path,
    make_account,
    make_token,
    seated_at_a_decision,
    stream_state,
)
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator

from games.api import moves
from games.platform.models import Game

# Only how long a broken run waits before it fails; a passing run never waits this long.
BARRIER_SECONDS = 30


def _ready(user: Any, kind: str) -> tuple[Game, dict[str, Any], str]:
    game, seat = seated_at_a_decision(user, kind=kind)
    return game, stream_state(game, seat), make_token(user)


async def _post_move(game: Game, state: dict[str, Any], secret: str) -> dict[str, Any]:
    from chudopoly_site.asgi import application

    body = json.dumps(first_move_body(state)).encode()
    communicator = HttpCommunicator(
        application, "POST", game_path(game, "move"), body=body,
        headers=[(b"host", b"localhost"), (b"content-type", b"application/json"),
                 (b"authorization", f"Bearer {secret}".encode())])
    response = await communicator.get_response(timeout=BARRIER_SECONDS * 2)
    # Run the handler to its end: closing the request gives its thread's connection back.
    await communicator.wait(timeout=BARRIER_SECONDS)
    return response


@pytest.mark.django_db(transaction=True)
async def test_two_tables_move_posts_are_served_side_by_side_off_the_event_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    alice = await database_sync_to_async(make_account)("alice")
    bob = await database_sync_to_async(make_account)("bob")
    first = await database_sync_to_async(_ready)(alice, "chudopoly")
    second = await database_sync_to_async(_ready)(bob, "boardroom")

    both_in = threading.Barrier(2, timeout=BARRIER_SECONDS)
    # The moves themselves one at a time: the embedded database takes one writer at once.
    one_writer = threading.Lock()
    threads: list[int] = []
    real_move = moves.table_move

    def meeting_move(**kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        both_in.wait()
        with one_writer:
            return real_move(**kwargs)

    monkeypatch.setattr(moves, "table_move", meeting_move)
    answers = await asyncio.gather(_post_move(*first), _post_move(*second))

    assert [a["status"] for a in answers] == [200, 200], [a["body"] for a in answers]
    assert len(set(threads)) == 2
    assert threading.get_ident() not in threads
    for (game, state, _), answer in zip((first, second), answers, strict=True):
        assert json.loads(answer["body"])["version"] == state["version"] + 1
        assert (await Game.objects.aget(pk=game.pk)).version == state["version"] + 1
