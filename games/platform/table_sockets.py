"""The table sockets of this web process, by table.

Every socket of a table sits on one web process (deploy/nginx.conf routes by table code), so
the socket that shows a table's update can show it to the table's other sockets at once, in the
same handler: no round trip through Redis and no hand-off to the handler thread per socket.
The group message goes out only when something else listens to the table: a socket in another
web process, or an API stream anywhere (`heard_elsewhere`). Each listener says so when it joins
the table's group (broadcast.listening), and the table's sockets here answer one from another
process, so each side learns of the other whichever joined first. Otherwise the message would
only come back to this process, find every socket up to date and be dropped
(TableConsumer._already_shown): a publish to Redis, its echo and a wake-up of each socket, for
nothing, at every move.
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
        # Tables something else listens to (see the module's docstring): every update of
        # theirs goes to the group too. Kept while the table has a socket here.
        self._elsewhere: set[int] = set()

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
                self._elsewhere.discard(table_id)

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

    def heard_elsewhere(self, table_id: int) -> bool:
        """Whether a listener other than this process's sockets of the table is known: a
        table none of whose sockets is registered here counts as heard elsewhere (its
        updates go to the group, as they always did)."""
        return table_id in self._elsewhere or table_id not in self._sockets

    def listened_elsewhere(self, table_id: int) -> bool:
        """Note that something else listens to the table; whether it is news (the caller
        then sends the group the table's state, which that listener may have missed)."""
        with self._lock:
            if table_id in self._elsewhere or table_id not in self._sockets:
                return False
            self._elsewhere.add(table_id)
            return True

    def newest_version(self, table_id: int) -> int | None:
        """The newest game version a socket of the table here has shown, if any."""
        with self._lock:
            sockets = list(self._sockets.get(table_id, ()))
        versions = [s.seen[4][1] for s in sockets if getattr(s, "seen", None)
                    and s.seen[4] is not None]
        return max(versions, default=None)


table_sockets = TableSockets()
