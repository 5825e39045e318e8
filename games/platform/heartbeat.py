"""Sockets that check in by themselves after a quiet spell.

A restarted Redis (no persistence) forgets every channel-layer group: a socket that stays open
through the restart hears nothing more, with no error anywhere. A socket that has heard nothing
for HEARTBEAT_SECONDS, neither from its browser nor from its groups, therefore gets a
`socket.heartbeat` message from itself; its handler joins its groups again and catches up on
anything it missed (docs/reliability.md). A socket its group keeps talking to plainly still
belongs to the group: it gets no heartbeat (at a busy table that is every socket but the
mover's, and a table socket's heartbeat costs its process a query unless another socket
of the table read it lately: games/platform/recent_reads.py).

What a message costs the event loop: nothing but `heard()`'s clock reading. Each socket has
one timer, which looks at `heard_at` when it goes off and is set again for the end of the
quiet spell then under way; only when that spell has run its course does it interrupt the
socket's wait for its browser, which then answers with the heartbeat. (Waiting for every
message with `asyncio.wait_for` cost the loop a task, a timer and a future a message:
docs/performance.md, "The process model, live".) Every timer goes off on a whole second of the
loop's clock (a tenth of the spell when that is shorter: the tests' spells), the first at or
after the end of its spell: the sockets' timers due within one second go off in one turn of
the loop, not each in a turn (and a wake from `epoll`) of its own.
"""

from __future__ import annotations

import asyncio
import contextvars
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

HEARTBEAT_SECONDS = 15.0
TIMER_TICK_SECONDS = 1.0  # the timers go off on multiples of this (of a tenth of a shorter spell)


class HeartbeatMixin:
    """Put before the Channels consumer class; define `socket_heartbeat(self, event)`. A
    consumer that overrides `dispatch` calls `self.heard()` there."""

    heartbeat_seconds = HEARTBEAT_SECONDS
    heard_at = 0.0  # time.monotonic() of the last message of any kind
    # The task waiting for the browser's next message, while it waits; the heartbeat's timer
    # cancels it to end a quiet spell (_beating says the cancel is the heartbeat's).
    _receiving: asyncio.Task[Any] | None = None
    # The context that wait runs in, while it waits: a message handed to the consumer
    # directly (chudopoly_site/socket_reads.py) is handled in a copy of it, as dispatch's is.
    _receive_context: contextvars.Context | None = None
    _beating = False
    _quiet_timer: asyncio.TimerHandle | None = None

    def heard(self) -> None:
        self.heard_at = time.monotonic()

    async def dispatch(self, message: dict[str, Any]) -> None:
        self.heard()
        await super().dispatch(message)  # type: ignore[misc]

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        async def receive_or_heartbeat() -> dict[str, Any]:
            if time.monotonic() - self.heard_at >= self.heartbeat_seconds:
                # Quiet while a handler ran (a slow database): the timer found it busy.
                self.heard()  # the next one comes after another quiet spell
                return {"type": "socket.heartbeat"}
            task = asyncio.current_task()
            assert task is not None
            self._receiving, self._receive_context = task, contextvars.copy_context()
            try:
                message = await receive()
            except asyncio.CancelledError:
                if not self._beat_ended(task):
                    raise  # cancelled for another reason: the consumer is ending
                # A message that came meanwhile stays in the server's queue for the next
                # receive (asyncio.Queue.get gives it up when cancelled).
                self.heard()
                return {"type": "socket.heartbeat"}
            finally:
                self._receiving = self._receive_context = None
            self._beat_ended(task)  # a receive that let the cancel go by: no beat this time
            return message

        loop = asyncio.get_running_loop()
        self.heard()
        self._quiet_timer = self._look_again_in(loop, self.heartbeat_seconds)
        try:
            await super().__call__(scope, receive_or_heartbeat, send)  # type: ignore[misc]
        finally:
            # The timer holds this consumer (a bound method): let go of it now, not when it
            # would have gone off.
            if self._quiet_timer is not None:
                self._quiet_timer.cancel()
                self._quiet_timer = None

    def _beat_ended(self, task: asyncio.Task[Any]) -> bool:
        """Whether the heartbeat, and nothing else, cancelled the wait for the browser."""
        if not self._beating:
            return False
        self._beating = False
        return task.uncancel() == 0

    def _look_for_quiet(self, loop: asyncio.AbstractEventLoop) -> None:
        """The timer: at the end of a quiet spell, interrupt the wait for the browser (the wait
        answers with the heartbeat); else look again when the spell now under way would end."""
        if self._quiet_timer is None:
            return  # the consumer ended
        quiet = time.monotonic() - self.heard_at
        wait = self.heartbeat_seconds - quiet
        if wait <= 0:
            receiving = self._receiving
            if receiving is not None and not self._beating:
                self._beating = True
                receiving.cancel()
            # (Not waiting: a handler is running, and the next wait begins with the beat.)
            wait = self.heartbeat_seconds
        self._quiet_timer = self._look_again_in(loop, wait)

    def _look_again_in(self, loop: asyncio.AbstractEventLoop,
                       wait: float) -> asyncio.TimerHandle:
        """The timer, set for the first tick of the loop's clock `wait` seconds from now."""
        tick = min(TIMER_TICK_SECONDS, self.heartbeat_seconds / 10)
        return loop.call_at(math.ceil((loop.time() + wait) / tick) * tick,
                            self._look_for_quiet, loop)
