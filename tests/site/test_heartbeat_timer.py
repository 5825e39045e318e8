"""A socket's heartbeat comes from one timer per socket, which interrupts the wait for the
browser at the end of a quiet spell (games/platform/heartbeat.py): no message is lost to it,
and a consumer that ends is not kept alive by it nor answered with a heartbeat.

The consumer here stands on a base that reads its messages as Channels' does (a task per
message); the timer is driven by hand, so nothing here waits for a clock."""

from __future__ import annotations

import asyncio
from typing import Any

from games.platform.heartbeat import HeartbeatMixin

BEAT = {"type": "socket.heartbeat"}


class _Reader:
    """Channels' reading loop, reduced: each message awaited in a task of its own."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        while True:
            self.got.append(await asyncio.ensure_future(receive()))


class _Socket(HeartbeatMixin, _Reader):
    heartbeat_seconds = 3600.0  # the timer goes off only when the test says so

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def _open(queue: asyncio.Queue[dict[str, Any]]) -> tuple[_Socket, asyncio.Task[None]]:
    socket = _Socket()
    task = asyncio.ensure_future(socket({}, queue.get, None))
    await _settle()
    return socket, task


def test_a_socket_quiet_for_the_whole_spell_gets_a_heartbeat_and_then_its_messages() -> None:
    async def main() -> list[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        socket, task = await _open(queue)
        socket.heard_at -= socket.heartbeat_seconds  # a quiet spell has gone by
        socket._look_for_quiet(asyncio.get_running_loop())
        await _settle()
        queue.put_nowait({"type": "websocket.receive", "text": "a move"})
        await _settle()
        task.cancel()
        return socket.got

    assert asyncio.run(main()) == [BEAT, {"type": "websocket.receive", "text": "a move"}]


def test_a_message_arriving_as_the_spell_ends_is_read_after_the_heartbeat_not_lost() -> None:
    async def main() -> list[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        socket, task = await _open(queue)
        socket.heard_at -= socket.heartbeat_seconds
        # In the same turn of the loop: the message wakes the wait, the timer interrupts it.
        queue.put_nowait({"type": "websocket.receive", "text": "just in time"})
        socket._look_for_quiet(asyncio.get_running_loop())
        await _settle()
        task.cancel()
        return socket.got

    assert asyncio.run(main()) == [BEAT, {"type": "websocket.receive", "text": "just in time"}]


def test_a_socket_that_heard_something_during_the_spell_gets_no_heartbeat() -> None:
    async def main() -> tuple[list[dict[str, Any]], float]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        socket, task = await _open(queue)
        socket.heard_at -= socket.heartbeat_seconds / 2  # half a spell ago
        socket._look_for_quiet(asyncio.get_running_loop())
        await _settle()
        timer = socket._quiet_timer
        assert timer is not None
        left = timer.when() - asyncio.get_running_loop().time()
        task.cancel()
        return socket.got, left

    got, left = asyncio.run(main())
    assert got == []
    # The timer looks again when the spell under way would end (on the whole second after
    # it), not a whole spell later.
    assert 0 < left < _Socket.heartbeat_seconds / 2 + 1


def test_a_socket_that_ends_is_not_answered_with_a_heartbeat_and_lets_go_of_its_timer() -> None:
    async def main() -> tuple[_Socket, asyncio.Task[None]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        socket, task = await _open(queue)
        socket.heard_at -= socket.heartbeat_seconds
        socket._look_for_quiet(asyncio.get_running_loop())  # the beat and the end together
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return socket, task

    socket, task = asyncio.run(main())
    assert task.cancelled()
    assert socket.got == []
    assert socket._quiet_timer is None


def test_the_sockets_timers_go_off_on_whole_seconds_so_those_due_in_one_second_share_a_turn(
) -> None:
    async def main() -> list[tuple[float, float]]:
        loop = asyncio.get_running_loop()
        sockets = [(await _open(asyncio.Queue()))[0] for _ in range(3)]
        sockets[1].heard_at -= 0.4  # heard at another moment: due at another moment
        whens = []
        for socket in sockets:
            socket._look_for_quiet(loop)  # re-armed for the end of the spell under way
            assert socket._quiet_timer is not None
            whens.append((socket._quiet_timer.when(), socket.heard_at + socket.heartbeat_seconds))
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()
        return whens

    whens = asyncio.run(main())
    for when, spell_ends in whens:
        assert when == int(when), "on a whole second of the loop's clock"
        assert spell_ends <= when < spell_ends + 1, "the first whole second after the spell"


def test_a_spell_shorter_than_ten_seconds_has_its_timer_on_tenths_of_it() -> None:
    async def main() -> tuple[float, float, float]:
        socket = (await _open(asyncio.Queue()))[0]
        socket.heartbeat_seconds = 0.5  # as the reliability tests have it
        socket._look_for_quiet(asyncio.get_running_loop())
        assert socket._quiet_timer is not None
        when = socket._quiet_timer.when()
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()
        return when, socket.heard_at + socket.heartbeat_seconds, socket.heartbeat_seconds / 10

    when, spell_ends, tick = asyncio.run(main())
    assert spell_ends <= when < spell_ends + tick + 1e-9
    assert abs(when / tick - round(when / tick)) < 1e-6
