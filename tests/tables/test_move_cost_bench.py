"""The scripted player of the benches keeps its page as htmx does. (That bench/move_cost.py
still drives the real consumer path end to end, for every game, is
tests/hardening/test_benches_play_every_game.py's.)"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]

def test_the_scripted_player_applies_a_pushed_panel_where_its_page_holds_it() -> None:
    """bench/liveplay.py reads its forms from a page kept as htmx keeps it: a panel pushed
    alone replaces the one in the players partial; the log's swaps by selector are left out."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import liveplay
    finally:
        sys.path.remove(str(ROOT / "bench"))
    page: dict[str, str] = {}
    liveplay.apply_frame(page, '<section id="players" hx-swap-oob="true"><div>'
                               '<details class="p" id="seat-1">old<details>x</details></details>'
                               '<article id="seat-0">mine</article></div></section>\n'
                               '<section id="log" hx-swap-oob="true"><ol></ol></section>')
    liveplay.apply_frame(page, '<input type="hidden" id="table-version" name="expected_version"'
                               ' value="7" hx-swap-oob="true">\n'
                               '<details hx-swap-oob="true" class="p" id="seat-1">new</details>\n'
                               '<ol hx-swap-oob="afterbegin:#log ol"><li data-k="1.0">x</li></ol>')
    assert page["players"] == ('<section id="players" hx-swap-oob="true"><div>'
                               '<details class="p" id="seat-1">new</details>'
                               '<article id="seat-0">mine</article></div></section>\n')
    assert page["log"] == '<section id="log" hx-swap-oob="true"><ol></ol></section>'
    assert liveplay.version_in(page["table-version"]) == 7


def test_the_scripted_player_gives_an_element_the_attributes_an_attrs_swap_sends() -> None:
    """A push whose element changed only in its start tag sends its attributes (swaps.py,
    applied by table.js): the page keeps what the element holds and reads the new bounds."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import liveplay
    finally:
        sys.path.remove(str(ROOT / "bench"))
    page: dict[str, str] = {}
    liveplay.apply_frame(page, '<section id="decision" class="decision-panel" hx-swap-oob="true">'
                               '<form><input type="number" id="amount-input" min="15" max="100">'
                               '</form></section>')
    liveplay.apply_frame(page, '<input hx-swap-oob="attrs:#amount-input" type="number" min="25"'
                               ' max="90"></input>\n<section hx-swap-oob="attrs:#decision" '
                               'class="decision-panel active"></section>')
    assert page["decision"] == ('<section id="decision" class="decision-panel active"><form>'
                                '<input id="amount-input" type="number" min="25" max="90">'
                                '</form></section>')


def _bench_module(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(ROOT / "bench"))


def test_the_scripted_players_page_keeps_a_list_that_grows_on_top_and_loses_its_end() -> None:
    """The log's new lines come first in it (afterbegin) and its aged ones are deleted by id;
    a line swapped later by its id is found where it was put."""
    livepage = _bench_module("livepage")
    screen = livepage.Screen()
    screen.apply('<section id="log" hx-swap-oob="true"><ol id="log-lines">'
                 '<li id="line-1">one</li><li id="line-0">zero</li></ol></section>')
    screen.apply('<ol hx-swap-oob="afterbegin:#log-lines"><li id="line-2">two</li></ol>\n'
                 '<li hx-swap-oob="delete:#line-0"></li>\n'
                 '<li hx-swap-oob="true" id="line-2">two, again</li>')
    assert screen.partials["log"] == ('<section id="log" hx-swap-oob="true"><ol id="log-lines">'
                                      '<li id="line-2">two, again</li><li id="line-1">one</li>'
                                      '</ol></section>')


def test_the_scripted_players_page_swaps_an_element_holding_one_swapped_before() -> None:
    """A piece swapped into a partial, then the element holding it swapped whole, then that
    element's start tag given new attributes: the page reads as the last of them says."""
    livepage = _bench_module("livepage")
    screen = livepage.Screen()
    screen.apply('<section id="players" hx-swap-oob="true"><div id="seat-0" class="p">'
                 '<span id="seat-0-cash">1</span><span data-id="seat-1">x</span></div>'
                 '<div id="seat-1"><div>a</div><div>b</div></div></section>')
    screen.apply('<span hx-swap-oob="true" id="seat-0-cash">2</span>')
    assert '<span id="seat-0-cash">2</span>' in screen.partials["players"]
    screen.apply('<div hx-swap-oob="true" id="seat-0" class="p"><span id="seat-0-cash">3</span>'
                 '</div>\n<div hx-swap-oob="true" id="seat-1">c</div>\n'
                 '<div hx-swap-oob="attrs:#seat-0" class="p out"></div>')
    assert screen.partials["players"] == (
        '<section id="players" hx-swap-oob="true"><div id="seat-0" class="p out">'
        '<span id="seat-0-cash">3</span></div><div id="seat-1">c</div></section>')


