"""Helpers for Commonwealth's site tests: a table against bots. The socket helpers are the
board games' shared ones (tests/boardroom_site/boardroom_site_helpers.py: connect, frames,
send and the frame readers know nothing of the game)."""

from __future__ import annotations

from typing import Any

from games.platform import services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game
from tests.boardroom_site.boardroom_site_helpers import (  # noqa: F401 - re-exported
    answered,
    connect,
    error_code,
    error_text,
    first_frames,
    frames,
    newest_version,
    seat_named,
    send,
    showing,
)

ENGINE = get_game("commonwealth")


def vs_bots(viewer: Viewer, levels: list[str] | None = None, **kwargs: Any) -> Game:
    table = services.table_play_vs_bots(viewer=viewer, name="Alice",
                                        levels=levels or ["medium", "medium", "easy"],
                                        game_kind="commonwealth", turn_seconds=0, **kwargs)
    return services.current_game(table)


def play_to_the_end(game: Game, level: str = "easy", limit: int = 6000) -> Game:
    """Every seat (the human's too) played by a bot of `level` through the services."""
    for _ in range(limit):
        if game.status != Game.Status.RUNNING:
            return game
        seat = ENGINE.to_decide(game.state)[0]
        action = ENGINE.bot_action(ENGINE.view(game.state, seat), level)
        game = services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                           expected_version=game.version)
    raise AssertionError("the game did not end")
