"""The whole log of a table's current game, for the table's "whole log" page: every action's
lines as the viewer's seat (or a spectator) reads them at the table, its own lines (the cards it
drew) in their places. The lines are the table's own (presenters._actions: the engine's
`events_for` a watcher and each seat, then `describe_event`), so what the table hides from a
seat stays hidden here."""

from __future__ import annotations

from games.platform.interface import get_game
from games.platform.models import GameAction
from games.platform.presenters import TableScreen, _actions


def whole_log(screen: TableScreen) -> list[str]:
    """Every line of the screen's game, oldest first; none without a game."""
    game = screen.game
    if game is None:
        return []
    engine = get_game(game.game_kind)
    rows = (GameAction.objects.filter(game=game).order_by("version")
            .values_list("version", "events"))
    lines: list[str] = []
    for version, events in rows.iterator(chunk_size=500):
        for action in _actions(game, engine, screen.names, [(version, events or [])], None):
            lines.extend(action.read_by(screen.seat))
    return lines
