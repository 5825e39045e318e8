"""Frames read from a table socket's connection, under Daphne (Twisted on asyncio).

A browser's frame went the whole way before a table socket's handler heard of it: autobahn's
parser (pure Python: a header, a frame object, a masker, a message begun, its data gathered,
ended, validated as UTF-8 in steps), Daphne's `onMessage`, the application's queue, the
consumer's waiting receive task woken on a turn of its own, Channels' `await_many_dispatch`
woken on another, and a new receive task made for the next message. Here a read that is
nothing but whole text frames, as a browser sends them (final, masked, no extension bits,
valid UTF-8, within Daphne's size limits, each length in its shortest form), on an open
connection with nothing of autobahn's half-read, is read in one step, and each text is handed
to the table socket's `take_text` at once: its handler is on the table lane before the read
returns (games/platform/consumers.py). A consumer that cannot take it now (a message of its
own under way, the server's queue not empty) gets it in Daphne's queue, as Daphne puts it.

Anything else goes to autobahn as it came, whole: control frames (a ping, a close) or a read
with one among its frames, fragments, binary frames, unmasked frames, invalid UTF-8, a length
not in its shortest form, an oversize frame, a frame cut across reads (and what follows it
until autobahn's buffer is empty again), a connection opening or closing, a ping of Daphne's
awaiting its answer. autobahn refuses what is wrong exactly as before. autobahn's traffic
counters, which Daphne never reads, do not count the frames read here.

A connection's reads also come to it with one wrapper of Twisted's less. Twisted's asyncio
reactor calls each readable descriptor through `log.callWithLogger`, which reads the
connection's log prefix and sets it as the legacy log's context ("system") around the read:
about a dozen calls a read, for log lines that name their system, which nothing here writes
(Daphne logs through the standard library, autobahn through txaio). A server's TCP
connection is read by the reactor's own `_readOrWrite` directly, which still catches and
logs what the read raises, and closes the connection as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

# A consumer's taker of texts: True when it took the text, False to have it queued.
TakeText = Callable[[str], bool]

_TEXT_FINAL = 0x81  # FIN, no RSV bits, opcode 1 (RFC 6455, 5.2)
_MASKED = 0x80
_installed = False


def install() -> None:
    """Read plain text frames here from now on (idempotent). Call only under Daphne: it
    imports Daphne's protocol, which needs the process's reactor."""
    global _installed
    if _installed:
        return
    from daphne.ws_protocol import WebSocketProtocol

    kept_data_received = WebSocketProtocol.dataReceived

    def dataReceived(self: Any, data: bytes) -> None:
        texts = plain_texts(self, data) if readable_plainly(self) else None
        if texts is None:
            kept_data_received(self, data)
            return
        for text in texts:
            hand_over(self, text)

    WebSocketProtocol.dataReceived = dataReceived  # type: ignore[method-assign]
    WebSocketProtocol.take_text = None  # type: ignore[attr-defined]
    read_connections_directly()
    _installed = True


def read_connections_directly() -> None:
    """Have the asyncio reactor read a server's TCP connection without Twisted's log-context
    wrapper (the module's docstring); any other descriptor as before."""
    from twisted.internet import asyncioreactor, tcp

    reactor_class = asyncioreactor.AsyncioSelectorReactor
    kept_add_reader = reactor_class.addReader

    def addReader(self: Any, reader: Any) -> None:
        if (reader.__class__ is not tcp.Server or reader in self._readers
                or reader in self._continuousPolling._readers):
            kept_add_reader(self, reader)
            return
        fd = reader.fileno()
        try:
            self._asyncioEventloop.add_reader(fd, self._readOrWrite, reader, True)
        except OSError:
            kept_add_reader(self, reader)  # whose own handling of it is kept
            return
        self._readers[reader] = fd

    reactor_class.addReader = addReader  # type: ignore[method-assign]


def take_texts(protocol: Any, take: TakeText | None) -> None:
    """Have `take` given the texts read on `protocol` from now on (None: back to Daphne's
    queue). The consumer sets it back to None as it ends, which also breaks the cycle."""
    protocol.take_text = take


def readable_plainly(protocol: Any) -> bool:
    """Whether autobahn, reading on this connection now, would do nothing with a whole text
    frame but hand its text to Daphne: the connection open, nothing half-read, no extension,
    masks applied, no ping awaiting its answer (any frame would end the wait), no frame
    logging or timings."""
    return (protocol.state == protocol.STATE_OPEN and not protocol.data
            and protocol.current_frame is None and not protocol.inside_message
            and protocol._perMessageCompress is None and protocol.applyMask
            and protocol.autoPingTimeoutCall is None and not protocol.trackedTimings
            and not protocol.logFrames and not protocol.logOctets)


def plain_texts(protocol: Any, data: bytes) -> list[str] | None:
    """The texts of `data` if it is one or more whole, final, masked text frames of valid
    UTF-8 within the connection's limits and nothing else; None for anything else."""
    frame_limit, message_limit = protocol.maxFramePayloadSize, protocol.maxMessagePayloadSize
    texts: list[str] = []
    at, end = 0, len(data)
    while at < end:
        if end - at < 6 or data[at] != _TEXT_FINAL or not data[at + 1] & _MASKED:
            return None
        size = data[at + 1] & 0x7F
        at += 2
        if size == 126:
            size = int.from_bytes(data[at:at + 2], "big")
            at += 2
            if size < 126:
                return None  # not the shortest form: autobahn refuses it
        elif size == 127:
            size = int.from_bytes(data[at:at + 8], "big")
            at += 8
            if size < 1 << 16 or size >= 1 << 63:
                return None  # not the shortest form, or the top bit set: refused
        mask = data[at:at + 4]
        at += 4
        stop = at + size
        if (stop > end or (frame_limit and size > frame_limit)
                or (message_limit and size > message_limit)):
            return None
        try:
            texts.append(unmasked(mask, data[at:stop]).decode())
        except UnicodeDecodeError:
            return None  # autobahn fails the connection (1007)
        at = stop
    return texts or None


def unmasked(mask: bytes, payload: bytes) -> bytes:
    """`payload` XORed with its 4-byte `mask` repeated (RFC 6455, 5.3), as one integer."""
    size = len(payload)
    key = (mask * (size // 4 + 1))[:size]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(key, "little")).to_bytes(
        size, "little")


def hand_over(protocol: Any, text: str) -> None:
    """What Daphne's `onMessage` does with a text, but to the consumer's `take_text` when it
    takes it now: its queue still carries the messages before it, if any."""
    if protocol.muted:
        return
    protocol.last_ping = time.time()  # Daphne's: any frame counts as the client's answer
    take: TakeText | None = protocol.take_text
    queue = protocol.application_queue
    if take is None or not queue.empty() or not take(text):
        queue.put_nowait({"type": "websocket.receive", "text": text})
