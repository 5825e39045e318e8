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
"""

from __future__ import annotations

from typing import Any

_installed = False


def install() -> None:
    """Write at once from now on (idempotent). Called where the process runs on Twisted."""
    global _installed
    if _installed:
        return
    from twisted.internet.abstract import FileDescriptor

    kept_write = FileDescriptor.write

    def write(self: Any, data: bytes) -> None:
        sock = getattr(self, "socket", None)
        if (sock is None or type(data) is not bytes or not data or self.dataBuffer
                or self._tempDataBuffer or not self.connected or self._writeDisconnected
                or self.disconnecting or getattr(self, "TLS", False)):
            kept_write(self, data)
            return
        try:
            sent = sock.send(data)
        except OSError:  # would block, or failing: Twisted's own write finds out next turn
            sent = 0
        if sent < len(data):
            kept_write(self, data[sent:])

    FileDescriptor.write = write  # type: ignore[method-assign]
    _installed = True
