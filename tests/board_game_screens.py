"""A four-seat board game table played by its medium bots, and every seat's and a spectator's
screen of it: what the board games' shared-panel tests read (tests/boardroom_site,
tests/commonwealth_site)."""

from __future__ import annotations

from games.platform import presenters, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Table


def guests(tag: str) -> list[Viewer]:
    return [Viewer(user_id=None, guest_key=f"guest-{tag}-{i}-".ljust(35, "0")) for i in range(4)]


def started(kind: str, players: list[Viewer], names: tuple[str, ...], *,
            turn_seconds: int = 0, response_seconds: int = 0) -> Game:
    """A game of `kind` its first player hosts, the others seated under `names` (no clocks
    unless given)."""
    table = services.table_create(viewer=players[0], name="Ann", ruleset_spec={},
                                  max_seats=4, turn_seconds=turn_seconds,
                                  response_seconds=response_seconds, game_kind=kind)
    for viewer, name in zip(players[1:], names, strict=True):
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    return services.game_start(table_id=table.pk, viewer=players[0])


def every_screen(game: Game, players: list[Viewer]) -> list[dict[str, str]]:
    """Every player's pushed partials, then a spectator's."""
    table = Table.objects.get(pk=game.table_id)
    watcher = Viewer(user_id=None, guest_key=None)
    return [presenters.render_all(presenters.load_screen(table, v), oob=True)
            for v in [*players, watcher]]


def bot_move(game: Game) -> Game:
    """The first seat to decide plays what the medium bot would."""
    engine = get_game(game.game_kind)
    seat = engine.to_decide(game.state)[0]
    action = engine.bot_action(engine.view(game.state, seat), "medium")
    return services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                       expected_version=game.version)
