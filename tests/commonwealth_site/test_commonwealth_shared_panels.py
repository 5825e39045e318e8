"""Commonwealth's players panel and turn line read alike for every seat and a spectator, so one
render serves them all: "You" and "Your turn" are marked by the page for the seat whose screen
it is (data-me on the board's root), and a seat's private parts stay its own."""

from __future__ import annotations

import re

import pytest

from games.platform import presenters, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Table

pytestmark = pytest.mark.django_db

ENGINE = get_game("commonwealth")
TURN_LINE = re.compile(r'<p class="cw-turn" id="turn-line">.*?</p>', re.S)


def _guests() -> list[Viewer]:
    return [Viewer(user_id=None, guest_key=f"guest-shared-{i}-{'0' * 20}") for i in range(4)]


def _started(players: list[Viewer]) -> Game:
    table = services.table_create(viewer=players[0], name="Ann", ruleset_spec={},
                                  max_seats=4, turn_seconds=0, response_seconds=0,
                                  game_kind="commonwealth")
    for viewer, name in zip(players[1:], ("Ben", "Cat", "Dan"), strict=True):
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    return services.game_start(table_id=table.pk, viewer=players[0])


def _screens(game: Game, players: list[Viewer]) -> list[dict[str, str]]:
    table = Table.objects.get(pk=game.table_id)
    watcher = Viewer(user_id=None, guest_key=None)
    return [presenters.render_all(presenters.load_screen(table, v), oob=True)
            for v in [*players, watcher]]


def _move(game: Game) -> Game:
    seat = ENGINE.to_decide(game.state)[0]
    action = ENGINE.bot_action(ENGINE.view(game.state, seat), "medium")
    return services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                       expected_version=game.version)


def test_every_seat_and_a_spectator_get_the_same_players_panel_and_turn_line() -> None:
    players = _guests()
    game = _started(players)
    deciding_seen = 0
    for _ in range(30):
        screens = _screens(game, players)
        assert len({s["players"] for s in screens}) == 1
        lines = {TURN_LINE.search(s["status"]).group(0) for s in screens}  # type: ignore[union-attr]
        assert len(lines) == 1
        deciding_seen += 'id="deciding"' in lines.pop()
        game = _move(game)
        if game.status != Game.Status.RUNNING:
            break
    assert deciding_seen


def test_the_page_marks_the_viewers_own_seat_and_turn_from_the_boards_data_me() -> None:
    players = _guests()
    game = _started(players)
    turn = game.state["turn"]
    seat_of = {i: presenters.load_screen(game.table, v).seat for i, v in enumerate(players)}
    for i, screen in enumerate(_screens(game, players)[:4]):
        assert f'data-me="{seat_of[i]}"' in screen["status"]
        # Every seat's "You" is there, shown by the page's CSS only under its own data-me.
        assert len(re.findall(r'<span class="you-mark" data-seat="\d"><strong>You</strong>',
                              screen["players"])) == 4
        assert (f'<span class="them-mark" data-seat="{turn}">'
                f'{game.players[turn]["name"]}’s turn</span>') in screen["status"]
        assert f'<span class="you-mark" data-seat="{turn}">Your turn</span>' in screen["status"]
    spectator = _screens(game, players)[4]
    assert "data-me" not in spectator["status"]


def test_a_seats_cash_in_its_glance_line_is_its_own() -> None:
    players = _guests()
    game = _started(players)
    table = Table.objects.get(pk=game.table_id)
    for viewer in players:
        screen = presenters.load_screen(table, viewer)
        cash = game.state["players"][screen.seat]["cash"]
        html = presenters.render_all(screen, oob=True)["decision"]
        assert f'Your cash <strong data-my-cash="{cash}">' in html
