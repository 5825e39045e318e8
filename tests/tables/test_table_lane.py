"""The table lane runs what it is handed in order on one thread of its own, goes on after a
call that fails, and at the interpreter's exit finishes what it was handed before it ends
(games/platform/table_lane.py)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from games.platform.table_lane import Lane


def test_the_lane_runs_what_it_is_handed_in_order_on_one_thread_of_its_own() -> None:
    lane = Lane("test-lane")
    ran: list[tuple[int, str]] = []
    for n in range(50):
        lane.run_soon(lambda n=n: ran.append((n, threading.current_thread().name)))
    assert lane.submit(lambda: "the last").result(timeout=5) == "the last"
    assert [n for n, _ in ran] == list(range(50))
    assert {name for _, name in ran} == {"test-lane_0"}
    assert threading.current_thread().name != "test-lane_0"


def test_a_call_that_fails_is_logged_and_the_lane_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    lane = Lane("test-lane")

    def failing() -> None:
        raise ValueError("a handler's own failure")

    lane.run_soon(failing)
    with pytest.raises(ValueError):
        lane.submit(failing).result(timeout=5)
    assert lane.submit(lambda: 7).result(timeout=5) == 7
    assert "a call on the test-lane failed" in caplog.text


def test_at_the_interpreters_exit_the_lane_finishes_what_it_was_handed() -> None:
    script = (
        "import time\n"
        "from games.platform.table_lane import Lane\n"
        "lane = Lane('table-lane')\n"
        "lane.run_soon(lambda: (time.sleep(0.3), print('finished', flush=True)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "finished\n"
