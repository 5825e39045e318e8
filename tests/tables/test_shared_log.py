"""A table's log is one render for every seat and watcher (presenters.build_log): each line is
written as a watcher reads it, and a seat's own words ("You paid", "your turn") stand beside
the words they replace, shown to that seat alone by CSS (.you-mark / .them-mark under the
screen's data-me, static/css/site.css). What only one seat may read (the cards it drew, an
offer's terms) is in no shared line: it is shown to that seat in its own small element
(#log-mine, presenters.private_log)."""

from __future__ import annotations

from html import unescape
from html.parser import HTMLParser

import pytest
from tables_helpers import started_game

from games.platform import presenters, services
from games.platform.identity import Viewer
from games.platform.interface import get_game
from games.platform.models import Game, GameAction, Table
from games.platform.wording import marked_line

pytestmark = pytest.mark.django_db


class _Shown(HTMLParser):
    """The text a screen whose data-me is `me` shows of some HTML: a .them-mark of its seat
    and another seat's .you-mark are hidden (display: none), to the eye and to a screen
    reader alike. `lines`: the words of each log line (.log-text)."""

    def __init__(self, me: int | None) -> None:
        super().__init__(convert_charrefs=True)
        self.me, self.hidden, self.spans = me, 0, []
        self.text: list[str] = []
        self.lines: list[str] = []
        self.in_line = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "span":
            return
        a = dict(attrs)
        if a.get("class") == "log-text":
            self.lines.append("")
        seat = int(a["data-seat"] or -1) if "data-seat" in a else None
        hide = ((a.get("class") == "them-mark" and seat == self.me)
                or (a.get("class") == "you-mark" and seat != self.me))
        line = a.get("class") == "log-text" or bool(self.in_line)
        self.spans.append((hide, line))
        self.hidden += hide
        self.in_line += line

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            hide, line = self.spans.pop()
            self.hidden -= hide
            self.in_line -= line

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.text.append(data)
            if self.in_line:
                self.lines[-1] += data


def shown(html: str, me: int | None) -> str:
    parser = _Shown(me)
    parser.feed(html)
    return "".join(parser.text)


def lines_shown(html: str, me: int | None) -> list[str]:
    parser = _Shown(me)
    parser.feed(html)
    return parser.lines


def test_a_line_reads_as_each_seat_reads_it_and_as_a_watcher_does() -> None:
    own = {0: "You paid Bea 5M.", 1: "Ann paid you 5M."}
    html = marked_line("Ann paid Bea 5M.", own)
    assert shown(html, 0) == "You paid Bea 5M."
    assert shown(html, 1) == "Ann paid you 5M."
    assert shown(html, 2) == shown(html, None) == "Ann paid Bea 5M."
    # Only the words that differ are marked, whole words, the verb with its subject.
    assert html.startswith('<span class="them-mark" data-seat="0">Ann</span>'
                           '<span class="you-mark" data-seat="0">You</span> paid ')
    verb = marked_line("Ann gets 3 plays.", {0: "You get 3 plays."})
    assert '<span class="you-mark" data-seat="0">You get</span> 3 plays.' in verb


def test_two_seats_whose_words_overlap_share_one_marked_stretch() -> None:
    own = {0: "Turn 3: your turn; Bea waits.", 1: "Turn 3: Ann’s turn; you wait."}
    html = marked_line("Turn 3: Ann’s turn; Bea waits.", own)
    for seat, text in own.items():
        assert shown(html, seat) == text
    assert shown(html, None) == "Turn 3: Ann’s turn; Bea waits."
    crossing = {0: "You <b>took</b> it & ran.", 1: "Ann took it & you ran."}
    html = marked_line("Ann took it & Bea ran.", crossing)
    assert "<b>" not in html and "&amp; " in html
    for seat, text in crossing.items():
        assert shown(html, seat) == text


