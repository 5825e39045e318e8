"""The scripted player of the benches keeps its page as htmx does. (That bench/move_cost.py
still drives the real consumer path end to end, for every game, is
tests/hardening/test_benches_play_every_game.py's.)"""

from __future__ import annotations

import sys
from pathlib import Path

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
