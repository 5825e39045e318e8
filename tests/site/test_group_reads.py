"""A web process waits for its group messages from Redis rather than polling for them ten
times a second (chudopoly_site/group_reads.py): a message still arrives, a subscription made
while the wait is under way is heard, and a quiet process's loop makes no timer for it."""

from __future__ import annotations

import asyncio
import os

import pytest
from django.conf import settings

from chudopoly_site import group_reads

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")


def _layer():  # type: ignore[no-untyped-def]
    from channels_redis.pubsub import RedisPubSubChannelLayer

    config = settings.CHANNEL_LAYER_CHOICES["pubsub"]["CONFIG"]
    return RedisPubSubChannelLayer(**{**config, "prefix": "group-reads-test"})


def test_group_messages_arrive_while_the_layer_waits_for_them_with_no_timer() -> None:
    group_reads.install()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        layer, sender = _layer(), _layer()
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table-a", first)
        receiving = asyncio.ensure_future(layer.receive(first))
        await asyncio.sleep(0.3)  # the read waits: under the poll, three timers by now
        timers = [t for t in loop._scheduled if not t.cancelled()]  # type: ignore[attr-defined]
        assert timers == [], "nothing scheduled while the process waits for a message"
        # Subscribed while the read waits, on the same connection.
        await layer.group_add("table-b", second)
        await sender.group_send("table-b", {"type": "table.update", "version": 2})
        assert (await asyncio.wait_for(layer.receive(second), 5))["version"] == 2
        await sender.group_send("table-a", {"type": "table.update", "version": 1})
        assert (await asyncio.wait_for(receiving, 5))["version"] == 1
        await layer.flush()
        await sender.flush()

    asyncio.run(main())
