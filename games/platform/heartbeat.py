"""Sockets that check in by themselves after a quiet spell.

A restarted Redis (no persistence) forgets every channel-layer group: a socket that stays open
through the restart hears nothing more, with no error anywhere. A socket that has heard nothing
for HEARTBEAT_SECONDS, neither from its browser nor from its groups, therefore gets a
`socket.heartbeat` message from itself; its handler joins its groups again and catches up on
anything it missed (docs/reliability.md). A socket its group keeps talking to plainly still
belongs to the group: it gets no heartbeat (at a busy table that is every socket but the
mover's, and each heartbeat costs its process a few queries).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

HEARTBEAT_SECONDS = 15.0


class HeartbeatMixin:
    """Put before the Channels consumer class; define `socket_heartbeat(self, event)`. A
    consumer that overrides `dispatch` calls `self.heard()` there."""

    heartbeat_seconds = HEARTBEAT_SECONDS
    heard_at = 0.0  # time.monotonic() of the last message of any kind

    def heard(self) -> None:
        self.heard_at = time.monotonic()

    async def dispatch(self, message: dict[str, Any]) -> None:
        self.heard()
        await super().dispatch(message)  # type: ignore[misc]

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        async def receive_or_heartbeat() -> dict[str, Any]:
            while True:
                wait = self.heard_at + self.heartbeat_seconds - time.monotonic()
                if wait <= 0:
                    self.heard()  # the next one comes after another quiet spell
                    return {"type": "socket.heartbeat"}
                try:
                    return await asyncio.wait_for(receive(), wait)
                except TimeoutError:
                    continue  # perhaps a group message came meanwhile: look again

        self.heard()
        await super().__call__(scope, receive_or_heartbeat, send)  # type: ignore[misc]
