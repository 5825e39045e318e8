"""Fixes for the Redis transport of kombu 5.x that ended the worker on a Redis restart.

When the broker connection drops, Celery's consumer first `collect()`s the connection (which
detaches the transport from it) and then `close()`s it, and opens a new connection. Two things
then still reach for the old, detached channel, and each raised `AttributeError` ("'NoneType'
object has no attribute 'hostname'" or "... 'client'"), which the consumer does not count as a
connection error, so the worker stopped with "Unrecoverable error" instead of going on:

- closing the old channel restores its unacknowledged messages through it;
- a task that was running when the connection dropped finishes on the pool afterwards, and its
  late acknowledgement (or its rejection, when its pool process was lost) goes to the message's
  own channel, the old one.

Nothing can be restored, acknowledged or rejected through a connection that is gone, so each is
skipped then. The messages stay in Redis's unacked set (kombu writes them there on delivery) if
Redis kept them, and a connected worker restores them once the visibility timeout has passed,
so such a task may run a second time: every task of the site is safe to run twice (a bot move
carries its decision token, a sweep locks the rows it changes). A Redis restarted empty has
lost them either way, and the bot watchdog and the clock sweeps re-arm every game.

Seen with Celery 5.5-5.7 and kombu 5.5-5.7 (5.7.0 is the newest release). No setting avoids
the acknowledgement: `worker_cancel_long_running_tasks_on_connection_loss` kills the running
tasks' pool processes instead, which only narrows the window (a result already on its way from
the pool is still acknowledged through the old channel) and costs the work they had done.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis as kombu_redis

logger = logging.getLogger(__name__)

_original_restore_unacked = kombu_redis.QoS.restore_unacked
_original_ack = kombu_redis.QoS.ack
_original_reject = kombu_redis.QoS.reject


def _detached(qos: Any) -> bool:
    """The channel's connection was collected after it was lost (no transport, or a transport
    with no client): no Redis command can be sent through it any more."""
    return getattr(qos.channel.connection, "client", None) is None


def _restore_unacked(self: Any, client: Any = None) -> Any:
    if client is None and _detached(self):
        self._delivered.clear()
        return None
    return _original_restore_unacked(self, client)


def _ack(self: Any, delivery_tag: Any) -> Any:
    if _detached(self):
        return _forget(self, delivery_tag, "acknowledged")
    return _original_ack(self, delivery_tag)


def _reject(self: Any, delivery_tag: Any, requeue: bool = False) -> Any:
    if _detached(self):
        return _forget(self, delivery_tag, "rejected")
    return _original_reject(self, delivery_tag, requeue)


def _forget(qos: Any, delivery_tag: Any, what: str) -> None:
    kombu_redis.virtual.QoS.ack(qos, delivery_tag)  # only drops it from this QoS's books
    logger.warning("Message %s could not be %s: its broker connection was lost; Redis "
                   "delivers it again after the visibility timeout if it kept it",
                   delivery_tag, what)


def install() -> None:
    """Idempotent: the Celery app module calls it on import."""
    kombu_redis.QoS.restore_unacked = _restore_unacked
    kombu_redis.QoS.ack = _ack
    kombu_redis.QoS.reject = _reject
