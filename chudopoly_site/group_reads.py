"""Group messages read from Redis by a wait for them, not by polling for them.

channels-redis's pub/sub layer reads each shard's subscriptions in a task that asks Redis for
a message with a timeout of 0.1 s, round and round: ten times a second, whether any message
comes or not, a web process's event loop made a timer, woke for it, cancelled the read, turned
the `TimeoutError` into "no message" and began again (about 60 calls and one or two turns of
the loop a time). A web process of a table routed site seldom hears a group message at all
(games/platform/table_sockets.py), so nearly all of that was the poll. Here the task waits
for the next message itself (redis-py's `get_message(timeout=None)`: a read with no timer),
and wakes when one comes.

What is unchanged: a subscription made or dropped meanwhile is sent on the same connection
while the read waits (Redis answers it on the subscription stream, which this read takes and
drops, as before); a lost connection (Redis restarted) ends the read with an error, and
redis-py's retry reconnects and subscribes again, or channels-redis logs it and tries again a
second later, as before; with nothing subscribed the task waits 0.1 s at a time, as before.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

logger = logging.getLogger("channels_redis.pubsub")  # where channels-redis logs its own

_installed = False


def install() -> None:
    """Read group messages by waiting for them from now on (idempotent)."""
    global _installed
    if _installed:
        return
    from channels_redis.pubsub import RedisSingleShardConnection

    RedisSingleShardConnection._do_receiving = _do_receiving  # type: ignore[method-assign]
    _installed = True


async def _do_receiving(self: Any) -> None:
    """channels-redis's receive loop (4.3.0), waiting for each message with no timeout."""
    while True:
        try:
            if self._pubsub and self._pubsub.subscribed:
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=None)
                self._receive_message(message)
            else:
                await asyncio.sleep(0.1)
        except (TimeoutError, asyncio.CancelledError, GeneratorExit):
            raise
        except BaseException:
            logger.exception("Unexpected exception in receive task")
            await asyncio.sleep(1)
