"""The open table sockets of this web process, checked in together.

A socket's `SeatSocket.seen_at` tells the clocks sweep that the process holding it is alive
(games/platform/clocks.py drops sockets silent for SOCKET_STALE_SECONDS and hands their seats to a
bot). Each socket used to write its own row: at 100 tables a process holds a few hundred sockets,
opened together, so every SOCKET_CHECK_IN_SECONDS a burst of that many one-row transactions,
each waiting on its own flush of PostgreSQL's WAL, stalled the moves committing beside them
(docs/performance.md). What the sweep needs to know is per process, so the first
socket of a process that is due checks in every open socket of it in one statement.
"""

from __future__ import annotations

import threading
import time

from games.platform.clocks import sockets_checked_in


class CheckIns:
    """Channel names of this process's open, counted table sockets, and when they last told
    the database so. Sockets of one process run on different threads (the table lane, the
    shared thread of SQLite), hence the lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: set[str] = set()
        self._written_at = time.monotonic()

    def opened(self, channel: str) -> None:
        """A socket whose row `seat_connected` just wrote (seen now)."""
        with self._lock:
            self._open.add(channel)

    def closed(self, channel: str) -> None:
        with self._lock:
            self._open.discard(channel)

    def __contains__(self, channel: str) -> bool:
        with self._lock:
            return channel in self._open

    def check_in_if_due(self, every: float) -> int:
        """If `every` seconds passed since the last write, mark every open socket of this
        process seen now, in one UPDATE; returns how many rows it wrote (0: not due)."""
        with self._lock:
            if time.monotonic() - self._written_at < every or not self._open:
                return 0
            self._written_at = time.monotonic()
            channels = sorted(self._open)
        return sockets_checked_in(channels)


# One per process: the sockets Daphne (or a test's communicator) holds here.
open_sockets = CheckIns()
