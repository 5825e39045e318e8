"""How many people are watching a table (spectator sockets), for the "N watching" count.

Kept in Django's cache: shared between processes when the site configures a shared cache
(Redis), per process with the default local-memory cache (the one-process `serve`). The count
is a courtesy figure, so an approximate value after a crash is acceptable; it never goes
below zero, and it expires a day after the last change.
"""

from __future__ import annotations

from django.core.cache import cache

TTL_SECONDS = 24 * 3600


def _key(code: str) -> str:
    return f"table-watchers:{code}"


def watchers(code: str) -> int:
    return max(0, int(cache.get(_key(code)) or 0))


def watcher_joined(code: str) -> int:
    key = _key(code)
    cache.add(key, 0, TTL_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, TTL_SECONDS)
        count = 1
    cache.touch(key, TTL_SECONDS)
    return max(0, count)


def watcher_left(code: str) -> int:
    key = _key(code)
    try:
        count = cache.decr(key)
    except ValueError:
        return 0
    if count < 0:
        cache.set(key, 0, TTL_SECONDS)
        count = 0
    return count
