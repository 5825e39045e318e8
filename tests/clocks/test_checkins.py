"""A web process checks all its open table sockets in with one write
(games/platform/checkins.py)."""

from __future__ import annotations

import pytest
from clocks_helpers import started_game
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.platform import clocks
from games.platform.checkins import CheckIns
from games.platform.identity import Viewer
from games.platform.models import SeatSocket

pytestmark = pytest.mark.django_db


def _seen(channel: str):
    return SeatSocket.objects.get(channel=channel).seen_at


def _two_open_tabs(alice: Viewer, bob: Viewer) -> CheckIns:
    game = started_game(alice, (bob, "Bob"), turn_seconds=300)
    clocks.seat_connected(table_id=game.table_id, viewer=alice, channel="alice-tab")
    clocks.seat_connected(table_id=game.table_id, viewer=bob, channel="bob-tab")
    sockets = CheckIns()
    sockets.opened("alice-tab")
    sockets.opened("bob-tab")
    return sockets


def test_every_open_socket_of_the_process_is_seen_in_one_statement(
        alice: Viewer, bob: Viewer, clock) -> None:
    sockets = _two_open_tabs(alice, bob)
    clock.advance(20)
    checked = clocks.now()
    with CaptureQueriesContext(connection) as queries:
        assert sockets.check_in_if_due(every=0.0) == 2
    assert len(queries) == 1
    assert _seen("alice-tab") >= checked and _seen("bob-tab") >= checked


def test_nothing_is_written_until_the_interval_has_passed(alice: Viewer, bob: Viewer,
                                                           clock) -> None:
    sockets = _two_open_tabs(alice, bob)
    before = _seen("alice-tab")
    clock.advance(20)
    with CaptureQueriesContext(connection) as queries:
        assert sockets.check_in_if_due(every=3600.0) == 0
    assert len(queries) == 0
    assert _seen("alice-tab") == before


def test_a_closed_socket_is_no_longer_checked_in(alice: Viewer, bob: Viewer, clock) -> None:
    sockets = _two_open_tabs(alice, bob)
    before = _seen("bob-tab")
    sockets.closed("bob-tab")
    clock.advance(20)
    checked = clocks.now()
    assert sockets.check_in_if_due(every=0.0) == 1
    assert "bob-tab" not in sockets and "alice-tab" in sockets
    assert _seen("bob-tab") == before and _seen("alice-tab") >= checked


def test_sockets_the_process_still_holds_are_not_dropped_by_the_sweep(
        alice: Viewer, bob: Viewer, clock) -> None:
    sockets = _two_open_tabs(alice, bob)
    for _ in range(4):  # 80 s: past SOCKET_STALE_SECONDS, but checked in all along
        clock.advance(clocks.SOCKET_CHECK_IN_SECONDS)
        sockets.check_in_if_due(every=0.0)
    assert clocks.clocks_sweep() == 0
    assert SeatSocket.objects.count() == 2
