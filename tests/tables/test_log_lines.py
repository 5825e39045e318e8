"""{% log_lines %}: a board game's log items, newest first, each line rendered once."""

from __future__ import annotations

from unittest import mock

from games.platform.presenters import LogLine
from games.platform.rendering import render_unlocalized
from games.platform.templatetags import log_lines


def _lines() -> list[LogLine]:
    return [LogLine("Ann built a branch", 3, 0, ({"type": "build"},)),
            LogLine("You paid <5> & moved", 4, 0, ({"type": "pay"},))]


def test_the_log_lists_the_newest_line_first_escaped_with_its_id() -> None:
    html = render_unlocalized("boardroom/_log.html", {"c": {"log": _lines()}, "game": True})
    assert ('<ol class="game-log" id="log-lines"><li data-k="4.0" id="line-4-0">'
            '<span class="log-text">You paid &lt;5&gt; &amp; moved</span></li>'
            '<li data-k="3.0" data-sound="branch" id="line-3-0">') in html


def test_a_line_listed_again_is_not_rendered_again() -> None:
    lines = _lines()
    first = log_lines.log_lines(lines, "commonwealth/_log_line.html")
    with mock.patch.object(log_lines, "render_unlocalized") as render:
        again = log_lines.log_lines(lines, "commonwealth/_log_line.html")
    assert again == first and not render.called
    assert "\n" not in first
