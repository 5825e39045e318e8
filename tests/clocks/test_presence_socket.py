"""The table socket tells the clocks when a seat's owner comes and goes."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from clocks_helpers import seat_row, started_game
from django.contrib.sessions.backends.db import SessionStore

from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.scheduler import in_process_scheduler

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _cookie(viewer: Viewer) -> bytes:
    session = SessionStore()
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.create()
    return f"sessionid={session.session_key}".encode()


async def _connect(code: str, viewer: Viewer) -> WebsocketCommunicator:
    from chudopoly_site.asgi import application  # arms the in-process scheduler when loaded

    cookie = await database_sync_to_async(_cookie)(viewer)
    comm = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)])
    connected, _ = await comm.connect()
    assert connected
    while not await comm.receive_nothing(timeout=0.5):
        await comm.receive_from()
    return comm


async def test_the_socket_counts_the_owner_in_and_out_and_starts_the_grace(
        alice: Viewer, bob: Viewer) -> None:
    game = await database_sync_to_async(started_game)(alice, (bob, "Bob"))
    runner = in_process_scheduler()  # its thread is off in these tests: jobs wait here
    code = game.table.code
    first = await _connect(code, alice)
    second = await _connect(code, alice)
    seat = await database_sync_to_async(seat_row)(game, alice)
    assert seat.connections == 2 and seat.disconnected_at is None
    # Each socket is on record under its own channel, so the one that closes is the one that
    # stops counting (and one whose process dies stops checking in: test_takeover.py).
    channels = await database_sync_to_async(
        lambda: set(seat.sockets.values_list("channel", flat=True)))()
    assert len(channels) == 2

    await first.disconnect()
    seat = await database_sync_to_async(seat_row)(game, alice)
    assert seat.connections == 1 and seat.disconnected_at is None
    left = await database_sync_to_async(lambda: set(seat.sockets.values_list("channel",
                                                                             flat=True)))()
    assert len(left) == 1 and left < channels
    runner.clear()
    await second.disconnect()
    seat = await database_sync_to_async(seat_row)(game, alice)
    assert seat.connections == 0 and seat.disconnected_at is not None
    grace = [kw for _, task, kw in runner.pending() if task == "tables.seat_grace_check"]
    assert grace == [{"seat_id": seat.pk, "since": seat.disconnected_at.isoformat()}]
    runner.clear()


async def test_an_open_socket_checks_in_as_it_handles_messages(
        alice: Viewer, bob: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the database (the embedded default's SQLite too): a socket that stopped checking
    in would be dropped by the sweep and its seat handed to a bot (test_takeover.py)."""
    from games.platform import consumers
    from games.platform.models import SeatSocket

    game = await database_sync_to_async(started_game)(alice, (bob, "Bob"))
    comm = await _connect(game.table.code, alice)
    seen = await database_sync_to_async(lambda: SeatSocket.objects.get().seen_at)()
    monkeypatch.setattr(consumers, "SOCKET_CHECK_IN_SECONDS", 0.0)
    await comm.send_to(text_data="not a frame")
    await comm.receive_from()  # the error it earns
    await comm.receive_nothing(timeout=0.3)
    later = await database_sync_to_async(lambda: SeatSocket.objects.get().seen_at)()
    assert later > seen
    await comm.disconnect()
