"""What a web process read lately for its quiet sockets' heartbeats, shared by its sockets.

A socket's heartbeat (games/platform/heartbeat.py) asks the database whether its table, or
its list of public tables, moved on while a group message may have been lost. The sockets of
one table sit on one process and mostly go quiet together (a spectator, players thinking), as
do a process's open lobby pages: each asking for itself read the same rows a socket apart. A
read younger than half a heartbeat answers the others instead. A missed move is then shown by
the heartbeat after (within one and a half beats at most, not one): the heartbeat is a
safety net for a lost group message, not the way moves are shown.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

MAX_KEPT = 2048  # tables and lists; beyond this the oldest read is forgotten


class RecentReads:
    def __init__(self, max_kept: int = MAX_KEPT) -> None:
        self.max_kept = max_kept
        self._lock = threading.Lock()
        self._reads: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()

    def fresh(self, key: Hashable, max_age: float) -> Any | None:
        """What was read for `key` less than `max_age` seconds ago, if anything."""
        with self._lock:
            read = self._reads.get(key)
        if read is None or time.monotonic() - read[0] >= max_age:
            return None
        return read[1]

    def note(self, key: Hashable, value: Any, read_at: float | None = None) -> None:
        """Keep what was read for `key` at `read_at` (time.monotonic(); now by default)."""
        at = time.monotonic() if read_at is None else read_at
        with self._lock:
            kept = self._reads.get(key)
            if kept is not None and kept[0] > at:
                return  # a later read is kept already
            self._reads[key] = (at, value)
            self._reads.move_to_end(key)
            while len(self._reads) > self.max_kept:
                self._reads.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._reads.clear()


recent_reads = RecentReads()
