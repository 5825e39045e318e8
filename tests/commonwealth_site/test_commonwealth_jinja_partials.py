"""Commonwealth's board partials are Jinja2 templates (games/commonwealth/jinja2/, through
games/platform/jinja.py), each in one file: the pushes, the page and the replay draw the board
from the same partials, and they print what the Django templates they replaced printed
(escaped as Django escapes, numbers unlocalized)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template import TemplateDoesNotExist, engines
from django.template.backends.jinja2 import Template as JinjaTemplate
from django.template.loader import get_template, render_to_string

from games.commonwealth import engine
from games.commonwealth.board import board_context
from games.platform.interface import get_game
from games.platform.presenters import LogLine
from games.platform.rendering import render_unlocalized

NAMES = ["O'Ann", "Ben & Co", "Cy"]
SEATS = [{"is_bot": False}, {"is_bot": True, "deadline": "2026-12-05T22:00:00+00:00"},
         {"is_bot": True}]
PARTIALS = Path(__file__).resolve().parents[2] / "games" / "commonwealth" / "jinja2"


def _context(seat: int | None) -> dict:
    state = engine.new_game(seats=3, seed=4)
    return board_context(engine.view(state, seat), me=seat, names=NAMES, seats=SEATS)


def test_commonwealths_board_partials_are_jinja2_templates() -> None:
    for template in get_game("commonwealth").board_templates.values():
        assert isinstance(get_template(template), JinjaTemplate), template


def test_no_partial_has_a_django_copy() -> None:
    names = [f"commonwealth/{p.name}" for p in (PARTIALS / "commonwealth").glob("*.html")]
    assert len(names) >= 10
    for name in names:
        with pytest.raises(TemplateDoesNotExist):
            engines["django"].get_template(name)


def test_a_partial_renders_the_same_through_the_page_and_the_push() -> None:
    context = {"game": True, "oob": False, "c": _context(0), "me": 0}
    for template in get_game("commonwealth").board_templates.values():
        assert render_unlocalized(template, context) == render_to_string(template, context)


def test_names_are_escaped_as_django_escapes_them() -> None:
    html = render_unlocalized("commonwealth/_players.html", {"game": True, "c": _context(None)})
    assert "<strong>O&#x27;Ann</strong>" in html and "<strong>Ben &amp; Co</strong>" in html


def test_a_log_line_is_escaped_and_the_funds_lines_are_marked() -> None:
    fund = LogLine("The Community Fund paid <5> to O'Ann.", 7, 1)
    plain = LogLine("Ben & Co rolled 3 and 2.", 8, 0)
    html = render_unlocalized("commonwealth/_log.html", {"game": True, "c": {"log": [fund, plain]}})
    assert ('<ol class="game-log" id="log-lines"><li data-k="8.0" id="line-8-0">'
            '<span class="log-text">Ben &amp; Co rolled 3 and 2.</span></li>'
            '<li data-k="7.1" class="fund-line" id="line-7-1"><span class="log-text">'
            'The Community Fund paid &lt;5&gt; to O&#x27;Ann.</span></li></ol>') in html


def test_the_replay_draws_the_tables_own_partials() -> None:
    board = _context(1)
    replay = render_to_string("commonwealth/_replay_board.html", {"board": board})
    for partial, values in (("_fund.html", {"c": board}), ("_spaces.html", {"c": board}),
                            ("_dice.html", {"c": board}), ("_space_cards.html", {"c": board}),
                            ("_players.html", {"c": board, "game": True})):
        assert render_unlocalized(f"commonwealth/{partial}", values) in replay, partial
    assert '<div class="replay-table" data-me="1">' in replay
