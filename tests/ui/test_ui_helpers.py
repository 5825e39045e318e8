"""The clicking helpers keep within the server's frame rate limit, as a person does: a script
that clicks as soon as each answer lands would otherwise be refused ("rate_limited") in a quick
heads-up game."""
from __future__ import annotations

import time
from collections import deque

from games.platform.consumers import RATE_LIMIT_FRAMES, RATE_LIMIT_SECONDS
from tests.ui.ui_helpers import Wire


class _Page:
    """Enough of a Playwright page for the wire: it records the socket hook, and waiting sleeps."""

    def __init__(self) -> None:
        self.waited = 0.0

    def on(self, event: str, handler: object) -> None:
        pass

    def wait_for_timeout(self, ms: float) -> None:
        self.waited += ms / 1000
        time.sleep(ms / 1000)


def test_a_wire_with_room_in_the_window_sends_at_once() -> None:
    page = _Page()
    wire = Wire(page)
    for _ in range(RATE_LIMIT_FRAMES - 3):
        wire._sent(None)
    wire.pace(page)
    assert page.waited == 0


def test_a_wire_near_the_limit_waits_until_the_oldest_frames_leave_the_window() -> None:
    page = _Page()
    wire = Wire(page)
    for _ in range(RATE_LIMIT_FRAMES):
        wire._sent(None)
    # The frames went out almost a whole window ago: the wait is the rest of it.
    wire.sent_at = deque(t - (RATE_LIMIT_SECONDS - 0.3) for t in wire.sent_at)
    wire.pace(page)
    assert 0.2 <= page.waited <= 1.0
    assert len(wire.sent_at) < RATE_LIMIT_FRAMES - 2
