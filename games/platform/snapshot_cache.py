"""One read of a table per update per process, shared by every socket of that table.

Every move is broadcast to the table's group with a fresh token (games/platform/broadcast.py). Each
socket in a web process that hears it must show the table as it is now; the first to ask reads
the rows, the others (waiting briefly if the read is under way) reuse that read. Reading after
the token arrived is what each would have done alone, so sharing changes no answer: it only
turns four reads of the same rows into one.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

# A token's read is useful only while its pushes are being made; once a newer update of the
# same table has been read, the older one is dropped at once (see `get`).
KEEP_SECONDS = 10.0
MAX_ENTRIES = 2048


class SnapshotCache:
    def __init__(self, keep_seconds: float = KEEP_SECONDS, max_entries: int = MAX_ENTRIES) -> None:
        self.keep_seconds = keep_seconds
        self.max_entries = max_entries
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[int, str], tuple[float, Future[Any]]] = OrderedDict()
        # The last read made of each table, whatever its token: the next move's push builds on
        # it (presenters.snapshot_after_move) instead of reading the log again.
        self._latest: OrderedDict[int, Any] = OrderedDict()
        # Each table's newest finished read, by key. A socket that asks for an older token
        # after it reads again (what it would have done alone): it then shows the table as
        # it is now. Kept for KEEP_SECONDS instead, a busy process held a few hundred game
        # states, and every full pass of the garbage collector walked them all while every
        # socket of the process waited (docs/performance.md).
        self._newest: dict[int, tuple[int, str]] = {}
        self.loads = 0  # reads actually made (for tests and benchmarks)

    def latest(self, table_id: int) -> Any | None:
        with self._lock:
            return self._latest.get(table_id)

    def get(self, table_id: int, token: str, load: Callable[[int], Any]) -> Any:
        key = (table_id, token)
        now = time.monotonic()
        with self._lock:
            self._expire(now)
            entry = self._entries.get(key)
            if entry is None:
                future: Future[Any] = Future()
                self._entries[key] = (now, future)
                mine = True
            else:
                future = entry[1]
                mine = False
        if not mine:
            try:
                return future.result()
            except Exception:
                return load(table_id)  # the first read failed: try once more on our own
        try:
            self.loads += 1
            value = load(table_id)
        except BaseException as exc:
            with self._lock:
                self._entries.pop(key, None)
            future.set_exception(exc)
            raise
        future.set_result(value)
        with self._lock:
            older = self._newest.get(table_id)
            if older is not None and older != key:
                self._entries.pop(older, None)
            self._newest[table_id] = key
            self._latest[table_id] = value
            self._latest.move_to_end(table_id)
            while len(self._latest) > self.max_entries:
                gone, _ = self._latest.popitem(last=False)
                self._newest.pop(gone, None)
        return value

    def _expire(self, now: float) -> None:
        while self._entries:
            key, (born, _) = next(iter(self._entries.items()))
            if now - born < self.keep_seconds and len(self._entries) < self.max_entries:
                return
            del self._entries[key]


snapshots = SnapshotCache()
