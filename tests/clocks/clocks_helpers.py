"""Builders shared by the clock tests."""

from __future__ import annotations

from typing import Any

from games.chudopoly.engine import scenario
from games.platform import services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, GameAction, Seat, Table
from games.platform.presenters import build_log

ENGINE = get_game("chudopoly")


def started_game(host: Viewer, *others: tuple[Viewer, str], bots: int = 0,
                 **kwargs: Any) -> Game:
    kwargs.setdefault("ruleset_spec", {"preset": "chudopoly"})
    kwargs.setdefault("max_seats", max(2, 1 + len(others) + bots))
    table = services.table_create(viewer=host, name="Alice", **kwargs)
    for viewer, name in others:
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, viewer=host)
    return services.game_start(table_id=table.pk, viewer=host)


def seat_of(game: Game, viewer: Viewer) -> int:
    seat = next(s for s in Seat.objects.filter(table_id=game.table_id) if viewer.owns(s))
    assert seat.game_seat is not None
    return seat.game_seat


def seat_row(game: Game, viewer: Viewer) -> Seat:
    return next(s for s in Seat.objects.filter(table_id=game.table_id) if viewer.owns(s))


def set_position(game: Game, **description: Any) -> Game:
    """Put a started game in a hand-built position (scenario), with fresh clocks from now."""
    from games.platform import clocks

    state = scenario(seats=game.seat_count, **description)
    table = Table.objects.get(pk=game.table_id)
    deadlines = clocks.next_deadlines(ENGINE, state, table, {})
    Game.objects.filter(pk=game.pk).update(state=state, deadlines=deadlines,
                                           clock_due=clocks.earliest(deadlines))
    game.refresh_from_db()
    return game


def act(game: Game, seat: int, action: dict[str, Any]) -> Game:
    game.refresh_from_db()
    return services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                       expected_version=game.version)


def first_legal(game: Game, seat: int, kind: str) -> dict[str, Any]:
    return next(a for a in ENGINE.legal_actions(game.state, seat) if a["type"] == kind)


def end_turn(game: Game, seat: int) -> Game:
    """The turn holder ends their turn (discarding the automatic selection if over 7)."""
    game = act(game, seat, {"type": "end_turn"})
    if seat in ENGINE.to_decide(game.state):
        game = act(game, seat, first_legal(game, seat, "discard"))
    return game


def clock_actions(game: Game) -> list[GameAction]:
    return list(GameAction.objects.filter(game=game, source="clock").order_by("version"))


def log_lines(game: Game, viewer_seat: int | None = None) -> list[str]:
    game.refresh_from_db()
    lines = build_log(game, ENGINE, [p["name"] for p in game.players])
    # As the seat reads them: the words the log marks for it alone (LogLine.own).
    return [line.read_by(viewer_seat) for line in lines]


def deadline_of(game: Game, seat: int) -> str:
    game.refresh_from_db()
    return game.deadlines[str(seat)]["deadline"]


def run_due_jobs(now: Any) -> int:
    """Run the scheduled jobs due by `now` on this thread, without the runner's connection
    handling (which would close the test's database connection)."""
    from chudopoly_site.celery import app
    from games.platform.scheduler import in_process_scheduler

    runner = in_process_scheduler()
    jobs = runner.pending()
    runner.clear()
    ran = 0
    for when, task, kwargs in jobs:
        if when <= now:
            app.tasks[task].run(**kwargs)
            ran += 1
        else:
            runner.submit(when, task, kwargs)
    return ran
