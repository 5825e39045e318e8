"""Self-healing of the sockets, in process (fast; the real restarts are in test_faults.py).

A restarted Redis comes back empty: every group membership is gone, and a socket that stays open
would never hear of another move. The table socket checks in after a quiet spell: it joins its
group again and catches up on anything it missed.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test.utils import CaptureQueriesContext
from liveplay import version_in

from games.platform import services
from games.platform.heartbeat import HeartbeatMixin
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.interface import get_game
from games.platform.models import Game
from games.platform.recent_reads import recent_reads

ALICE = Viewer(user_id=None, guest_key="reliability-alice-00000000000")
BOB = Viewer(user_id=None, guest_key="reliability-bob-0000000000000")
ENGINE = get_game("chudopoly")


@pytest.fixture(autouse=True)
def _in_process_tasks(settings: Any) -> None:
    settings.TASK_BACKEND = "inprocess"


def _game() -> Game:
    table = services.table_create(viewer=ALICE, name="Alice", ruleset_spec={"preset": "blitz"},
                                  turn_seconds=0, response_seconds=0)
    services.seat_join(table_id=table.pk, viewer=BOB, name="Bob")
    return services.game_start(table_id=table.pk, viewer=ALICE)


def _cookie(viewer: Viewer) -> bytes:
    session = SessionStore()
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.create()
    return f"sessionid={session.session_key}".encode()


def _move(game_id: int) -> int:
    game = Game.objects.get(pk=game_id)
    seat = ENGINE.to_decide(game.state)[0]
    action = next(a for a in ENGINE.legal_actions(game.state, seat) if a["type"] != "scoop")
    return services.table_apply_action(game_id=game_id, seat=seat, action=action,
                                       expected_version=game.version).version


async def _table_socket(game: Game, viewer: Viewer) -> WebsocketCommunicator:
    """A connected socket at the game's table, as `viewer`'s browser opens it."""
    from chudopoly_site.asgi import application

    comm = WebsocketCommunicator(application, f"/ws/table/{game.table.code}/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"),
        (b"cookie", await database_sync_to_async(_cookie)(viewer))])
    assert (await comm.connect())[0]
    return comm


async def _forget_group(group: str) -> None:
    """What a Redis restart does to a group: it is gone."""
    layer = get_channel_layer()
    if hasattr(layer, "groups"):  # the in-memory layer
        layer.groups.pop(group, None)
        return
    if settings.CHANNEL_LAYER == "pubsub":  # this process's record of who is in the group
        loop_layer = layer._get_layer()
        loop_layer.groups.pop(loop_layer._get_group_channel_name(group), None)
        return
    async with layer.connection(layer.consistent_hash(group)) as conn:
        await conn.delete(layer._group_key(group))


@pytest.mark.django_db(transaction=True)
async def test_a_socket_whose_group_was_forgotten_catches_up_by_itself(monkeypatch) -> None:
    monkeypatch.setattr(HeartbeatMixin, "heartbeat_seconds", 0.5)
    game = await database_sync_to_async(_game)()
    comm = await _table_socket(game, BOB)
    assert version_in(await comm.receive_from(timeout=5)) == 0
    await _forget_group(f"table.{game.table.code}")
    version = await database_sync_to_async(_move)(game.pk)
    # The broadcast reached nobody; the heartbeat finds the table moved on and pushes.
    frame = await comm.receive_from(timeout=10)
    assert version_in(frame) == version == 1
    # And it is back in the group: the next move arrives as usual.
    version = await database_sync_to_async(_move)(game.pk)
    assert version_in(await comm.receive_from(timeout=5)) == version
    await comm.send_to(text_data=json.dumps({"kind": "chat", "text": "still here"}))
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_quiet_socket_that_missed_nothing_sends_nothing(monkeypatch) -> None:
    monkeypatch.setattr(HeartbeatMixin, "heartbeat_seconds", 0.3)
    game = await database_sync_to_async(_game)()
    comm = await _table_socket(game, ALICE)
    await comm.receive_from(timeout=5)
    assert await comm.receive_nothing(timeout=1.5)  # several heartbeats, no frames
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_its_table_keeps_talking_to_gets_no_heartbeat(monkeypatch) -> None:
    monkeypatch.setattr(HeartbeatMixin, "heartbeat_seconds", 0.6)
    from games.platform.consumers import TableConsumer

    beats: list[float] = []
    plain = TableConsumer.socket_heartbeat
    monkeypatch.setattr(TableConsumer, "socket_heartbeat",
                        lambda self, event: (beats.append(1), plain(self, event)))
    game = await database_sync_to_async(_game)()
    comm = await _table_socket(game, BOB)
    await comm.receive_from(timeout=5)
    # The browser says nothing for 2 s, but the table moves every 0.2 s: the socket hears it.
    for _ in range(10):
        version = await database_sync_to_async(_move)(game.pk)
        assert version_in(await comm.receive_from(timeout=5)) == version
        await asyncio.sleep(0.2)
    assert beats == []
    # Once the table falls quiet, the heartbeat comes back.
    await asyncio.sleep(1.5)
    assert beats
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_home_pages_list_catches_up_after_its_group_was_forgotten(monkeypatch) -> None:
    monkeypatch.setattr(HeartbeatMixin, "heartbeat_seconds", 0.5)
    from chudopoly_site.asgi import application
    from games.platform.lobby import LOBBY_GROUP

    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost")])
    assert (await comm.connect())[0]
    await _forget_group(LOBBY_GROUP)
    table = await database_sync_to_async(services.table_create)(
        viewer=ALICE, name="Alice", ruleset_spec={"preset": "blitz"}, is_public=True)
    frame = await comm.receive_from(timeout=10)  # from the heartbeat: nobody else told it
    assert table.code in frame
    await _forget_group(LOBBY_GROUP)
    assert await comm.receive_nothing(timeout=1.5)  # nothing new: quiet heartbeats
    await comm.disconnect()


def _heartbeat(consumer: Any) -> int:
    """Give a table socket its heartbeat here and now; the queries it made."""
    with CaptureQueriesContext(connection) as queries:
        consumer.socket_heartbeat({"type": "socket.heartbeat"})
    return len(queries)


def _sockets_of(game: Game) -> list[Any]:
    from games.platform.table_sockets import table_sockets

    return table_sockets.others(game.table_id, None)


@pytest.mark.django_db(transaction=True)
async def test_a_quiet_tables_sockets_share_one_read_on_their_heartbeats() -> None:
    game = await database_sync_to_async(_game)()
    alice, bob = await _table_socket(game, ALICE), await _table_socket(game, BOB)
    await alice.receive_from(timeout=5)
    await bob.receive_from(timeout=5)
    first, second = _sockets_of(game)
    # Right after the sockets' own pushes, their reads answer: no query at all.
    assert await database_sync_to_async(_heartbeat)(first) == 0
    recent_reads.clear()  # as when half a heartbeat has gone by
    assert await database_sync_to_async(_heartbeat)(first) == 1
    assert await database_sync_to_async(_heartbeat)(second) == 0
    assert await alice.receive_nothing(timeout=0.5)  # the table did not move: no frames
    assert await bob.receive_nothing(timeout=0.1)
    await alice.disconnect()
    await bob.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_sockets_whose_update_was_lost_are_shown_it_on_their_shared_heartbeat() -> None:
    game = await database_sync_to_async(_game)()
    alice, bob = await _table_socket(game, ALICE), await _table_socket(game, BOB)
    await bob.receive_from(timeout=5)
    await alice.receive_from(timeout=5)
    layer = get_channel_layer()

    async def lost(group: str, message: dict[str, Any]) -> None:
        """What a Redis down for a moment does to the move's group message."""

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(layer, "group_send", lost)
        version = await database_sync_to_async(_move)(game.pk)
    assert await alice.receive_nothing(timeout=0.3)
    recent_reads.clear()  # as when half a heartbeat has gone by
    first, second = _sockets_of(game)
    await database_sync_to_async(_heartbeat)(first)
    await database_sync_to_async(_heartbeat)(second)  # the first's read tells it
    assert version_in(await alice.receive_from(timeout=5)) == version
    assert version_in(await bob.receive_from(timeout=5)) == version
    await alice.disconnect()
    await bob.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_lobby_heartbeats_share_the_list_read_lately() -> None:
    from games.platform.lobby import public_tables_html

    await database_sync_to_async(services.table_create)(
        viewer=ALICE, name="Alice", ruleset_spec={"preset": "blitz"}, is_public=True)

    def read(max_age: float) -> tuple[str, int]:
        with CaptureQueriesContext(connection) as queries:
            html = public_tables_html(None, max_age=max_age)
        return html, len(queries)

    recent_reads.clear()
    html, queries = await database_sync_to_async(read)(7.5)
    assert queries > 0
    assert await database_sync_to_async(read)(7.5) == (html, 0)
    table = await database_sync_to_async(services.table_create)(
        viewer=BOB, name="Bob", ruleset_spec={"preset": "blitz"}, is_public=True)
    # A read older than the heartbeat allows is made again.
    html, queries = await database_sync_to_async(read)(0.0)
    assert queries > 0 and table.code in html


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")
async def test_an_idle_socket_survives_the_core_redis_layers_blocking_pop() -> None:
    """redis-py 8 reads with a 5 s timeout by default, as long as the core layer's BZPOPMIN
    blocks: every socket quiet for 5 s used to crash and reconnect (channels_redis#422). The
    site's core-layer settings, whichever layer this run uses."""
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(**settings.CHANNEL_LAYER_CHOICES["core"]["CONFIG"])
    channel = await layer.new_channel()
    with pytest.raises(TimeoutError):  # ours, after 7 s of nothing: not Redis's at 5 s
        await asyncio.wait_for(layer.receive(channel), 7)
    await layer.send(channel, {"type": "still.here"})
    assert (await layer.receive(channel))["type"] == "still.here"
    await layer.close_pools()
