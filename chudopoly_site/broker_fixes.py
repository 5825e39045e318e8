"""A fix for the Redis transport of kombu 5.x that ended the worker on a Redis restart.

When the broker connection drops, Celery's consumer first `collect()`s the connection (which
detaches the transport from it: `transport.client = None`) and then `close()`s it. If the
channel was still open at that point (its pending BRPOP read failed, so the first close
stopped half-way), closing it restores the unacknowledged messages, which asks the detached
transport for its Redis address: `AttributeError: 'NoneType' object has no attribute
'hostname'`. The consumer only ignores connection errors there, so the worker stopped with
"Unrecoverable error" instead of reconnecting (seen with Celery 5.5-5.7, kombu 5.5-5.7).

Nothing can be restored through a connection that is gone. The messages are still in Redis's
unacked set (kombu writes them there on delivery) if Redis kept them, and the next connection
restores them after the visibility timeout; a Redis restarted empty has lost them either way
(the bot watchdog and the clock sweep re-arm every game). So the restore is skipped then.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis

_original_restore_unacked = kombu_redis.QoS.restore_unacked


def _restore_unacked(self: Any, client: Any = None) -> Any:
    if client is None and getattr(self.channel.connection, "client", None) is None:
        self._delivered.clear()
        return None
    return _original_restore_unacked(self, client)


def install() -> None:
    """Idempotent: the Celery app module calls it on import."""
    kombu_redis.QoS.restore_unacked = _restore_unacked
