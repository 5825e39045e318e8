"""Under Daphne a read that is nothing but whole text frames, as a browser sends them, is
read and unmasked here and each text handed to the table socket that takes it; anything else
goes to autobahn as it came, which reads it, or refuses it, as before
(chudopoly_site/socket_reads.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from daphne.ws_protocol import WebSocketProtocol

from chudopoly_site import socket_reads
from tests.site.autobahn_connections import open_autobahn_connection

MASK = b"\x37\xfa\x21\x3d"


class _DaphneConnection(WebSocketProtocol):
    """Daphne's protocol with its server left out: opened, it has an application's queue."""

    muted = False
    client_addr = ("127.0.0.1", 50000)
    last_ping = 0.0
    closed_with: int | None = None

    def onConnect(self, request: Any) -> None:
        return None  # accepted, as Daphne accepts once its application says so

    def onOpen(self) -> None:
        self.application_queue = asyncio.Queue()

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
        self.closed_with = code


def _frame(payload: bytes, *, first: int = 0x81, masked: bool = True,
           length: bytes | None = None) -> bytes:
    """A browser's frame of `payload`: final text unless `first` says otherwise, masked,
    its length in its shortest form unless `length` gives the length bytes."""
    size = len(payload)
    if length is None:
        if size < 126:
            length = bytes((size,))
        elif size < 1 << 16:
            length = b"\x7e" + size.to_bytes(2, "big")
        else:
            length = b"\x7f" + size.to_bytes(8, "big")
    if not masked:
        return bytes((first,)) + length + payload
    return (bytes((first, length[0] | 0x80)) + length[1:] + MASK
            + socket_reads.unmasked(MASK, payload))


class _Taker:
    """A table socket's taker of texts: takes them all unless told to decline."""

    def __init__(self, takes: bool = True) -> None:
        self.texts: list[str] = []
        self.takes = takes

    def __call__(self, text: str) -> bool:
        if self.takes:
            self.texts.append(text)
        return self.takes


def _opened(**options: Any) -> tuple[_DaphneConnection, Any]:
    made, transport = open_autobahn_connection(_DaphneConnection, **options)
    transport.registerProducer(made, True)  # as Twisted's own transport has it
    return made, transport


@pytest.fixture
def connection() -> tuple[_DaphneConnection, _Taker, Any]:
    socket_reads.install()
    made, transport = _opened()
    taker = _Taker()
    socket_reads.take_texts(made, taker)
    return made, taker, transport


def _queued(made: _DaphneConnection) -> list[dict[str, Any]]:
    queue = made.application_queue
    return [queue.get_nowait() for _ in range(queue.qsize())]


