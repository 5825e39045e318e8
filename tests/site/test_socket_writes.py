"""Under Daphne a frame goes to its connection's socket at once when nothing is waiting in
front of it, and otherwise queues behind what is (chudopoly_site/socket_writes.py)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet import tcp

from chudopoly_site import socket_writes


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
