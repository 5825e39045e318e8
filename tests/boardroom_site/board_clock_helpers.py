"""Builders for the board-game clock, auto move and continue tests: an online Boardroom table
of guests, a game against bots, hand-built positions, and a clock moved by hand."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.boardroom.engine import scenario
from games.platform import clocks, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, GameAction, Seat, Table
from games.platform.scheduler import in_process_scheduler

ENGINE = get_game("boardroom")


class Clock:
    """The clocks' time, moved by hand (games.platform.clocks.now is patched to it)."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def now(self) -> datetime:
        return timezone.now() + self.offset

    def advance(self, seconds: float) -> datetime:
        self.offset += timedelta(seconds=seconds)
        return self.now()


def online(host: Viewer, *others: tuple[Viewer, str]) -> Game:
    """A started private Boardroom table of guests (the host is "Alice")."""
    table = services.table_create(viewer=host, name="Alice", ruleset_spec={},
                                  max_seats=max(2, 1 + len(others)), game_kind="boardroom")
    for viewer, name in others:
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    return services.game_start(table_id=table.pk, viewer=host)


def vs_bots(viewer: Viewer, bots: int = 2) -> Game:
    table = services.table_play_vs_bots(viewer=viewer, name="Alice", levels=["easy"] * bots,
                                        game_kind="boardroom")
    return services.current_game(table)


def seat_of(game: Game, viewer: Viewer) -> int:
    seat = next(s for s in Seat.objects.filter(table_id=game.table_id) if viewer.owns(s))
    assert seat.game_seat is not None
    return seat.game_seat


def position(game: Game, **description: Any) -> Game:
    """Put a started game in a hand-built position (scenario) with its clocks from now, as if
    the game had just reached it. Seats keep the game's bots."""
    description.setdefault("bots", [bool(p["bot"]) for p in game.players])
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


def act(game: Game, seat: int, action: dict[str, Any]) -> Game:
    game.refresh_from_db()
    return services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                       expected_version=game.version)


def deadline_in(game: Game, key: str | int, clock: Clock) -> float:
    """Seconds from the clocks' now to the deadline under `key` (a seat or "lot")."""
    entry = game.deadlines[str(key)]
    return (datetime.fromisoformat(entry["deadline"]) - clock.now()).total_seconds()


def expire(game: Game) -> int:
    """Whatever the clocks owe now, through the due-clock sweep the site runs every second
    (`tables.clocks_due`); the game is then read again."""
    n = clocks.expire_due()
    game.refresh_from_db()
    return n


def run_due(clock: Clock | None = None) -> int:
    """Run the scheduled work that is due (by the clocks' time when given)."""
    return in_process_scheduler().run_due(clock.now() if clock else None)


def sources(game: Game) -> list[tuple[str, str]]:
    return [(row.source, row.action.get("type")) for row in
            GameAction.objects.filter(game=game).order_by("version")]
