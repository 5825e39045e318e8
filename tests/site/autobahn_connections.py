"""autobahn server connections opened by a browser's handshake, for the socket tests."""

from __future__ import annotations

from typing import Any

from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport


def open_autobahn_connection(protocol_class: type = WebSocketServerProtocol,
                             **options: Any) -> tuple[Any, StringTransport]:
    """A server connection of `protocol_class` (autobahn's), opened by a browser's handshake,
    writing to a transport that keeps what it is given (a clock for a reactor: none is
    installed)."""
    factory = WebSocketServerFactory(reactor=Clock())
    factory.setProtocolOptions(openHandshakeTimeout=0, autoPingInterval=0,
                               closeHandshakeTimeout=0, **options)
    made = protocol_class()
    made.factory = factory
    transport = StringTransport()
    made.makeConnection(transport)
    made.dataReceived(b"GET /ws/table/ABCD/ HTTP/1.1\r\nHost: localhost\r\n"
                      b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                      b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      b"Sec-WebSocket-Version: 13\r\n\r\n")
    assert made.state == made.STATE_OPEN
    transport.clear()
    return made, transport