PRESETS = {"chudopoly": {"preset": "chudopoly"}, "boardroom": {"preset": "standard"},
           "commonwealth": {}}


def play(game: Game, moves: int) -> Game:
    """`moves` moves of whichever seats owe them, as their bots would choose."""
    engine = get_game(game.game_kind)
    for n in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        deciding = engine.to_decide(game.state)
        seat = deciding[n % len(deciding)]
        action = engine.bot_action(engine.view(game.state, seat), "easy")
        game = services.table_apply_action(game_id=game.pk, seat=seat, action=action,
                                           expected_version=game.version)
    return game


def screens(game: Game, viewers: list[Viewer]) -> list[presenters.TableScreen]:
    table = Table.objects.get(pk=game.table_id)
    return [presenters.load_screen(table, v) for v in viewers]


@pytest.mark.parametrize("kind", ["chudopoly", "boardroom", "commonwealth"])
def test_every_seat_and_a_watcher_are_sent_one_log_that_reads_right_for_each(
        kind: str, alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = play(started_game(alice, (bob, "Bob"), game_kind=kind,
                             ruleset_spec=PRESETS[kind]), 40)
    engine = get_game(kind)
    names = [p["name"] for p in game.players]
    seen = screens(game, [alice, bob, carol])  # Carol watches
    parts = [presenters.render_all(s) for s in seen]
    assert parts[0]["log"] == parts[1]["log"] == parts[2]["log"]
    rows = GameAction.objects.filter(game=game).order_by("version").values_list("events",
                                                                                 flat=True)
    shown_lines = {s.seat: lines_shown(parts[0]["log"], s.seat) for s in seen}
    assert shown_lines[None]
    for screen in seen:
        # Each line shows a seat what that seat's own description of the watcher's event
        # says: "You drew 2 cards." for its own draw, whose cards it is shown beside.
        said = [engine.describe_event(e, viewer=screen.seat, names=names, ruleset=game.ruleset)
                for events in rows for e in engine.events_for(events or [], None)]
        newest = [line for line in said if line][::-1][:len(shown_lines[None])]
        assert shown_lines[screen.seat] == newest
    assert shown_lines[0] != shown_lines[None] != shown_lines[1]


def test_a_seats_own_draw_is_shown_to_it_alone_beside_the_shared_log(
        alice: Viewer, bob: Viewer, carol: Viewer) -> None:
    game = started_game(alice, (bob, "Bob"))
    for _ in range(60):  # until each seat has drawn at a turn's start (the deal is no move)
        game = play(game, 1)
        ann, ben, watcher = screens(game, [alice, bob, carol])
        if ann.ctx["log_mine"] and ben.ctx["log_mine"]:
            break
    mine = {s.seat: presenters.render_all(s)["log_mine"] for s in (ann, ben, watcher)}
    assert 'hidden' in mine[None] and "<li" not in mine[None]
    for seat in (ann.seat, ben.seat):
        other = presenters.render_all(ann if seat == ben.seat else ben)
        lines = ann.ctx["log_mine"] if seat == ann.seat else ben.ctx["log_mine"]
        assert lines, seat
        # The pages' text, not their markup: a card's name may hold "&", which HTML escapes.
        shown, others = unescape(mine[seat]), unescape("".join(other.values()))
        for line in lines:
            assert line.text.startswith("You ") and line.text in shown
            assert line.text not in others  # nor in the shared log
            assert line.text.split(" ", 2)[2] not in unescape(other["log"])


def test_a_private_line_is_listed_escaped_and_alike_on_every_push() -> None:
    line = presenters.LogLine("You drew <b>Rent</b> & Deal.", version=7, index=1)
    first = presenters.private_log([line], oob=True)
    assert ('<li data-k="mine-7.1"><span class="log-text">'
            'You drew &lt;b&gt;Rent&lt;/b&gt; &amp; Deal.</span></li>') in first
    assert presenters.private_log([line], oob=True) == first