def test_a_board_game_seat_sees_the_end_in_its_decision_panel() -> None:
    """A board game's result banner stands in the seat's decision panel, not the board: the
    scripted seat knows its game ended (it looked only at the board, and played on)."""
    liveplay = _bench_module("liveplay")
    page = liveplay.Page()
    page.take('<section id="status" hx-swap-oob="true"><div id="board"></div></section>\n'
              '<section id="decision" class="decision-panel" hx-swap-oob="true"></section>')
    assert not page.finished
    page.take('<section id="decision" class="decision-panel" hx-swap-oob="true">'
              '<div class="banner result" id="result">P1 wins</div></section>')
    assert page.finished


def test_a_waiting_seat_reads_its_page_again_when_its_decision_token_changes() -> None:
    """Equal decision tokens are the same decision: a seat that found nothing to do keeps its
    frames unread while its token holds, and looks again, finding its move, once it
    changes."""
    import random

    liveplay = _bench_module("liveplay")
    page = liveplay.Page()

    def frame(version: int, token: str, decision: str) -> str:
        return (f'<input type="hidden" id="table-version" name="expected_version" '
                f'value="{version}" hx-swap-oob="true">\n<input type="hidden" '
                f'id="table-decision" name="decision" value="{token}" hx-swap-oob="true">\n'
                f'<section id="decision" class="decision-panel" hx-swap-oob="true">'
                f'{decision}</section>')

    rng = random.Random(0)
    memory = liveplay.pageforms.Memory()
    page.take(frame(1, "wait", "<p>Waiting.</p>"))
    assert page.choose(rng, memory=memory) is None
    page.take(frame(2, "wait", "<p>Still waiting.</p>"))
    assert page.choose(rng, memory=memory) is None
    assert page._pending, "the waiting seat read a frame it did not need"
    page.take(frame(3, "mine", """<button value='{"type": "roll"}'>Roll</button>"""))
    assert page.choose(rng, memory=memory) == {"action": {"type": "roll"}, "optional": False}


def test_a_card_game_seat_sees_the_end_in_the_status_it_does_not_keep() -> None:
    """The scripted seat keeps only the partials it reads its moves from; of the status it
    keeps the ids, and whether a swap into it brought the result (Chudopoly's banner stands
    there)."""
    liveplay = _bench_module("liveplay")
    page = liveplay.Page()
    page.take('<section id="status" hx-swap-oob="true"><div id="turn-bar">Ann</div></section>\n'
              '<section id="decision" class="decision-panel" hx-swap-oob="true"></section>')
    page.take('<div hx-swap-oob="true" id="turn-bar">Bob</div>')
    assert not page.finished
    assert "status" not in page.partials
    page.take('<div hx-swap-oob="true" id="turn-bar"><div class="banner result" id="result">'
              'Bob won</div></div>')
    assert page.finished


def test_a_seat_keeps_the_players_panel_only_on_a_page_with_deal_forms() -> None:
    """A deal's cash field takes its limit from the players panel (Commonwealth's); a page
    without deal forms never reads that panel, and does not keep it up to date."""
    liveplay = _bench_module("liveplay")
    players = ('<section id="players" hx-swap-oob="true"><div id="player-1">'
               '<b data-cash="45" data-deal-cash="40"></b></div></section>')
    decision = '<section id="decision" class="decision-panel" hx-swap-oob="true"></section>'
    dealing, plain = liveplay.Page(), liveplay.Page()
    dealing.take(players + '\n<div id="deals" hx-swap-oob="true"></div>\n' + decision)
    plain.take(players + "\n" + decision)
    assert liveplay.pageforms.cash_by_seat(dealing.partials["players"]) == {1: 40}
    assert "players" not in plain.partials and "decision" in plain.partials


def test_the_benchs_steady_clocks_set_the_same_deadlines_whenever_the_run_is_made(
        monkeypatch) -> None:
    """move_cost --steady-clocks (on with --count-handlers): the games' clocks read the
    bench's time, a fixed instant moved on a tick a move, so a Commonwealth seat's 5-minute
    clock gets the same deadline in any run, however slow, and no clock nears its end."""
    from games.commonwealth import engine as rules
    from games.platform import clocks
    from games.platform.interface import get_game

    move_cost = _bench_module("move_cost")
    steady = move_cost.SteadyClocks()
    monkeypatch.setattr(clocks, "now", steady.now)
    game = get_game("commonwealth")
    state = rules.new_game(seats=4, seed=1)
    first = clocks.own_deadlines(game, state, {})
    assert first["0"]["deadline"] == "2026-01-01T00:05:00+00:00"
    for _ in range(150):
        steady.tick()
    assert steady.now() - move_cost.STEADY_START == 150 * move_cost.STEADY_TICK
    assert timedelta(seconds=60) > 150 * move_cost.STEADY_TICK  # a bid's clock, the shortest
    later = clocks.own_deadlines(game, state, {})
    assert later["0"]["deadline"] == "2026-01-01T00:05:01.500000+00:00"
