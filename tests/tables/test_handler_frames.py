"""A table socket's handler hands its frames to the event loop together when it ends
(games/platform/consumers.py): in the order it made them, one wake-up of the loop per
handler (its group messages included, sent after its frames), and one socket's failed send
does not keep the others' frames."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from games.platform.consumers import TableConsumer, _write_frames


class _Socket(TableConsumer):
    """A table socket whose server side is a list, with handlers that send frames."""

    def __init__(self, written: list[str], *, fails: bool = False) -> None:
        super().__init__()
        self.written = written
        self.fails = fails
        self.partners: list[_Socket] = []

    async def _asgi_send(self, message: dict[str, Any]) -> None:  # type: ignore[override]
        if self.fails:
            raise ConnectionError("the socket went away")
        self.written.append(message["text"])

    def test_move(self, event: dict[str, Any]) -> None:
        self.send(text_data="mine")
        self._deliver_soon("ABCD", {"type": "table.update", "version": 7})
        self.written.append("handler done")

    def test_burst(self, event: dict[str, Any]) -> None:
        self.send(text_data="mine")
        for other in self.partners:
            other.send(text_data=f"to {other.name}")
        # Nothing is written while the handler runs.
        self.written.append("handler done")


class _Layer:
    """A channel layer that notes each group message among the frames written."""

    def __init__(self, written: list[str]) -> None:
        self.written = written

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.written.append(f"group {group} v{message['version']}")


def _run(socket: _Socket, *others: _Socket, handler: str = "test.burst") -> int:
    """Run the socket's handler on a worker thread, as the table lane does; returns how many
    times the event loop was woken for frames."""
    wakes = 0

    async def main() -> None:
        nonlocal wakes
        loop = asyncio.get_running_loop()
        wake = loop.call_soon_threadsafe

        def counted(callback: Any, *args: Any) -> Any:
            nonlocal wakes
            wakes += callback is _write_frames  # not the executor's own hand-back
            return wake(callback, *args)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        for each in (socket, *others):
            each.loop = loop
        await loop.run_in_executor(None, socket._handle, {"type": handler})
        for _ in range(5):
            await asyncio.sleep(0)

    asyncio.run(main())
    return wakes


def _socket(written: list[str], name: str, *, fails: bool = False) -> _Socket:
    made = _Socket(written, fails=fails)
    made.name = name
    return made


@pytest.mark.django_db
def test_a_handlers_frames_are_written_after_it_in_the_order_made_with_one_wake_up() -> None:
    written: list[str] = []
    mover = _socket(written, "mover")
    mover.partners = [_socket(written, "bob"), _socket(written, "watcher")]
    assert _run(mover, *mover.partners) == 1
    assert written == ["handler done", "mine", "to bob", "to watcher"]


@pytest.mark.django_db
def test_a_socket_whose_send_fails_does_not_keep_the_others_frames() -> None:
    written: list[str] = []
    mover = _socket(written, "mover")
    mover.partners = [_socket(written, "gone", fails=True), _socket(written, "carol")]
    _run(mover, *mover.partners)
    assert written == ["handler done", "mine", "to carol"]


@pytest.mark.django_db
def test_a_handlers_group_message_goes_with_its_frames_after_them_in_the_same_wake_up() -> None:
    written: list[str] = []
    mover = _socket(written, "mover")
    mover.channel_layer = _Layer(written)
    assert _run(mover, handler="test.move") == 1
    assert written == ["handler done", "mine", "group table.ABCD v7"]


def _plain_socket(written: list[str], name: str, *, fails: bool = False) -> _Socket:
    """A socket whose server takes each frame by a plain call, as Daphne's does
    (chudopoly_site/socket_writes.plain_send)."""
    made = _socket(written, name, fails=fails)

    def write(message: dict[str, Any]) -> None:
        if fails:
            raise ConnectionError("the socket went away")
        written.append(message["text"])

    made._write_now = write
    return made


@pytest.mark.django_db
def test_plainly_written_sockets_get_a_handlers_frames_as_it_ends_in_the_order_made() -> None:
    written: list[str] = []
    mover = _plain_socket(written, "mover")
    mover.partners = [_plain_socket(written, "bob"), _plain_socket(written, "watcher")]
    assert _run(mover, *mover.partners) == 1
    assert written == ["handler done", "mine", "to bob", "to watcher"]


@pytest.mark.django_db
def test_a_plainly_written_frame_is_on_its_way_when_the_hand_off_returns_with_no_task() -> None:
    written: list[str] = []
    socket = _plain_socket(written, "bob")

    async def main() -> tuple[list[str], int]:
        tasks = len(asyncio.all_tasks())
        _write_frames(asyncio.get_running_loop(), [(socket, {"text": "now"})])
        return list(written), len(asyncio.all_tasks()) - tasks

    assert asyncio.run(main()) == (["now"], 0)


@pytest.mark.django_db
def test_a_plainly_written_socket_that_fails_does_not_keep_the_others_frames() -> None:
    written: list[str] = []
    mover = _plain_socket(written, "mover")
    mover.partners = [_plain_socket(written, "gone", fails=True), _socket(written, "carol"),
                      _plain_socket(written, "dave")]
    _run(mover, *mover.partners)
    # Carol's server is awaited (a task), so hers comes after the plain writes.
    assert written == ["handler done", "mine", "to dave", "to carol"]
