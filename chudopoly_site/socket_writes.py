"""Frames written to a connection's socket at once, under Daphne (Twisted on asyncio).

Twisted's transport keeps every write for the reactor's next turn: it registers the socket
for writability (an `epoll_ctl`), the loop turns, the socket is written, and it unregisters it
(another `epoll_ctl`). A move writes four frames, each to its own socket with nothing waiting
in front of it, so that is eight system calls and a turn of the loop a move, and each system
call lets go of the GIL, which the table lane, busy with the next move, takes and keeps for up
to a switch interval (docs/performance.md, "The process model, live"). Here a write to a
connection with nothing buffered goes to its socket at once; whatever the socket does not take
(a full send buffer, or an error for the next turn to find) is kept by Twisted's own write, as
before, behind which later writes queue in order.

Two more costs of a frame are cut here. `plain_send` gives a consumer Daphne's send for its
connection as a plain call: the table sockets' frames are written on the loop as their
handler ends, with no task, no Channels session wrapper (which saves a session only on an
HTTP response) and no coroutine of Daphne's. And autobahn's debug messages, never logged here,
no longer have their values coloured for the terminal (`click.style`, four calls a frame in
and four a frame out) before the logger drops them.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Awaitable, Callable
from typing import Any

_installed = False


def install() -> None:
    """Write at once from now on (idempotent). Called where the process runs on Twisted."""
    global _installed
    if _installed:
        return
    from twisted.internet.abstract import FileDescriptor
    from twisted.internet.tcp import Server

    global _kept_write, _tcp_server
    _kept_write, _tcp_server = FileDescriptor.write, Server
    FileDescriptor.write = write_at_once  # type: ignore[method-assign]
    _quiet_autobahn_debug()
    _installed = True


_kept_write: Callable[[Any, bytes], None] | None = None  # Twisted's own write, once installed
_tcp_server: type | None = None  # Twisted's TCP connection of a server, once installed


def write_at_once(transport: Any, data: bytes) -> None:
    """Twisted's `FileDescriptor.write`, to the socket at once when nothing is buffered."""
    sock = getattr(transport, "socket", None)
    if (sock is None or type(data) is not bytes or not data or transport.dataBuffer
            or transport._tempDataBuffer or not transport.connected
            or transport._writeDisconnected or transport.disconnecting
            or getattr(transport, "TLS", False)):
        _kept_write(transport, data)  # type: ignore[misc]
        return
    try:
        sent = sock.send(data)
    except OSError:  # would block, or failing: Twisted's own write finds out next turn
        sent = 0
    if sent < len(data):
        _kept_write(transport, data[sent:])  # type: ignore[misc]


def _as_it_is(value: Any, *args: Any, **kwargs: Any) -> Any:
    return value


def _quiet_autobahn_debug() -> None:
    """autobahn formats its debug messages' values whether or not debug is logged: in
    colour, through click, for every frame in and out. Debug stays loggable, uncoloured."""
    from autobahn.twisted import websocket as twisted_websocket
    from autobahn.websocket import protocol

    for module in (protocol, twisted_websocket):
        module.hltype = module.hlval = _as_it_is  # type: ignore[attr-defined]


Send = Callable[[dict[str, Any]], Awaitable[None]]


def plain_send(send: Send) -> Callable[[dict[str, Any]], None] | None:
    """Daphne's send of one websocket connection, as the consumer got it (through Channels'
    session wrapper), made a plain call; None for any other send (a test's communicator,
    another server), which the caller then awaits as it is.

    What it leaves out is nothing a websocket message needs: the session wrapper saves the
    session and sets its cookie only on an HTTP response, and Daphne's coroutine checks an
    HTTP response's headers, then hands the message to the connection's protocol as here.
    A text frame on an open connection is framed here and written to the connection's
    transport, byte for byte what Daphne and autobahn would write (`_framed_plainly`);
    anything else (the accept, a close, a connection still opening or closing) goes to
    the protocol as Daphne hands it over."""
    found = daphne_connection(send)
    if found is None:
        return None
    connections, protocol = found
    # Daphne's record of the connection: one dict from its connecting on, marked
    # "disconnected" before Daphne forgets it, so it is read here with no look-up by the
    # protocol (whose hash is a Python method of Daphne's).
    connection = connections.get(protocol)

    def write(message: dict[str, Any]) -> None:
        known = connection if connection is not None else connections.get(protocol)
        if known is None or known.get("disconnected"):
            return  # as Daphne's own: the connection is gone
        text = message.get("text")
        if text and message["type"] == "websocket.send" and not message.get("bytes"):
            payload = text.encode()
            if framed_plainly(protocol, len(payload)):
                transport = protocol.transport
                if type(transport) is _tcp_server and not transport.TLS:
                    # What its write does without TLS (twisted's _newtls), one call less.
                    write_at_once(transport, text_frame(payload))
                else:
                    transport.write(text_frame(payload))
                return
        protocol.handle_reply(message)

    return write


def daphne_connection(send: Send) -> tuple[dict[Any, dict[str, Any]], Any] | None:
    """Daphne's connections and this connection's protocol, when `send` is Daphne's send of
    one websocket connection as a consumer gets it (through Channels' session wrapper);
    None for any other send."""
    from channels.sessions import InstanceSessionWrapper

    daphne_server = sys.modules.get("daphne.server")  # never imported here: it installs a reactor
    if daphne_server is None:
        return None
    if getattr(send, "__func__", None) is InstanceSessionWrapper.send:
        send = send.__self__.real_send  # type: ignore[attr-defined]
    if not (isinstance(send, functools.partial) and len(send.args) == 1 and not send.keywords
            and getattr(send.func, "__func__", None) is daphne_server.Server.handle_reply):
        return None
    return send.func.__self__.connections, send.args[0]  # type: ignore[attr-defined]


def framed_plainly(protocol: Any, size: int) -> bool:
    """Whether autobahn would send a text message of `size` bytes on this connection as one
    frame written at once, as `text_frame` makes it: the connection open, the message not
    compressed (Daphne negotiates no compression), not masked (a server's frames never
    are), not cut into fragments, within the size limit, nothing of autobahn's own queued in
    front of it, no frame logging or timings."""
    if protocol.state != protocol.STATE_OPEN:
        return False
    fragment, limit = protocol.autoFragmentSize, protocol.maxMessagePayloadSize
    return (protocol._perMessageCompress is None and not protocol.maskServerFrames
            and (not fragment or size <= fragment) and (not limit or size <= limit)
            and not protocol.send_queue and not protocol.trackedTimings
            and not protocol.logFrames and not protocol.logOctets)


def text_frame(payload: bytes) -> bytes:
    """A whole, unmasked websocket text frame of UTF-8 `payload` (RFC 6455, 5.2), as autobahn
    writes a server's message: what autobahn's sendMessage, sendFrame and sendData do for it,
    in one step. Its traffic counters, which Daphne never reads, are not kept."""
    size = len(payload)
    if size < 126:
        head = bytes((0x81, size))
    elif size < 1 << 16:
        head = b"\x81\x7e" + size.to_bytes(2, "big")
    else:
        head = b"\x81\x7f" + size.to_bytes(8, "big")
    return head + payload
