"""Counters for the site's throttles, kept in Django's cache.

With REDIS_URL the cache is Redis (chudopoly_site/settings.py), so every web process counts
the same; the embedded default keeps them in process memory, which is enough for one process.
A window starts at a key's first hit and lasts `window` seconds (a fixed window: simple, and
the limits here are coarse).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache

_PREFIX = "throttle"


class Throttled(Exception):
    """Raised by a view whose client is over a limit: answered with the site's 429 page
    (chudopoly_site.middleware.ThrottledPage)."""


def _key(bucket: str, who: str) -> str:
    # Hashed: e-mail addresses and the like stay out of cache keys (and memcached's key rules).
    digest = hashlib.sha256(who.strip().lower().encode()).hexdigest()[:32]
    return f"{_PREFIX}:{bucket}:{digest}"


def count(bucket: str, who: str) -> int:
    return int(cache.get(_key(bucket, who), 0))


def hit(bucket: str, who: str, *, window: int) -> int:
    """Count one more for `who` in `bucket`; returns the count in the current window."""
    key = _key(bucket, who)
    if cache.add(key, 1, timeout=window):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=window)
        return 1


def over(bucket: str, who: str, *, limit: int) -> bool:
    """True when `who` has used up `limit` hits of the current window."""
    return count(bucket, who) >= limit
