"""Sockets that check in by themselves after a quiet spell.

A restarted Redis (no persistence) forgets every channel-layer group: a socket that stays open
through the restart hears nothing more, with no error anywhere. A socket that has heard nothing
for HEARTBEAT_SECONDS therefore gets a `socket.heartbeat` message from itself; its handler joins
its groups again and catches up on anything it missed (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

HEARTBEAT_SECONDS = 15.0


class HeartbeatMixin:
    """Put before the Channels consumer class; define `socket_heartbeat(self, event)`."""

    heartbeat_seconds = HEARTBEAT_SECONDS

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        async def receive_or_heartbeat() -> dict[str, Any]:
            try:
                return await asyncio.wait_for(receive(), self.heartbeat_seconds)
            except TimeoutError:
                return {"type": "socket.heartbeat"}

        await super().__call__(scope, receive_or_heartbeat, send)  # type: ignore[misc]
