"""The table lane: one thread per process, a player's frame before anyone's re-render."""

from __future__ import annotations

import asyncio
import threading

import pytest

from games.platform.lanes import PriorityLane


def test_urgent_calls_overtake_waiting_later_ones() -> None:
    lane = PriorityLane("test-lane")
    gate, busy = threading.Event(), threading.Event()
    order: list[str] = []
    first = lane.later.submit(lambda: (busy.set(), gate.wait()))  # holds the thread
    assert busy.wait(timeout=5)
    later = [lane.later.submit(order.append, f"push {i}") for i in range(3)]
    urgent = lane.urgent.submit(order.append, "move")
    assert lane.pending() == (1, 3)
    gate.set()
    for future in [first, *later, urgent]:
        future.result(timeout=5)
    assert order == ["move", "push 0", "push 1", "push 2"]


def test_every_call_runs_on_the_one_lane_thread() -> None:
    lane = PriorityLane("test-lane")
    names = {lane.urgent.submit(lambda: threading.current_thread().name).result(timeout=5),
             lane.later.submit(lambda: threading.current_thread().name).result(timeout=5)}
    assert names == {"test-lane"}


def test_an_exception_reaches_the_caller_and_the_lane_goes_on() -> None:
    lane = PriorityLane("test-lane")

    def boom() -> None:
        raise ValueError("bad frame")

    with pytest.raises(ValueError, match="bad frame"):
        lane.urgent.submit(boom).result(timeout=5)
    assert lane.later.submit(lambda: 42).result(timeout=5) == 42


def test_the_event_loop_can_await_the_lane() -> None:
    lane = PriorityLane("test-lane")

    async def main() -> int:
        return await asyncio.get_running_loop().run_in_executor(lane.urgent, sum, [1, 2, 3])

    assert asyncio.run(main()) == 6
