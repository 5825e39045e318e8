"""A move's statements (games/platform/moverows.py): on PostgreSQL the lock and the seats go in
one round trip and the log rows in the game row's update; on either database every engine
action of a move is logged, and the ladder reads a finished game's whole log."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from tables_helpers import ENGINE, play_one, play_to_the_end, started_game

from games.platform import moverows, services
from games.platform.identity import Viewer
from games.platform.models import Game, GameAction

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="SQLite takes one statement per execute")


def _statements_of_one_move(game: Game) -> list[str]:
    """The SQL a move sent, savepoints (the test's own transaction) left out."""
    game.refresh_from_db()
    seat = ENGINE.to_decide(game.state)[0]
    action = ENGINE.legal_actions(game.state, seat)[0]
    with CaptureQueriesContext(connection) as queries:
        services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                    expected_version=game.version)
    return [q["sql"] for q in queries.captured_queries
            if "SAVEPOINT" not in q["sql"].upper()]


@on_postgresql
def test_a_move_makes_two_round_trips_the_lock_with_the_seats_and_the_save_with_the_log(
        alice: Viewer) -> None:
    lock, save = _statements_of_one_move(play_one(started_game(alice, bots=1)))
    assert "FOR UPDATE" in lock and '"games_seat"' in lock
    assert save.startswith("WITH") and '"games_gameaction"' in save
    assert 'UPDATE "games_game"' in save


def test_the_lock_brings_the_tables_seats_in_lobby_order(alice: Viewer) -> None:
    game = started_game(alice, bots=2)
    with transaction.atomic():
        locked = moverows.lock_game_and_table(game.pk)
    assert locked is not None
    game, seats = locked
    assert [s.pk for s in seats] == list(
        game.table.seats.order_by("position").values_list("pk", flat=True))
    assert len(seats) == 3


def test_a_missing_game_locks_nothing() -> None:
    with transaction.atomic():
        assert moverows.lock_game_and_table(0) is None


def test_a_move_of_several_engine_actions_logs_each_at_its_version(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    steps = [{"type": "accept"}, {"type": "pay", "cards": [3]}]
    with transaction.atomic():
        locked = moverows.lock_game_and_table(game.pk)
        assert locked is not None
        game = locked[0]
        for step in steps:
            moverows.append_action(game, seat=1, action=step, events=[{"at": game.version}],
                                   source="clock")
            game.version += 1
        moverows.save_move(game)
    rows = GameAction.objects.filter(game=game).values_list("version", "seat", "action",
                                                            "events", "source")
    assert list(rows) == [(0, 1, steps[0], [{"at": 0}], "clock"),
                          (1, 1, steps[1], [{"at": 1}], "clock")]
    assert Game.objects.get(pk=game.pk).version == 2


def test_the_ladder_reads_a_finished_games_whole_log_its_last_move_included(
        alice: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    import ladder.services

    seen: list[tuple[int, int]] = []
    real = ladder.services.ladder_game_finished

    def reading(*, game: Game, **kwargs: Any) -> Any:
        seen.append((GameAction.objects.filter(game=game).count(), game.version))
        return real(game=game, **kwargs)

    monkeypatch.setattr(ladder.services, "ladder_game_finished", reading)
    play_to_the_end(started_game(alice, bots=1))
    assert len(seen) == 1
    logged, moves = seen[0]
    assert logged == moves  # the finishing move's row is in, though the game row is not saved
