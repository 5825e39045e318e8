"""A table socket takes a browser's text frame straight from its connection's reader
(chudopoly_site/socket_reads.py) only while it does nothing but wait for the browser, runs it
on the table lane as dispatch would, and lets no other message of its own start before that
frame's handler ends; a taken frame's error ends the consumer in its own task, as a queued
frame's does (games/platform/consumers.py)."""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any

import pytest

from games.platform import consumers
from games.platform.consumers import SOCKET_FRAME_FAILED, TableConsumer

FRAME = {"type": "websocket.receive", "text": '{"move": "end_turn"}'}


class _Connection:
    def __init__(self) -> None:
        self.application_queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()


@pytest.fixture
def lane(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], Any, asyncio.Future[None]]]:
    """The table lane, as a list of what was handed to it and the futures it would end."""
    handed: list[tuple[dict[str, Any], Any, asyncio.Future[None]]] = []

    def on_lane(consumer: TableConsumer, message: dict[str, Any],
                context: contextvars.Context | None = None) -> asyncio.Future[None]:
        done = asyncio.get_running_loop().create_future()
        handed.append((message, context, done))
        return done

    monkeypatch.setattr(consumers, "_on_lane", on_lane)
    return handed


def _waiting_socket() -> TableConsumer:
    socket = TableConsumer()
    socket._receive_context = contextvars.copy_context()  # its wait for the browser
    socket._reads_from = _Connection()
    return socket


def test_a_socket_waiting_for_its_browser_takes_the_frame_onto_the_lane_at_once(
        lane: list[Any]) -> None:
    async def main() -> None:
        socket = _waiting_socket()
        assert socket._take_text(FRAME["text"]) is True
        assert socket._take_text("a second frame") is True  # the lane keeps their order
        (first, context, _), (second, _, _) = lane
        assert first == FRAME and second["text"] == "a second frame"
        assert context is not socket._receive_context, "a copy: the wait's own is not entered"

    asyncio.run(main())


def test_a_socket_not_waiting_or_with_a_message_under_way_has_the_frame_queued(
        lane: list[Any]) -> None:
    async def main() -> None:
        socket = _waiting_socket()
        socket._receive_context = None  # connecting, or a queued frame in hand
        assert socket._take_text("x") is False
        socket = _waiting_socket()
        socket._dispatching = True  # a group message or a heartbeat under way
        assert socket._take_text("x") is False
        assert lane == []

    asyncio.run(main())


def test_a_taken_frames_error_is_raised_by_the_sockets_own_dispatch_after_its_handler(
        lane: list[Any]) -> None:
    async def main() -> None:
        socket = _waiting_socket()
        socket._take_text(FRAME["text"])
        failed = ValueError("the handler failed")
        _, _, done = lane[0]
        # The next message waits for the taken frame's handler, which then fails.
        dispatching = asyncio.ensure_future(socket.dispatch({"type": SOCKET_FRAME_FAILED}))
        await asyncio.sleep(0)
        assert not dispatching.done()
        done.set_exception(failed)
        await asyncio.sleep(0)
        assert socket._reads_from.application_queue.get_nowait() == {
            "type": SOCKET_FRAME_FAILED}
        with pytest.raises(ValueError, match="the handler failed"):
            await dispatching
        assert socket._take_text("after the failure") is False, "queued: the socket is ending"

    asyncio.run(main())
