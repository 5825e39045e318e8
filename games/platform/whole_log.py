"""The whole log of a table's current game, for the table's "whole log" page: every action's
lines as the viewer's seat (or a spectator) reads them at the table. The lines come from the
same per-viewer descriptions as the table's 40-line log (presenters._describe_action: the
engine's `events_for` that viewer, then `describe_event`), so what the table hides from a seat
stays hidden here."""

from __future__ import annotations

from games.platform.interface import get_game
from games.platform.models import GameAction
from games.platform.presenters import LogLine, TableScreen, _describe_action


def whole_log(screen: TableScreen) -> list[LogLine]:
    """Every line of the screen's game, oldest first; none without a game."""
    game = screen.game
    if game is None:
        return []
    engine = get_game(game.game_kind)
    rows = (GameAction.objects.filter(game=game).order_by("version")
            .values_list("version", "events"))
    lines: list[LogLine] = []
    for version, events in rows.iterator(chunk_size=500):
        lines.extend(_describe_action(game, engine, screen.seat, screen.names, version,
                                      events or []))
    return lines
