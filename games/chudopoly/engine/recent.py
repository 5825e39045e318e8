"""A cache that keeps what was used lately: the engine's and the bots' memos of boards.

Boards repeat from move to move and from seat to seat, so views and bots keep answers about
them. A plain dict grown to thousands of entries and then cleared held most of the objects
the garbage collector walked, over and over, as the process's long-lived heap; this keeps two
generations of at most `cap` entries each: a lookup that finds an entry in the older one moves
it to the newer, and when the newer is full the older is dropped whole.

Hot callers look in the newer generation themselves first (`cache.new.get(key) or
cache.get(key)`): most lookups hit there, and a method call costs more than the lookup.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    __slots__ = ("cap", "new", "old")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.new: dict[K, V] = {}
        self.old: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        hit = self.new.get(key)
        if hit is None:
            hit = self.old.get(key)
            if hit is not None:
                self.put(key, hit)
        return hit

    def put(self, key: K, value: V) -> None:
        new = self.new
        if len(new) >= self.cap:
            self.old = new
            new = self.new = {}
        new[key] = value

    def clear(self) -> None:
        self.new = {}
        self.old = {}

    def __len__(self) -> int:
        return len(self.new) + len(self.old)
