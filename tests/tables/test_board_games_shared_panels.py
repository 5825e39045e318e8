"""A board game's board, players panel, turn line and glance line read alike for every seat and a
watcher, so one render serves them all: the page marks "You", "Your turn", "your clock" and "Your
cash" for the seat whose screen it is (its seat marker, #table-me's data-me, static/css/site.css).
What is a seat's own (the card its board's centre shows, its result, its auto move toggle, its
choices) stands in partials of its own."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from board_game_screens import bot_move, every_screen, guests, started

from games.platform import presenters
from games.platform.interface import get_game
from games.platform.models import Game, Table

pytestmark = pytest.mark.django_db

KINDS = ["boardroom", "commonwealth"]
NAMES = ("Bea", "Cy", "Dee")
TURN_LINE = re.compile(r'<p class="(?:br|cw)-turn" id="turn-line">.*?</p>', re.S)
YOU_IN_PANEL = re.compile(r'<span class="you-mark"[^>]*><strong>You</strong>')


def _set_cash(kind: str) -> Callable[[dict[str, Any], list[int]], None]:
    def boardroom(state: dict[str, Any], cash: list[int]) -> None:
        state["cash"] = cash

    def commonwealth(state: dict[str, Any], cash: list[int]) -> None:
        for player, amount in zip(state["players"], cash, strict=True):
            player["cash"] = amount

    return boardroom if kind == "boardroom" else commonwealth


@pytest.mark.parametrize("kind", KINDS)
def test_every_seat_and_a_watcher_get_the_same_board_players_panel_and_turn_line(
        kind: str) -> None:
    players = guests(f"{kind}-shared")
    game = started(kind, players, NAMES)
    told_who_decides = 0
    for _ in range(40):
        screens = every_screen(game, players)
        assert len({s["status"] for s in screens}) == 1
        assert len({s["players"] for s in screens}) == 1
        told_who_decides += 'id="deciding"' in TURN_LINE.search(screens[0]["status"]).group(0)  # type: ignore[union-attr]
        game = bot_move(game)
        if game.status != Game.Status.RUNNING:
            break
    assert told_who_decides


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_marks_the_viewers_own_seat_and_turn_from_its_seat_marker(kind: str) -> None:
    players = guests(f"{kind}-shared")
    game = started(kind, players, NAMES)
    turn = game.state["turn"]
    seats = [presenters.load_screen(game.table, v).seat for v in players]
    screens = every_screen(game, players)
    for seat, screen in zip(seats, screens, strict=False):
        assert screen["me"] == presenters.seat_marker(seat, oob=True)
        assert "data-me" not in screen["status"]
        # Every seat's "You" is in the panel; the page shows one, under its own data-me.
        assert len(YOU_IN_PANEL.findall(screen["players"])) == 4
        # The page's text: the HTML writes ’ as a character reference (one_byte.py).
        assert (f'<span class="them-mark" data-seat="{turn}">'
                f'{game.players[turn]["name"]}’s turn</span>') in unescape(screen["status"])
        assert f'<span class="you-mark" data-seat="{turn}">Your turn</span>' in screen["status"]
        assert ' me"' not in screen["players"] and " me " not in screen["players"]
    assert "data-me" not in screens[4]["me"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_glance_line_carries_every_seats_cash_for_the_page_to_show_its_own(
        kind: str) -> None:
    players = guests(f"{kind}-shared")
    game = started(kind, players, NAMES)
    cash = [1500, 1400, 1300, 1200]
    _set_cash(kind)(game.state, cash)
    game.save()
    table = Table.objects.get(pk=game.table_id)
    for viewer in players:
        parts = presenters.render_all(presenters.load_screen(table, viewer), oob=True)
        # A glance line of its own (Boardroom's, Commonwealth's), docked above the decision.
        html = parts.get("glance") or parts["decision"]
        for seat, amount in enumerate(cash):
            assert (f'<span class="glance-cash you-mark" data-seat="{seat}" '
                    f'id="glance-cash-{seat}">Your cash <strong data-my-cash="{amount}">') in html


# Whether the seats that wait see nothing of their own in the decision panel (Commonwealth's
# deal forms, each seat's own at any time, are a partial of their own beside it).
WAITING_SHARE = {"boardroom": True, "commonwealth": True}
PARTIES_TOLD_APART = ("auction", "offer", "deal", "declined")


@pytest.mark.parametrize("kind", KINDS)
def test_the_seats_that_wait_get_one_decision_panel_and_the_deciding_seat_its_own(
        kind: str) -> None:
    engine = get_game(kind)
    players = guests(f"{kind}-shared")
    game = started(kind, players, NAMES)
    shared_waits = 0
    for _ in range(40):
        screens = every_screen(game, players)
        seats = [presenters.load_screen(game.table, v).seat for v in players]
        deciding = engine.to_decide(game.state)
        waiting = {s["decision"] for seat, s in zip(seats, screens, strict=False)
                   if seat not in deciding}
        mine = {s["decision"] for seat, s in zip(seats, screens, strict=False)
                if seat in deciding}
        # Besides an auction, a deal is told to its parties and the other seats apart: its
        # terms while it waits for an answer (Boardroom's "offer", Commonwealth's "deal"), and
        # to its sender alone that it was declined, for the rest of the turn ("declined").
        # (When every seat decides at once, Commonwealth's GO gifts owed by all, none waits.)
        if (WAITING_SHARE[kind] and waiting
                and not any(game.state.get(key) for key in PARTIES_TOLD_APART)):
            assert len(waiting) == 1
            shared_waits += 1
        assert not waiting & mine  # a deciding seat's buttons are its own
        game = bot_move(game)
        if game.status != Game.Status.RUNNING:
            break
    assert shared_waits or not WAITING_SHARE[kind]
