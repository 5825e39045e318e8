"""Each table's newest read in this web process.

A table's sockets all sit on one process and its one handler thread (consumers.py), and the
socket that shows an update pushes the table's other sockets in the same handler
(table_sockets.py): one read of the table serves every seat, handed from push to push. What outlives
the handler is each table's newest read, which the next move's push builds on
(presenters.snapshot_after_move) instead of reading the log again. Only the newest is kept: a
busy process that kept a few hundred older game states made every full pass of the garbage
collector walk them all while every socket of the process waited (docs/performance.md).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

MAX_TABLES = 2048


class LatestSnapshots:
    def __init__(self, max_tables: int = MAX_TABLES) -> None:
        self.max_tables = max_tables
        self._lock = threading.Lock()
        self._latest: OrderedDict[int, Any] = OrderedDict()

    def latest(self, table_id: int) -> Any | None:
        with self._lock:
            return self._latest.get(table_id)

    def put(self, table_id: int, snapshot: Any) -> None:
        with self._lock:
            self._latest[table_id] = snapshot
            self._latest.move_to_end(table_id)
            while len(self._latest) > self.max_tables:
                self._latest.popitem(last=False)


snapshots = LatestSnapshots()
