"""Boardroom's players panel, turn line and glance line read alike for every seat and a
spectator, so one render serves them all: the page marks "You", "Your turn", "your clock" and
"Your cash" for the seat whose screen it is (data-me on the board's root, static/css/site.css).
The seats that wait share one decision panel; a deciding seat's choices stay its own."""

from __future__ import annotations

import re

import pytest
from board_game_screens import bot_move, every_screen, guests, started

from games.platform import presenters
from games.platform.interface import get_game
from games.platform.models import Game, Table

pytestmark = pytest.mark.django_db

ENGINE = get_game("boardroom")
TURN_LINE = re.compile(r'<p class="br-turn" id="turn-line">.*?</p>', re.S)


def test_every_seat_and_a_spectator_get_the_same_players_panel_and_turn_line() -> None:
    players = guests("brshared")
    game = started("boardroom", players, ("Bea", "Cy", "Dee"))
    told_who_decides = 0
    for _ in range(40):
        screens = every_screen(game, players)
        assert len({s["players"] for s in screens}) == 1
        lines = {TURN_LINE.search(s["status"]).group(0) for s in screens}  # type: ignore[union-attr]
        assert len(lines) == 1
        told_who_decides += 'id="deciding"' in lines.pop()
        game = bot_move(game)
        if game.status != Game.Status.RUNNING:
            break
    assert told_who_decides


def test_the_page_marks_the_viewers_own_seat_and_turn_from_the_boards_data_me() -> None:
    players = guests("brshared")
    game = started("boardroom", players, ("Bea", "Cy", "Dee"))
    turn = game.state["turn"]
    seats = [presenters.load_screen(game.table, v).seat for v in players]
    screens = every_screen(game, players)
    for seat, screen in zip(seats, screens, strict=False):
        assert f'data-me="{seat}"' in screen["status"]
        # Every seat's "You" is in the panel; the page shows one, under its own data-me.
        assert screen["players"].count(
            '<span class="you-mark"><strong>You</strong></span>') == 4
        assert (f'<span class="them-mark" data-seat="{turn}">'
                f'{game.players[turn]["name"]}’s turn</span>') in screen["status"]
        assert f'<span class="you-mark" data-seat="{turn}">Your turn</span>' in screen["status"]
        assert ' me"' not in screen["players"] and " me " not in screen["players"]
    assert "data-me" not in screens[4]["status"]


def test_the_glance_line_carries_every_seats_cash_for_the_page_to_show_its_own() -> None:
    players = guests("brshared")
    game = started("boardroom", players, ("Bea", "Cy", "Dee"))
    game.state["cash"] = [1500, 1400, 1300, 1200]
    game.save()
    table = Table.objects.get(pk=game.table_id)
    for viewer in players:
        html = presenters.render_all(presenters.load_screen(table, viewer), oob=True)["decision"]
        for seat, cash in enumerate(game.state["cash"]):
            assert (f'<span class="glance-cash you-mark" data-seat="{seat}" '
                    f'id="glance-cash-{seat}">Your cash <strong data-my-cash="{cash}">') in html


def test_the_seats_that_wait_get_one_decision_panel_and_the_deciding_seat_its_own() -> None:
    players = guests("brshared")
    game = started("boardroom", players, ("Bea", "Cy", "Dee"))
    shared_waits = 0
    for _ in range(40):
        screens = every_screen(game, players)
        seats = [presenters.load_screen(game.table, v).seat for v in players]
        deciding = ENGINE.to_decide(game.state)
        waiting = {s["decision"] for seat, s in zip(seats, screens, strict=False)
                   if seat not in deciding}
        mine = {s["decision"] for seat, s in zip(seats, screens, strict=False)
                if seat in deciding}
        if not game.state.get("auction") and not game.state.get("offer"):
            assert len(waiting) == 1
            shared_waits += 1
        assert not waiting & mine  # a deciding seat's buttons are its own
        game = bot_move(game)
        if game.status != Game.Status.RUNNING:
            break
    assert shared_waits