def _close_code(transport: Any) -> int:
    written = transport.value()
    assert written[0] == 0x88, "a close frame"
    return int.from_bytes(written[2:4], "big")


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65_535, 65_536, 70_000])
def test_a_text_frame_of_each_length_form_is_handed_to_the_socket_that_takes_it(
        connection: tuple[_DaphneConnection, _Taker, Any], size: int) -> None:
    made, taker, transport = connection
    text = ("é" * size)[: size // 2] + "x" * (size - 2 * (size // 2))  # `size` bytes of UTF-8
    assert len(text.encode()) == size
    made.dataReceived(_frame(text.encode()))
    assert taker.texts == [text]
    assert _queued(made) == []
    assert made.last_ping > 0, "the frame counts as the browser's answer to Daphne's pings"
    assert transport.value() == b""


def test_two_frames_in_one_read_are_handed_over_in_order(
        connection: tuple[_DaphneConnection, _Taker, Any]) -> None:
    made, taker, _ = connection
    made.dataReceived(_frame(b'{"move": 1}') + _frame(b'{"move": 2}'))
    assert taker.texts == ['{"move": 1}', '{"move": 2}']


def test_a_frame_split_across_reads_is_read_by_autobahn_and_queued_as_daphne_queues_it(
        connection: tuple[_DaphneConnection, _Taker, Any]) -> None:
    made, taker, _ = connection
    whole = _frame(b"x" * 300)
    made.dataReceived(whole[:3])
    made.dataReceived(whole[3:100])
    made.dataReceived(whole[100:] + _frame(b"after"))
    assert taker.texts == []
    assert _queued(made) == [{"type": "websocket.receive", "text": "x" * 300},
                             {"type": "websocket.receive", "text": "after"}]
    made.dataReceived(_frame(b"next"))  # autobahn's buffer is empty again
    assert taker.texts == ["next"]


def test_a_control_frame_between_text_frames_sends_the_whole_read_to_autobahn(
        connection: tuple[_DaphneConnection, _Taker, Any]) -> None:
    made, taker, transport = connection
    made.dataReceived(_frame(b"one") + _frame(b"ping!", first=0x89) + _frame(b"two"))
    assert taker.texts == []
    assert _queued(made) == [{"type": "websocket.receive", "text": "one"},
                             {"type": "websocket.receive", "text": "two"}]
    assert transport.value() == b"\x8a\x05ping!", "autobahn answers the ping"


def test_a_fragmented_message_is_read_by_autobahn(
        connection: tuple[_DaphneConnection, _Taker, Any]) -> None:
    made, taker, _ = connection
    made.dataReceived(_frame(b"frag", first=0x01) + _frame(b"ment", first=0x80))
    assert taker.texts == []
    assert _queued(made) == [{"type": "websocket.receive", "text": "fragment"}]


def test_a_binary_frame_is_read_by_autobahn(
        connection: tuple[_DaphneConnection, _Taker, Any]) -> None:
    made, taker, _ = connection
    made.dataReceived(_frame(b"\x00\xff", first=0x82))
    assert taker.texts == []
    assert _queued(made) == [{"type": "websocket.receive", "bytes": b"\x00\xff"}]


@pytest.mark.parametrize(("frame", "reason"), [
    (_frame(b"hello", masked=False), "unmasked"),  # a browser must mask (RFC 6455, 5.1)
    (_frame(b"\xc3\x28 not UTF-8"), "invalid UTF-8"),
    (_frame(b"\xed\xa0\x80"), "invalid UTF-8"),  # an encoded surrogate is not UTF-8
    (_frame(b"short", length=b"\x7e\x00\x05"), "minimal length"),
    (_frame(b"x" * 200, length=b"\x7f" + (200).to_bytes(8, "big")), "minimal length"),
    (_frame(b"x", first=0xC1), "RSV"),  # an extension bit nobody negotiated
], ids=["unmasked", "invalid UTF-8", "surrogate", "long 16-bit form", "long 64-bit form",
        "RSV bit"])
def test_a_frame_against_the_protocol_is_refused_by_autobahn_and_nothing_handed_over(
        connection: tuple[_DaphneConnection, _Taker, Any], frame: bytes, reason: str) -> None:
    made, taker, transport = connection
    made.dataReceived(_frame(b"before") + frame)
    assert taker.texts == []
    assert _queued(made) == [{"type": "websocket.receive", "text": "before"}]
    assert reason in made.wasNotCleanReason
    assert made.state != made.STATE_OPEN and transport.disconnecting


def test_a_frame_over_daphnes_size_limit_is_refused_by_autobahn() -> None:
    socket_reads.install()
    made, transport = _opened(maxMessagePayloadSize=100)
    taker = _Taker()
    socket_reads.take_texts(made, taker)
    made.dataReceived(_frame(b"x" * 101))
    assert taker.texts == [] and _queued(made) == []
    assert "exceeds payload limit" in made.wasNotCleanReason
    assert made.state != made.STATE_OPEN and transport.disconnecting


def test_a_text_the_socket_declines_waits_in_daphnes_queue_and_so_do_those_behind_it(
        connection: tuple[_DaphneConnection, _Taker, Any]) -> None:
    made, taker, _ = connection
    taker.takes = False
    made.dataReceived(_frame(b"one"))
    taker.takes = True
    made.dataReceived(_frame(b"two"))  # not before "one", which the consumer has yet to get
    assert taker.texts == []
    assert _queued(made) == [{"type": "websocket.receive", "text": "one"},
                             {"type": "websocket.receive", "text": "two"}]


def test_without_a_taker_texts_go_to_daphnes_queue(
        connection: tuple[_DaphneConnection, _Taker, Any]) -> None:
    made, taker, _ = connection
    socket_reads.take_texts(made, None)
    made.dataReceived(_frame(b"hello"))
    assert taker.texts == []
    assert _queued(made) == [{"type": "websocket.receive", "text": "hello"}]


def test_a_muted_connection_hands_over_nothing(
        connection: tuple[_DaphneConnection, _Taker, Any]) -> None:
    made, taker, _ = connection
    made.muted = True
    made.dataReceived(_frame(b"hello"))
    assert taker.texts == [] and _queued(made) == []


def test_a_close_frame_is_read_by_autobahn_which_answers_it(
        connection: tuple[_DaphneConnection, _Taker, Any]) -> None:
    made, taker, transport = connection
    made.dataReceived(_frame((1000).to_bytes(2, "big"), first=0x88))
    assert taker.texts == []
    assert _close_code(transport) == 1000
    made.dataReceived(_frame(b"too late"))
    assert taker.texts == [] and _queued(made) == []


def test_a_connections_reads_come_from_the_reactor_with_no_log_context_wrapper() -> None:
    import socket

    from twisted.internet import asyncioreactor, tcp
    from twisted.internet.protocol import Protocol

    socket_reads.install()

    class _Noting(Protocol):
        def __init__(self) -> None:
            self.got: list[bytes] = []

        def dataReceived(self, data: bytes) -> None:
            self.got.append(data)

    loop = asyncio.new_event_loop()
    reactor = asyncioreactor.AsyncioSelectorReactor(loop)
    ours, theirs = socket.socketpair()
    noting = _Noting()
    made = tcp.Server(ours, noting, ("127.0.0.1", 5000), type("Port", (), {
        "_realPortNumber": 8000})(), 1, reactor)
    noting.makeConnection(made)
    try:
        handle = loop._selector.get_key(ours.fileno()).data[0]  # type: ignore[attr-defined]
        assert handle._callback == reactor._readOrWrite, "no callWithLogger around it"
        theirs.sendall(b"a frame")
        loop.run_until_complete(asyncio.sleep(0.05))
        assert noting.got == [b"a frame"]
        theirs.close()
        loop.run_until_complete(asyncio.sleep(0.05))
        assert made.disconnected, "a closed connection is still found and closed"
    finally:
        ours.close()
        loop.close()
