"""Chudopoly's status (whose turn, the plays left, the piles, the banners, the result) reads
alike for every seat and a watcher, so one render a move serves them all: it names every seat
by its name and number, and the page shows "Your turn", "your clock", "Your answer is needed
below", "You are armed" and "You won" to the seat whose screen it is (.you-mark and .them-mark
under the seat marker's data-me, static/css/site.css), to the eye and to a screen reader alike.
Only the result's rematch line is the host's own."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from tables_helpers import ENGINE, card_ids_in, play_one, seat_of, started_game

from games.platform import presenters, services
from games.platform.identity import Viewer
from games.platform.models import Game, Table

pytestmark = pytest.mark.django_db

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
WATCHER = Viewer(user_id=None, guest_key=None)


class _Shown(HTMLParser):
    """The words a screen whose data-me is `me` shows of some HTML: a .you-mark of another
    seat, and a .them-mark of its own (data-seat) or naming it (data-seats), are hidden
    (display: none) with all they hold."""

    def __init__(self, me: int | None) -> None:
        super().__init__(convert_charrefs=True)
        self.me = me
        self.open: list[bool] = []
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        seat = a.get("data-seat")
        seats = (a.get("data-seats") or "").split()
        me = None if self.me is None else str(self.me)
        hide = (("you-mark" in classes and seat != me)
                or ("them-mark" in classes and me is not None
                    and (seat == me or me in seats)))
        self.open.append(hide)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        return None  # an svg's path: no words

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if not any(self.open):
            self.words.append(data)


def shown(html: str, me: int | None) -> str:
    parser = _Shown(me)
    parser.feed(html)
    return " ".join("".join(parser.words).split())


def guests(n: int) -> list[Viewer]:
    return [Viewer(user_id=None, guest_key=f"guest-status-{i}-".ljust(35, "0")) for i in range(n)]


def statuses(game: Game, viewers: list[Viewer]) -> list[str]:
    table = Table.objects.get(pk=game.table_id)
    return [presenters.render_all(presenters.load_screen(table, v))["status"] for v in viewers]


def test_every_seat_and_a_watcher_are_served_one_render_of_the_status_with_nothing_private(
        ) -> None:
    players = guests(4)
    game = started_game(players[0], *zip(players[1:], ("Bea", "Cy", "Dee"), strict=True),
                        turn_seconds=60, response_seconds=30)
    viewers = [*players, WATCHER]
    partial = presenters.shared_partial("chudopoly/_status.html")
    assert partial is not None
    for n in range(60):
        # A fresh window: judge the sharing, not whether keying paid so far.
        partial.tried = partial.served = partial.resting = 0
        before = partial.renders
        screens = statuses(game, viewers)
        assert len(set(screens)) == 1, n
        assert partial.renders - before <= 1, n  # one render for the five screens, if any
        hands = {c for p in game.state["players"] for c in p["hand"]}
        assert not hands & card_ids_in(screens[0]), n
        assert "<form" not in screens[0] and 'name="action"' not in screens[0]
        game = play_one(game)
        if game.status != Game.Status.RUNNING:
            break


def test_each_seat_is_shown_its_own_turn_clock_and_answer_and_a_watcher_none() -> None:
    players = guests(3)
    game = started_game(players[0], *zip(players[1:], ("Bea", "Cy"), strict=True),
                        turn_seconds=60, response_seconds=30)
    seats = [seat_of(game, v) for v in players]
    told_to_answer = 0
    for n in range(80):
        game.refresh_from_db()
        turn = game.state["turn"]
        deciding = ENGINE.to_decide(game.state)
        names = [p["name"] for p in game.players]
        html = statuses(game, [WATCHER])[0]
        clocks = {int(s) for s, entry in (game.deadlines or {}).items()
                  if s.isdigit() and isinstance(entry, dict) and entry.get("deadline")}
        for seat in seats:
            words = shown(html, seat)
            if seat == turn:
                assert "Your turn" in words and "’s turn" not in words, (n, words)
            else:
                assert f"{names[turn]}’s turn" in words and "Your turn" not in words, (n, words)
            assert ("your clock" in words) == (seat in clocks), (n, seat, words)
            answers = seat in deciding and seat != turn
            assert ("Your answer is needed below." in words) == answers, (n, seat, words)
            told_to_answer += answers
            waiting = ", ".join(names[s] for s in deciding)
            assert (f"Waiting on {waiting}." in words) == (seat not in deciding), (n, words)
        words = shown(html, None)
        assert f"{names[turn]}’s turn" in words and "Waiting on" in words
        assert not {"Your", "your", "You"} & set(words.replace(".", " ").split()), words
        game = play_one(game)
        if game.status != Game.Status.RUNNING:
            break
    assert told_to_answer, "no seat was asked to answer"


def test_the_result_tells_the_winner_it_won_and_differs_only_in_the_hosts_rematch_line(
        ) -> None:
    host, guest = guests(2)
    game = started_game(host, (guest, "Bea"), turn_seconds=0)
    loser = ENGINE.to_decide(game.state)[0]
    game = services.table_apply_action(game_id=game.pk, seat=loser, action={"type": "scoop"},
                                       expected_version=game.version)
    winner = 1 - loser
    host_html, guest_html, watcher_html = statuses(game, [host, guest, WATCHER])
    rematch = ("Start a rematch from the table panel.", "The host can start a rematch.")
    assert host_html.replace(*rematch) == guest_html == watcher_html
    assert f'data-first="{winner}"' in guest_html
    winner_name = game.players[winner]["name"]
    assert "You won" in shown(guest_html, winner)
    assert f"{winner_name} won" not in shown(guest_html, winner)
    assert f"{winner_name} won" in shown(guest_html, loser) and "You won" not in shown(
        guest_html, loser)
    assert f"{winner_name} won" in shown(guest_html, None)
