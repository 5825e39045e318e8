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


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _redis_server(port: int):  # type: ignore[no-untyped-def]
    """A Redis of this test's own (the shared one is not restarted here)."""
    import shutil
    import subprocess
    import time

    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server")
    server = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port),
                               "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True,
                         text=True).stdout.strip() != "PONG":
        assert time.monotonic() < deadline, "the test's Redis did not start"
        time.sleep(0.05)
    return server


def test_a_layer_waiting_for_group_messages_hears_them_again_after_redis_restarts() -> None:
    from channels_redis.pubsub import RedisPubSubChannelLayer

    group_reads.install()
    port = _free_port()
    config = {"hosts": [{"address": f"redis://127.0.0.1:{port}/0", "socket_timeout": 15,
                         "socket_connect_timeout": 5}], "prefix": "group-reads-test"}
    server = _redis_server(port)

    async def main() -> dict[str, object]:
        nonlocal server
        layer, sender = RedisPubSubChannelLayer(**config), RedisPubSubChannelLayer(**config)
        channel = await layer.new_channel()
        await layer.group_add("table-a", channel)
        receiving = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.2)  # the read waits on its connection
        server.kill()
        server.wait()
        await asyncio.sleep(0.5)  # the read has lost its connection
        server = _redis_server(port)
        for _ in range(100):  # until the layer has subscribed again on a new connection
            await sender.group_send("table-a", {"type": "table.update", "version": 3})
            done, _ = await asyncio.wait({receiving}, timeout=0.1)
            if done:
                break
        message = await asyncio.wait_for(receiving, 1)
        await layer.flush()
        await sender.flush()
        return message

    try:
        assert asyncio.run(main())["version"] == 3
    finally:
        server.kill()
        server.wait()
