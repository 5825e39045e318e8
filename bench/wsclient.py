"""A small asyncio websocket client (RFC 6455), enough to drive the table socket from scripts.

The project has no websocket client library, and the hardening tests need one that can also
send what a browser never would (binary frames, bad opcodes, unmasked or reserved-bit frames,
huge payloads, broken UTF-8). It speaks to 127.0.0.1 only: `connect` refuses any other host.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import struct
import time
from collections import deque
from urllib.parse import urlsplit

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
LOCAL_HOSTS = ("127.0.0.1", "localhost")


class ConnectionClosed(Exception):
    def __init__(self, code: int | None = None, reason: str = "") -> None:
        super().__init__(f"websocket closed ({code}) {reason}".strip())
        self.code = code
        self.reason = reason


class HandshakeRefused(Exception):
    def __init__(self, status: int, head: str) -> None:
        super().__init__(f"handshake refused with HTTP {status}")
        self.status = status
        self.head = head


def frame_bytes(opcode: int, payload: bytes, *, fin: bool = True, mask: bool = True,
                rsv: int = 0) -> bytes:
    """One websocket frame as bytes (a client must mask; tests may choose not to)."""
    head = bytearray([(0x80 if fin else 0) | (rsv & 0x7) << 4 | (opcode & 0xF)])
    length = len(payload)
    mask_bit = 0x80 if mask else 0
    if length < 126:
        head.append(mask_bit | length)
    elif length < 1 << 16:
        head.append(mask_bit | 126)
        head += struct.pack("!H", length)
    else:
        head.append(mask_bit | 127)
        head += struct.pack("!Q", length)
    if not mask:
        return bytes(head) + payload
    key = os.urandom(4)
    return bytes(head) + key + _xor(payload, key)


def _xor(payload: bytes, key: bytes) -> bytes:
    """The payload masked (or unmasked) with a 4-byte key: one XOR of two big integers, where
    a loop over the bytes cost the measuring client a microsecond for every 20 bytes sent."""
    n = len(payload)
    whole = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(whole, "big")).to_bytes(n, "big")


def _time_out(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError())


class WSClient:
    """One websocket connection. `recv()` returns text messages; pings are answered."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.closed: ConnectionClosed | None = None
        self._send_lock = asyncio.Lock()
        # One reader task owns the stream, so a recv() that times out never loses half a frame.
        # It leaves each message here and wakes whoever waits in recv(): a future and a timer
        # a wait, where asyncio.wait_for on a Queue made a task of every call (the measuring
        # client makes a few hundred thousand a minute, on the cores of the server it times).
        self._messages: deque[tuple[float, str] | ConnectionClosed] = deque()
        self._waiters: list[asyncio.Future[None]] = []
        # perf_counter() when the message recv() last returned was read off the socket: a
        # client process that plays hundreds of seats may get round to a message later.
        self.arrived_at = 0.0
        self._reader_task = asyncio.get_running_loop().create_task(self._read_loop())

    @classmethod
    async def connect(cls, url: str, *, cookie: str = "", origin: str | None = "auto",
                      timeout: float = 10.0, extra_headers: dict[str, str] | None = None
                      ) -> WSClient:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port or 80
        if host not in LOCAL_HOSTS:
            raise ValueError(f"refusing to connect anywhere but this machine: {host}")
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=1 << 22), timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket",
                 "Connection: Upgrade", f"Sec-WebSocket-Key: {key}",
                 "Sec-WebSocket-Version: 13"]
        if origin == "auto":
            origin = f"http://{host}:{port}"
        if origin is not None:
            lines.append(f"Origin: {origin}")
        if cookie:
            lines.append(f"Cookie: {cookie}")
        for name, value in (extra_headers or {}).items():
            lines.append(f"{name}: {value}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        try:
            head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)).decode(
                "latin-1")
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            writer.close()
            raise HandshakeRefused(0, "") from exc
        status = int(head.split(" ", 2)[1])
        if status != 101:
            writer.close()
            raise HandshakeRefused(status, head)
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if f"sec-websocket-accept: {accept}".lower() not in head.lower():
            writer.close()
            raise HandshakeRefused(status, head)
        return cls(reader, writer)

    # --- sending --------------------------------------------------------------------------
    async def send_raw(self, data: bytes) -> None:
        if self.closed is not None:
            raise self.closed
        async with self._send_lock:
            try:
                self.writer.write(data)
                await self.writer.drain()
            except (ConnectionError, RuntimeError) as exc:
                self.closed = ConnectionClosed(None, str(exc))
                raise self.closed from exc

    async def send(self, text: str) -> None:
        await self.send_raw(frame_bytes(OP_TEXT, text.encode("utf-8", "surrogatepass")))

    async def send_bytes(self, data: bytes) -> None:
        await self.send_raw(frame_bytes(OP_BINARY, data))

    # --- receiving ------------------------------------------------------------------------
    async def _read_frame(self) -> tuple[bool, int, bytes]:
        try:
            b1, b2 = await self.reader.readexactly(2)
            length = b2 & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
            key = await self.reader.readexactly(4) if b2 & 0x80 else None
            payload = await self.reader.readexactly(length)
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            self.closed = ConnectionClosed(1006, "connection lost")
            raise self.closed from exc
        if key is not None:
            payload = _xor(payload, key)
        return bool(b1 & 0x80), b1 & 0x0F, payload

    async def recv(self, timeout: float | None = None) -> str:
        """The next text (or binary, decoded) message; raises ConnectionClosed or TimeoutError.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._messages:  # another recv() may have taken what woke this one
            if self.closed is not None:
                raise self.closed
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError
            await self._wait(left)
        item = self._messages[0]
        if isinstance(item, ConnectionClosed):
            raise item  # it stays: every later recv() sees the close too
        self._messages.popleft()
        self.arrived_at, text = item
        return text

    async def _wait(self, timeout: float | None) -> None:
        """Until a message is in (TimeoutError after `timeout` seconds)."""
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        self._waiters.append(waiter)
        timer = None if timeout is None else loop.call_later(timeout, _time_out, waiter)
        try:
            await waiter
        finally:
            self._waiters.remove(waiter)
            if timer is not None:
                timer.cancel()
            # A timeout's exception holds this frame, which held the waiter holding the
            # exception: a cycle a wait, left for the collector, which the measuring client
            # holds off while it plays (bench/live_latency.py).
            del waiter, timer

    def _put(self, item: tuple[float, str] | ConnectionClosed) -> None:
        self._messages.append(item)
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _read_loop(self) -> None:
        try:
            while True:
                text = await self._recv()
                self._put((time.perf_counter(), text))
        except ConnectionClosed as exc:
            self._put(exc)
        except asyncio.CancelledError:
            self._put(ConnectionClosed(1006, "reader stopped"))
            raise
        except Exception as exc:  # a protocol error from the server side
            self.closed = ConnectionClosed(1002, f"bad frame from server: {exc!r}")
            self._put(self.closed)

    async def _recv(self) -> str:
        parts: list[bytes] = []
        while True:
            fin, opcode, payload = await self._read_frame()
            if opcode == OP_PING:
                await self.send_raw(frame_bytes(OP_PONG, payload))
                continue
            if opcode == OP_PONG:
                continue
            if opcode == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self.closed = ConnectionClosed(code, payload[2:].decode("utf-8", "replace"))
                try:
                    self.writer.write(frame_bytes(OP_CLOSE, payload[:2]))
                    self.writer.close()
                except (ConnectionError, RuntimeError):
                    pass
                raise self.closed
            parts.append(payload)
            if fin:
                return b"".join(parts).decode("utf-8", "replace")

    async def close(self, code: int = 1000) -> None:
        self._reader_task.cancel()
        if self.closed is None:
            with contextlib.suppress(ConnectionClosed):
                await self.send_raw(frame_bytes(OP_CLOSE, struct.pack("!H", code)))
            self.closed = ConnectionClosed(code, "closed by us")
        try:
            self.writer.close()
            await asyncio.wait_for(self.writer.wait_closed(), 2)
        except (ConnectionError, TimeoutError, RuntimeError, OSError):
            pass

    def abort(self) -> None:
        """Drop the TCP connection without a close handshake (a tab killed, a network cut)."""
        self.closed = ConnectionClosed(1006, "aborted by us")
        self._reader_task.cancel()
        transport = self.writer.transport
        if transport is not None:
            transport.abort()
