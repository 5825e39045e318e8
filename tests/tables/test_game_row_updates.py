"""A move rewrites the game row in place (a HOT update on PostgreSQL): no index entry is
written for it, which keeps the WAL each move's commit must flush small
(games/platform/models.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from tables_helpers import play_one, started_game

from games.platform.identity import Viewer

pytestmark = [
    pytest.mark.django_db(transaction=True),  # each move commits, as at a table
    pytest.mark.skipif(connection.vendor != "postgresql", reason="HOT updates are PostgreSQL's"),
]


def _game_row_updates() -> tuple[int, int]:
    """(updates, of which HOT) of games_game committed so far, as PostgreSQL counts them."""
    with connection.cursor() as cursor:
        # This backend's own counts reach the shared statistics once it is idle.
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
                       " WHERE relname = 'games_game'")
        return cursor.fetchone()


def test_moves_update_the_game_row_without_touching_its_indexes(alice: Viewer) -> None:
    game = started_game(alice, bots=1)
    before = _game_row_updates()
    for _ in range(12):
        game = play_one(game)
    updates, hot = (now - then for now, then in zip(_game_row_updates(), before, strict=True))
    assert updates >= 12
    # An index on a column a move changes would make every update a non-HOT one. A HOT
    # update also needs room on the row's page, which PostgreSQL makes by pruning versions no
    # snapshot can see; a snapshot held elsewhere in the database at that moment (the sweeps
    # of a worker left running, each second) can leave an update with no room (CI: 11, then
    # 10 of 12). Three in four still tell the two apart.
    assert hot >= updates * 3 // 4
