"""Under Daphne a frame goes to its connection's socket at once when nothing is waiting in
front of it, and otherwise queues behind what is; a table socket's frames are handed to its
connection by a plain call, with no coroutine or session wrapper on the way, a text frame
framed as autobahn frames it (chudopoly_site/socket_writes.py)."""

from __future__ import annotations

import functools
import socket
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest
from channels.sessions import InstanceSessionWrapper
from twisted.internet import tcp

from chudopoly_site import socket_writes
from tests.site.autobahn_connections import open_autobahn_connection


class _Reactor:
    """Notes which descriptors asked to be written on a later turn."""

    def __init__(self) -> None:
        self.writers: list[Any] = []

    def addWriter(self, descriptor: Any) -> None:
        if descriptor not in self.writers:  # as a reactor's: once, however often asked
            self.writers.append(descriptor)

    def removeWriter(self, descriptor: Any) -> None:
        if descriptor in self.writers:
            self.writers.remove(descriptor)

    def addReader(self, descriptor: Any) -> None:
        pass  # a server connection starts reading as it is made


@pytest.fixture
def connection() -> Iterator[tuple[tcp.Connection, socket.socket, _Reactor]]:
    socket_writes.install()
    ours, theirs = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    reactor = _Reactor()
    made = tcp.Connection(ours, None, reactor)
    made.connected = 1
    yield made, theirs, reactor
    ours.close()
    theirs.close()


def _read_all(theirs: socket.socket) -> bytes:
    theirs.setblocking(False)
    got = b""
    while True:
        try:
            chunk = theirs.recv(1 << 20)
        except BlockingIOError:
            return got
        if not chunk:
            return got
        got += chunk


def test_a_frame_with_nothing_in_front_of_it_is_on_the_socket_when_write_returns(
        connection: tuple[tcp.Connection, socket.socket, _Reactor]) -> None:
    made, theirs, reactor = connection
    made.write(b"a frame")
    assert _read_all(theirs) == b"a frame"
    assert reactor.writers == []  # no turn of the reactor was asked for


def test_what_the_socket_does_not_take_waits_for_the_reactor_and_later_frames_queue_behind(
        connection: tuple[tcp.Connection, socket.socket, _Reactor]) -> None:
    made, theirs, reactor = connection
    big = bytes(range(256)) * 4096  # far more than the socket's buffers hold
    made.write(big)
    made.write(b"after")
    assert reactor.writers == [made]  # the rest waits for the socket to be writable
    got = _read_all(theirs)
    while reactor.writers:
        made.doWrite()
        got += _read_all(theirs)
    assert got == big + b"after"


def test_a_closed_connection_writes_nothing(
        connection: tuple[tcp.Connection, socket.socket, _Reactor]) -> None:
    made, theirs, reactor = connection
    made.connected = 0
    made.write(b"too late")
    assert _read_all(theirs) == b""
    assert reactor.writers == []


class _Protocol:
    """A connection's protocol as Daphne's server knows it: it takes replies as they come
    (it is not open: its frames are not framed here)."""

    STATE_OPEN, state = "open", "opening"

    def __init__(self) -> None:
        self.replies: list[dict[str, Any]] = []

    def handle_reply(self, message: dict[str, Any]) -> None:
        self.replies.append(message)


@pytest.fixture
def daphne_server(monkeypatch: pytest.MonkeyPatch) -> type:
    """Daphne's server module as a running Daphne has it loaded (importing the real one
    would install Twisted's reactor in the test process)."""

    class Server:
        def __init__(self) -> None:
            self.connections: dict[Any, dict[str, Any]] = {}

        async def handle_reply(self, protocol: Any, message: dict[str, Any]) -> None:
            raise AssertionError("the plain send does not go through Daphne's coroutine")

    module = types.ModuleType("daphne.server")
    module.Server = Server  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "daphne.server", module)
    return Server


def _consumers_send(server: Any, protocol: _Protocol) -> Any:
    """The send a consumer gets under Daphne: Daphne's, wrapped by Channels' sessions."""
    scope = {"cookies": {}, "type": "websocket"}
    return InstanceSessionWrapper(scope, functools.partial(server.handle_reply, protocol)).send


def test_daphnes_send_is_a_plain_call_that_hands_each_message_to_its_connection_at_once(
        daphne_server: type) -> None:
    server, protocol = daphne_server(), _Protocol()
    server.connections[protocol] = {}
    write = socket_writes.plain_send(_consumers_send(server, protocol))
    assert write is not None
    write({"type": "websocket.send", "text": "one"})
    write({"type": "websocket.send", "text": "two"})
    assert [reply["text"] for reply in protocol.replies] == ["one", "two"]


