"""Requests per token: at most `requests_per_minute()` a minute, then 429 with Retry-After.

Counted with the site's throttle (chudopoly_site/throttle.py: Django's cache, so with REDIS_URL
every web process counts the same), in fixed windows of WINDOW_SECONDS per token; a stream
counts once, when it opens. settings.API_REQUESTS_PER_MINUTE overrides the default.
"""

from __future__ import annotations

from django.conf import settings

from chudopoly_site import throttle

# A fast bot at a game of quick decisions (Boardroom's rolls against our bots, which answer at
# once) makes several moves a second: the default lets it, and stops a runaway loop.
REQUESTS_PER_MINUTE = 1200
WINDOW_SECONDS = 60


def requests_per_minute() -> int:
    return int(getattr(settings, "API_REQUESTS_PER_MINUTE", REQUESTS_PER_MINUTE))


def over_limit(token_id: int) -> int | None:
    """Count one request of this token. None while within its allowance; past it, the
    seconds to wait (the window began at its first hit, so it ends at most a window away)."""
    used = throttle.hit("api-token", str(token_id), window=WINDOW_SECONDS)
    return WINDOW_SECONDS if used > requests_per_minute() else None
