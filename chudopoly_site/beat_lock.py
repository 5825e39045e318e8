"""One Celery beat at a time: a lock in Redis that the scheduling beat holds and renews.

Two beats would send every periodic task twice (the sweeps, the bot watchdog, the pairing),
which happens as soon as a second `serve` or a second beat container starts beside the first.
So a beat takes the lock before it schedules anything (`hold`, from the `beat_init` signal,
which Celery sends before its first tick): while another beat holds it, this one says so and
waits, and it takes over when the holder releases the lock (it does on exit) or stops renewing
it (killed: the lock expires after BEAT_LOCK_SECONDS). The holder renews it every
BEAT_LOCK_RENEW_SECONDS from a thread; a holder that finds the lock held by another beat (Redis
restarted empty and a waiting beat took it meanwhile) stops scheduling at once. Redis being
unreachable changes nothing: no beat can send a task then, and the renewal tries again.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from typing import Any

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

# Renew if the lock is ours, take it again if Redis lost it, and say 0 if another beat has it.
_RENEW = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] or not holder then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return 1
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _lock_ms() -> int:
    return int(settings.BEAT_LOCK_SECONDS * 1000)


def key() -> str:
    return f"{settings.CHANNEL_PREFIX}:beat-lock"


class BeatLock:
    def __init__(self) -> None:
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2,
                                           socket_connect_timeout=2)
        self.lost = threading.Event()

    def holder(self) -> str:
        raw = self.client.get(key())
        return raw.decode() if raw else "nobody"

    def acquire(self) -> None:
        """Returns once this beat holds the lock; waits while another beat does."""
        said = False
        while True:
            try:
                if self.client.set(key(), self.token, nx=True, px=_lock_ms()):
                    logger.info("beat lock taken (%s): this beat schedules", self.token)
                    return
                if not said:
                    logger.warning("another beat (%s) holds the beat lock: this beat waits and "
                                   "schedules nothing until the lock is free", self.holder())
                    said = True
            except redis.RedisError as exc:
                logger.warning("beat lock: Redis unreachable (%s); trying again", exc)
            time.sleep(settings.BEAT_LOCK_RENEW_SECONDS)

    def renew(self) -> bool:
        """False when another beat holds the lock now."""
        return bool(self.client.eval(_RENEW, 1, key(), self.token, _lock_ms()))

    def release(self) -> None:
        with contextlib.suppress(redis.RedisError):  # if Redis is away, it expires by itself
            self.client.eval(_RELEASE, 1, key(), self.token)

    def keep(self, on_lost: Any) -> threading.Thread:
        def run() -> None:
            while True:
                time.sleep(settings.BEAT_LOCK_RENEW_SECONDS)
                try:
                    if self.renew():
                        continue
                except redis.RedisError as exc:
                    logger.warning("beat lock not renewed: %s", exc)
                    continue
                logger.error("another beat (%s) took the beat lock: this beat stops",
                             self.holder())
                self.lost.set()
                on_lost()
                return

        thread = threading.Thread(target=run, name="beat-lock", daemon=True)
        thread.start()
        return thread


def hold(service: Any) -> BeatLock | None:
    """Called with the beat's Service as it starts: waits for the lock, then keeps it (and
    releases it at exit). Without Redis there is no Celery beat, so nothing to hold."""
    if not settings.REDIS_URL:
        return None
    lock = BeatLock()
    lock.acquire()
    atexit.register(lock.release)
    lock.keep(on_lost=service.stop)
    return lock
