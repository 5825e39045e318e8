"""A move made on the in-process task runner's thread (a bot's move, a clock), which has no
event loop of its own, reaches the table's sockets at once on the in-memory channel layer (the
embedded default), not when their loop next wakes for something else; on channels-redis
too (CI)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from tables_helpers import ENGINE, seat_of, started_game
from test_table_socket import connect, frames, version_in

from games.platform import services
from games.platform.identity import Viewer
from games.platform.models import Game
from games.platform.scheduler import in_process_scheduler

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def _a_game_where_the_bot_is_due(alice: Viewer) -> Game:
    """Alice and a bot, Alice's moves made until the bot's turn is waiting on the runner."""
    game = started_game(alice, bots=1, turn_seconds=0)
    alice_seat = seat_of(game, alice)
    runner = in_process_scheduler()
    for _ in range(50):
        if runner.pending():
            return game
        game.refresh_from_db()
        action = ENGINE.bot_action(ENGINE.view(game.state, alice_seat), "basic")
        services.table_apply_action(game_id=game.pk, seat=alice_seat, action=action,
                                    expected_version=game.version)
    raise AssertionError("the bot's turn never came")


async def test_a_bots_move_on_the_task_thread_reaches_a_persons_socket_at_once(
        alice: Viewer) -> None:
    game = await _a_game_where_the_bot_is_due(alice)
    comm = await connect(game.table.code, alice)
    shown = version_in((await frames(comm))[0])
    assert shown is not None

    # The runner's thread runs the bot's turn; the test's loop (the consumer's) only waits.
    # Not joined from here: joining would block the loop, and anything else would wake it.
    ran: list[Any] = []
    runner = threading.Thread(target=lambda: ran.append(in_process_scheduler().run_due()),
                              name="chudopoly-scheduler")
    runner.start()
    try:
        pushed = await comm.receive_from(timeout=5)
    finally:
        await database_sync_to_async(runner.join)()
    assert ran and ran[0] >= 1
    assert (version_in(pushed) or 0) > shown or "hx-swap-oob" in pushed
    await comm.disconnect()
