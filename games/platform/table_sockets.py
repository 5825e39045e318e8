"""The table sockets of this web process, by table.

Every socket of a table sits on one web process (deploy/nginx.conf routes by table code), so
the socket that shows a table's update can show it to the table's other sockets at once, in the
same handler: no round trip through Redis and no hand-off to the handler thread per socket. The
group message still goes out, for sockets on other processes; here it finds every socket up to
date and is dropped on the event loop (TableConsumer._already_shown).
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

# Updates of one table claimed lately; a table's sockets hear each update at about the same
# moment, so a handful covers updates that overlap.
CLAIMS_KEPT = 8


class TableSockets:
    """Sockets by table id, and for each table the updates (by token) one of them took on to
    show to all. Sockets are added and removed on the handler thread; claims are made on the
    event loop (TableConsumer.dispatch)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sockets: dict[int, list[Any]] = {}
        self._claimed: dict[int, deque[str]] = {}

    def add(self, table_id: int, socket: Any) -> None:
        with self._lock:
            sockets = self._sockets.setdefault(table_id, [])
            if socket not in sockets:
                sockets.append(socket)

    def remove(self, table_id: int, socket: Any) -> None:
        with self._lock:
            sockets = self._sockets.get(table_id)
            if sockets is None:
                return
            if socket in sockets:
                sockets.remove(socket)
            if not sockets:
                del self._sockets[table_id]
                self._claimed.pop(table_id, None)

    def others(self, table_id: int, socket: Any) -> list[Any]:
        """The table's other sockets here, in the order they connected."""
        with self._lock:
            return [s for s in self._sockets.get(table_id, ()) if s is not socket]

    def claim(self, table_id: int, token: str) -> bool:
        """Whether the caller is the first of the table's sockets here to take on the update
        with `token`: the first shows it to the others (TableConsumer.show_to_others), who
        need not each wake the handler thread for it."""
        with self._lock:
            if table_id not in self._sockets:
                return True  # no socket of the table is registered: each shows its own
            claimed = self._claimed.get(table_id)
            if claimed is None:
                claimed = self._claimed[table_id] = deque(maxlen=CLAIMS_KEPT)
            elif token in claimed:
                return False
            claimed.append(token)
            return True


table_sockets = TableSockets()
