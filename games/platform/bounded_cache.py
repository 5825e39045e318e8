"""A process-wide cache bounded by the bytes it holds as well as by its entries.

The web process's render caches (a partial's HTML by its inputs, an include's by its values, a
partial's tree by its HTML) are keyed by content that can weigh ten kilobytes a key, and their
values as much again: bounded by entries alone, a full cache held tens of megabytes, which a
live run counted as the tables' memory (docs/performance.md, "web RSS per table"). Their use is
mostly within one move (a table's four seats share one render) and between a table's
consecutive moves, which a few megabytes of the most recent entries serve as well.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")

# What an entry costs beyond its key's and value's text: the dict's slot, the key's tuple
# and the string objects' headers.
ENTRY_OVERHEAD = 200


def text_size(value: object) -> int:
    """The characters (or bytes) of the strings in a key or value, tuples looked into."""
    if isinstance(value, str | bytes):
        return len(value)
    if isinstance(value, tuple):
        return sum(map(text_size, value))
    return 0


def compact(key: Hashable) -> Hashable:
    """`key` with its bytes copied to their own size. orjson's output (the render caches'
    keys: rendering.content_key, shared_includes.values_key) keeps the buffer it was written
    into, four to eight kilobytes for a key of a few hundred bytes: kept as it is, a cache
    held ten times the bytes it counted."""
    if type(key) is bytes:
        return bytes(memoryview(key))
    if type(key) is tuple and any(type(part) is bytes for part in key):
        return tuple(bytes(memoryview(part)) if type(part) is bytes else part for part in key)
    return key


class BoundedCache(Generic[V]):
    """The most recent entries, at most `max_entries` of them and about `max_bytes` in all
    (what `size` says of a key and its value, plus ENTRY_OVERHEAD each). Thread-safe."""

    def __init__(self, max_entries: int, max_bytes: int,
                 size: Callable[[Hashable, V], int] | None = None) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._size = size or (lambda key, value: text_size(key) + text_size(value))
        self._lock = threading.Lock()
        # Each entry's value, its size and its key as kept (see get).
        self._entries: OrderedDict[Hashable, tuple[V, int, Hashable]] = OrderedDict()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> V | None:
        # A hit (about twenty a move) moves its entry by the very key kept, which the lookup
        # finds by identity, where `key`, an equal copy, was compared again byte for byte;
        # and the lock is taken and let go by its own methods, which compiled cost less than
        # a `with` block's generic __enter__ and __exit__.
        lock = self._lock
        lock.acquire()
        try:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(entry[2])
        finally:
            lock.release()
        return None if entry is None else entry[0]

    def put(self, key: Hashable, value: V) -> None:
        key = compact(key)
        size = self._size(key, value) + ENTRY_OVERHEAD
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._entries[key] = (value, size, key)
            self.bytes += size
            while self._entries and (len(self._entries) > self.max_entries
                                     or self.bytes > self.max_bytes):
                _, (_, gone, _) = self._entries.popitem(last=False)
                self.bytes -= gone

    def values(self) -> list[V]:
        with self._lock:
            return [value for value, _, _ in self._entries.values()]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0
