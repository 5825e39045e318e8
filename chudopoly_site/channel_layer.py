"""The embedded default's channel layer: channels' in-memory layer, safe to send to from a
thread with no event loop of its own.

The in-memory layer keeps each channel's messages in an asyncio.Queue that its receiver waits
on in its own event loop (Daphne's one loop). A thread that sends through `async_to_sync` (the
in-process task runner's: a bot's move, a clock; any worker thread) runs the send on a loop of
its own, and putting into the queue there hands the waiting receiver its message without
waking the receiver's loop: the socket sat until that loop next woke for another reason (a
heartbeat, another frame). Here a send from another thread is handed to the receiving loop,
which wakes at once. channels-redis needs nothing of the kind: its receivers read from Redis.
"""

from __future__ import annotations

import asyncio
import logging
import time
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

log = logging.getLogger(__name__)


class LoopSafeInMemoryChannelLayer(InMemoryChannelLayer):
    """InMemoryChannelLayer whose sends from another thread wake the channel's receiver."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # The loop each channel's receiver is waiting in, while it waits.
        self._receiving: dict[str, asyncio.AbstractEventLoop] = {}

    async def receive(self, channel: str) -> dict[str, Any]:
        self._receiving[channel] = asyncio.get_running_loop()
        try:
            return await super().receive(channel)
        finally:
            self._receiving.pop(channel, None)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        loop = self._receiving.get(channel)
        if loop is None or loop is asyncio.get_running_loop() or not loop.is_running():
            await super().send(channel, message)
            # A receiver that began to wait in between, in another loop, is woken as well.
            waiting = self._receiving.get(channel)
            if waiting is not None and waiting is not asyncio.get_running_loop():
                waiting.call_soon_threadsafe(_nothing)
            return
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        item = (time.time() + self.expiry, deepcopy(message))
        loop.call_soon_threadsafe(self._put, channel, item)

    def _put(self, channel: str, item: tuple[float, dict[str, Any]]) -> None:
        """On the receiver's loop: the queue's waiting receiver is woken in its own loop."""
        queue = self.channels.setdefault(
            channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait(item)
        except asyncio.QueueFull:
            # As a group send does (the sender's ChannelFull is dropped there): a socket that
            # far behind catches up by its heartbeat (games/platform/heartbeat.py).
            log.warning("%s", ChannelFull(channel))


def _nothing() -> None:
    """A turn of the loop, so it sees what another thread put in its queue."""
