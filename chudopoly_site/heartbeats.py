"""Heartbeats of the Celery worker and beat, kept in Redis, read by `/healthz`.

A worker that exited (or hangs) looks like nothing at all from the web process: bots stop
moving and clocks stop expiring while every page still answers. So each worker and each beat
writes the time into one Redis key per role every HEARTBEAT_SECONDS, from a thread of its own;
`/healthz` fails, naming the role, when the newest beat of that role is older than
HEARTBEAT_STALE_SECONDS. One key per role, not per process: with several workers the site is
healthy while any one of them is alive.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

ROLES = ("worker", "beat")


def key(role: str) -> str:
    return f"{settings.CHANNEL_PREFIX}:heartbeat:{role}"


def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def beat_once(role: str, client: redis.Redis | None = None) -> None:
    own = client is None
    client = client or _client()
    try:
        # Expires on its own so a key left by a dead process never reads as fresh forever
        # (the age check would catch it too; this keeps Redis tidy).
        expiry = max(60, int(settings.HEARTBEAT_STALE_SECONDS * 4))
        client.set(key(role), repr(time.time()), ex=expiry)
    finally:
        if own:
            client.close()


def age(role: str) -> float | None:
    """Seconds since the newest heartbeat of `role`, or None if there is none."""
    client = _client()
    try:
        raw = client.get(key(role))
    finally:
        client.close()
    return None if raw is None else max(0.0, time.time() - float(raw))


def start(role: str) -> threading.Thread:
    """Beat for `role` from a daemon thread for as long as this process lives."""

    def run() -> None:
        client = _client()
        while True:
            try:
                beat_once(role, client)
            except Exception as exc:  # Redis down or restarting: try again next time
                logger.warning("%s heartbeat not written: %s", role, exc)
            time.sleep(settings.HEARTBEAT_SECONDS)

    thread = threading.Thread(target=run, name=f"{role}-heartbeat", daemon=True)
    thread.start()
    return thread