def test_the_plain_send_of_a_connection_that_is_gone_writes_nothing(daphne_server: type) -> None:
    server, protocol = daphne_server(), _Protocol()
    write = socket_writes.plain_send(_consumers_send(server, protocol))
    assert write is not None
    write({"type": "websocket.send", "text": "unknown connection"})
    server.connections[protocol] = {"disconnected": True}
    write({"type": "websocket.send", "text": "closed connection"})
    assert protocol.replies == []


def test_any_other_send_is_left_to_be_awaited(daphne_server: type) -> None:
    async def a_communicators_send(message: dict[str, Any]) -> None:
        pass

    assert socket_writes.plain_send(a_communicators_send) is None
    wrapped = InstanceSessionWrapper({"cookies": {}}, a_communicators_send).send
    assert socket_writes.plain_send(wrapped) is None


def test_without_daphne_loaded_every_send_is_awaited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "daphne.server", raising=False)
    assert socket_writes.plain_send(functools.partial(print, object())) is None


def test_autobahns_unlogged_debug_values_are_not_formatted_for_a_terminal() -> None:
    from autobahn.twisted import websocket as twisted_websocket
    from autobahn.websocket import protocol

    socket_writes.install()
    peer = "tcp4:127.0.0.1:5000"
    assert protocol.hlval(peer) is peer
    assert twisted_websocket.hltype(test_any_other_send_is_left_to_be_awaited) is (
        test_any_other_send_is_left_to_be_awaited)


@pytest.mark.parametrize("size", [3, 125, 126, 4_000, 70_000])
def test_a_text_frame_made_here_is_byte_for_byte_what_autobahn_writes(size: int) -> None:
    made, transport = open_autobahn_connection(maxMessagePayloadSize=1 << 20)
    payload = ("é" * size).encode()[:size]
    made.sendMessage(payload)
    assert socket_writes.framed_plainly(made, len(payload))
    assert socket_writes.text_frame(payload) == transport.value()


def test_a_message_autobahn_would_cut_compress_or_refuse_is_left_to_autobahn() -> None:
    limited, _ = open_autobahn_connection(maxMessagePayloadSize=100)
    assert not socket_writes.framed_plainly(limited, 101)
    fragmented, _ = open_autobahn_connection(autoFragmentSize=100)
    assert not socket_writes.framed_plainly(fragmented, 101)
    queued, _ = open_autobahn_connection()
    queued.send_queue.append((b"waiting", False))
    assert not socket_writes.framed_plainly(queued, 10)
    closing, _ = open_autobahn_connection()
    closing.sendClose(code=1000)
    assert not socket_writes.framed_plainly(closing, 10)


def test_daphnes_plain_send_frames_text_itself_on_an_open_connection_and_leaves_the_rest(
        daphne_server: type) -> None:
    made, transport = open_autobahn_connection()
    replies: list[dict[str, Any]] = []
    made.handle_reply = replies.append  # Daphne's protocol's own way with a message
    server = daphne_server()
    server.connections[made] = {}
    write = socket_writes.plain_send(_consumers_send(server, made))
    assert write is not None
    write({"type": "websocket.send", "text": "a push"})
    assert transport.value() == socket_writes.text_frame(b"a push")
    assert replies == []
    write({"type": "websocket.close", "code": 4404})
    write({"type": "websocket.send", "bytes": b"binary"})
    assert [reply["type"] for reply in replies] == ["websocket.close", "websocket.send"]


def test_a_push_on_a_tcp_connection_without_tls_goes_to_its_socket_by_one_write(
        daphne_server: type) -> None:
    socket_writes.install()
    made, _ = open_autobahn_connection()
    ours, theirs = socket.socketpair()
    reactor = _Reactor()
    made.transport = tcp.Server(ours, made, ("127.0.0.1", 5000), types.SimpleNamespace(
        _realPortNumber=8000), 1, reactor)
    server = daphne_server()
    server.connections[made] = {}
    write = socket_writes.plain_send(_consumers_send(server, made))
    assert write is not None
    write({"type": "websocket.send", "text": "a push"})
    assert _read_all(theirs) == socket_writes.text_frame(b"a push")
    assert reactor.writers == []
    # Daphne marks its record of the connection before it forgets it: nothing more is sent.
    server.connections[made]["disconnected"] = 1.0
    del server.connections[made]
    write({"type": "websocket.send", "text": "after the close"})
    assert _read_all(theirs) == b""
    ours.close()
    theirs.close()
