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
def lane(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], Any, consumers.Ended]]:
    """The table lane, as a list of what was handed to it and whom it would tell it ended."""
    handed: list[tuple[dict[str, Any], Any, consumers.Ended]] = []

    def take_on_lane(consumer: TableConsumer, message: dict[str, Any],
                     context: contextvars.Context, ended: consumers.Ended) -> None:
        handed.append((message, context, ended))

    monkeypatch.setattr(consumers, "_take_on_lane", take_on_lane)
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
        _, _, ended = lane[0]
        # The next message waits for the taken frame's handler, which then fails.
        dispatching = asyncio.ensure_future(socket.dispatch({"type": SOCKET_FRAME_FAILED}))
        await asyncio.sleep(0)
        assert not dispatching.done()
        ended(failed)
        assert socket._reads_from.application_queue.get_nowait() == {
            "type": SOCKET_FRAME_FAILED}
        with pytest.raises(ValueError, match="the handler failed"):
            await dispatching
        assert socket._take_text("after the failure") is False, "queued: the socket is ending"

    asyncio.run(main())


def test_a_message_waits_for_every_frame_taken_before_it_and_no_longer(
        lane: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    handled: list[str] = []

    def on_lane(consumer: TableConsumer, message: dict[str, Any],
                context: contextvars.Context | None = None) -> asyncio.Future[None]:
        handled.append(message["type"])
        done = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    monkeypatch.setattr(consumers, "_on_lane", on_lane)

    async def main() -> None:
        socket = _waiting_socket()
        socket._take_text("first")
        socket._take_text("second")
        heartbeat = asyncio.ensure_future(socket.dispatch({"type": "socket.heartbeat"}))
        await asyncio.sleep(0)
        (_, _, first_ended), (_, _, second_ended) = lane
        first_ended(None)
        await asyncio.sleep(0)
        assert handled == [], "the second taken frame's handler has not ended"
        second_ended(None)
        await heartbeat
        assert handled == ["socket.heartbeat"]
        # Nothing taken is running now: the next message starts at once.
        await socket.dispatch({"type": "socket.heartbeat"})
        assert handled == ["socket.heartbeat"] * 2

    asyncio.run(main())


def test_a_taken_frames_end_is_told_in_the_turn_its_frames_are_written(
        monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    monkeypatch.setattr(consumers, "_write_frames",
                        lambda loop, frames, sends=(): written.append("frames"))

    async def main() -> None:
        loop = asyncio.get_running_loop()
        consumers._end_on_loop(loop, lambda error: written.append(f"ended {error}"),
                               ([], []), None)
        assert written == ["frames", "ended None"], "no turn of the loop in between"

    asyncio.run(main())
