"""Builders for Commonwealth's clock, auto move and continue tests: an online table of guests,
a game against bots and hand-built positions (the engine's `scenario`) with their clocks from
now. The clock moved by hand and the readers are the board games' shared ones
(tests/boardroom_site/board_clock_helpers.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.commonwealth.engine import scenario
from games.platform import clocks, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Table
from tests.boardroom_site.board_clock_helpers import (  # noqa: F401 - re-exported
    Clock,
    act,
    deadline_in,
    expire,
    run_due,
    seat_of,
    sources,
)

ENGINE = get_game("commonwealth")


def online(host: Viewer, *others: tuple[Viewer, str]) -> Game:
    """A started private Commonwealth table of guests (the host is "Alice")."""
    table = services.table_create(viewer=host, name="Alice", ruleset_spec={},
                                  max_seats=max(2, 1 + len(others)), game_kind="commonwealth")
    for viewer, name in others:
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    return services.game_start(table_id=table.pk, viewer=host)


def vs_bots(viewer: Viewer, bots: int = 2) -> Game:
    table = services.table_play_vs_bots(viewer=viewer, name="Alice", levels=["easy"] * bots,
                                        game_kind="commonwealth")
    return services.current_game(table)


def position(game: Game, **description: Any) -> Game:
    """Put a started game in a hand-built position with its clocks from now, as if the game
    had just reached it."""
    state = scenario(seats=game.seat_count, **description)
    state["version"] = game.version
    table = Table.objects.get(pk=game.table_id)
    deadlines = clocks.next_deadlines(ENGINE, state, table, {}, players=game.players)
    # Stamped ahead: a real worker an earlier test left running (CI) re-arms the bots of a game
    # idle for 5 s (tables.bots_watchdog), which would move this hand-built one mid-test.
    Game.objects.filter(pk=game.pk).update(state=state, deadlines=deadlines,
                                           clock_due=clocks.earliest(deadlines),
                                           updated_at=timezone.now() + timedelta(minutes=10))
    game.refresh_from_db()
    return game
