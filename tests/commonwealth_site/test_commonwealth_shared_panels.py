"""Commonwealth's players panel and turn line read alike for every seat and a spectator, so one
render serves them all: "You" and "Your turn" are marked by the page for the seat whose screen
it is (data-me on the board's root), and a seat's private parts stay its own."""

from __future__ import annotations

import re

import pytest
from board_game_screens import bot_move, every_screen, guests, started

from games.platform import presenters
from games.platform.interface import get_game
from games.platform.models import Game, Table

pytestmark = pytest.mark.django_db

ENGINE = get_game("commonwealth")
TURN_LINE = re.compile(r'<p class="cw-turn" id="turn-line">.*?</p>', re.S)


def test_every_seat_and_a_spectator_get_the_same_players_panel_and_turn_line() -> None:
    players = guests("shared")
    game = started("commonwealth", players, ("Ben", "Cat", "Dan"))
    deciding_seen = 0
    for _ in range(30):
        screens = every_screen(game, players)
        assert len({s["players"] for s in screens}) == 1
        lines = {TURN_LINE.search(s["status"]).group(0) for s in screens}  # type: ignore[union-attr]
        assert len(lines) == 1
        deciding_seen += 'id="deciding"' in lines.pop()
        game = bot_move(game)
        if game.status != Game.Status.RUNNING:
            break
    assert deciding_seen


def test_the_page_marks_the_viewers_own_seat_and_turn_from_the_boards_data_me() -> None:
    players = guests("shared")
    game = started("commonwealth", players, ("Ben", "Cat", "Dan"))
    turn = game.state["turn"]
    seat_of = {i: presenters.load_screen(game.table, v).seat for i, v in enumerate(players)}
    for i, screen in enumerate(every_screen(game, players)[:4]):
        assert f'data-me="{seat_of[i]}"' in screen["status"]
        # Every seat's "You" is there, shown by the page's CSS only under its own data-me.
        assert len(re.findall(r'<span class="you-mark" data-seat="\d"><strong>You</strong>',
                              screen["players"])) == 4
        assert (f'<span class="them-mark" data-seat="{turn}">'
                f'{game.players[turn]["name"]}’s turn</span>') in screen["status"]
        assert f'<span class="you-mark" data-seat="{turn}">Your turn</span>' in screen["status"]
    spectator = every_screen(game, players)[4]
    assert "data-me" not in spectator["status"]


def test_a_seats_cash_in_its_glance_line_is_its_own() -> None:
    players = guests("shared")
    game = started("commonwealth", players, ("Ben", "Cat", "Dan"))
    table = Table.objects.get(pk=game.table_id)
    for viewer in players:
        screen = presenters.load_screen(table, viewer)
        cash = game.state["players"][screen.seat]["cash"]
        html = presenters.render_all(screen, oob=True)["decision"]
        assert f'Your cash <strong data-my-cash="{cash}">' in html
