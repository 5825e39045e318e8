"""The queue page's socket: live status on connect, updates, the jump to the table, and
closing the page counts against the ticket."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games.platform.identity import GUEST_SESSION_KEY, Viewer
from ladder import services
from ladder.models import QueueTicket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _application() -> Any:
    from chudopoly_site.asgi import application

    return application


def _session_cookie(viewer: Viewer) -> bytes:
    session = SessionStore()
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.create()
    return f"sessionid={session.session_key}; csrftoken={'c' * 32}".encode()


async def connect(viewer: Viewer) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(_session_cookie)(viewer)
    comm = WebsocketCommunicator(_application(), "/ws/queue/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)])
    connected, _ = await comm.connect()
    assert connected
    return comm


async def frames_until_closed(comm: WebsocketCommunicator) -> list[str]:
    """Every frame the socket sent before it closed. The consumer handles its messages one at
    a time, in order, so once it has handled the close it has finished its connect too: what
    is queued then is all it will ever send, however slowly the connect ran. (Listening for a
    while instead misses a frame that comes after the while.)"""
    await comm.disconnect(timeout=30)
    assert comm.future.done() and not comm.future.cancelled(), "the consumer never closed"
    out = []
    while not await comm.receive_nothing(timeout=0):
        out.append(await comm.receive_from())
    return out


@database_sync_to_async
def join(viewer: Viewer, name: str) -> QueueTicket:
    # Three seats: two guests cannot make a table, so a pairing sweep running in the
    # background (the CI worker's beat) cannot end the wait before the test looks at it.
    return services.queue_join(viewer=viewer, preset="blitz", seats=3, ranked=False, name=name)


@database_sync_to_async
def ticket_of(viewer: Viewer) -> QueueTicket:
    return QueueTicket.objects.filter(guest_key=viewer.guest_key).latest("pk")


async def frame_with(comm: WebsocketCommunicator, text: str, timeout: float = 5) -> str:
    """The first frame holding `text`; periodic clock refreshes may come before it."""
    while True:
        frame = await comm.receive_from(timeout=timeout)
        if text in frame:
            return frame


async def test_the_queue_socket_shows_status_then_sends_everyone_to_the_table(
        guest_gus, guest_gwen, guest_gail) -> None:
    await join(guest_gus, "Gus")
    gus = await connect(guest_gus)
    first = await gus.receive_from(timeout=5)
    assert 'id="queue-status"' in first and 'hx-swap-oob="true"' in first
    assert 'id="queue-count">1<' in first and "±100" not in first  # guests: no window
    assert 'name="csrfmiddlewaretoken" value="' + "c" * 32 in first
    assert (await ticket_of(guest_gus)).sockets == 1

    await join(guest_gwen, "Gwen")
    gwen = await connect(guest_gwen)
    await gwen.receive_from(timeout=5)
    updated = await frame_with(gus, 'id="queue-count">2<')
    assert "Match found!" not in updated

    await join(guest_gail, "Gail")
    gail = await connect(guest_gail)
    # Whichever pairing run gets there first (this one or the background sweep) makes the
    # one table; the other finds nobody waiting.
    await database_sync_to_async(services.queue_pair)()
    for comm, viewer in ((gus, guest_gus), (gwen, guest_gwen), (gail, guest_gail)):
        ticket = await ticket_of(viewer)
        go = f"/ladder/match/{ticket.pk}/go/"
        sent = await frame_with(comm, "Match found!")
        assert f'hx-post="{go}" hx-trigger="load, submit"' in sent
        await comm.disconnect()


async def test_closing_the_queue_page_lets_the_ticket_lapse(guest_gus) -> None:
    await join(guest_gus, "Gus")
    gus = await connect(guest_gus)
    await gus.receive_from(timeout=5)
    await gus.disconnect()
    ticket = await ticket_of(guest_gus)
    assert ticket.sockets == 0 and ticket.status == QueueTicket.Status.WAITING


async def test_a_browser_with_no_ticket_gets_a_quiet_socket(guest_gus) -> None:
    gus = await connect(guest_gus)
    assert await frames_until_closed(gus) == []
