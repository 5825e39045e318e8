"""Every push's HTML is one byte a character (games/platform/one_byte.py): a character above
U+00FF, in a template's text or a value printed into it, is sent as a character reference, so
the partials the push renders and reads are one-byte Python strings. The browser shows the
same words."""

from __future__ import annotations

from html import unescape

import jinja2
import pytest
from django.utils.safestring import SafeString
from test_screen_swaps import PRESETS, Socket, guests, move

from games.platform import services
from games.platform.identity import Viewer
from games.platform.interface import registered_games
from games.platform.jinja import environment
from games.platform.models import Game
from games.platform.one_byte import one_byte


def _render(source: str, **context: object) -> str:
    env = environment(loader=jinja2.DictLoader({"t": source}))
    return env.get_template("t").render(context)


def test_a_template_s_own_text_is_written_with_character_references() -> None:
    html = _render("<p title=\"Ann’s turn\">Ann’s turn · 3 → 4…</p>")
    assert html == "<p title=\"Ann&#8217;s turn\">Ann&#8217;s turn · 3 &#8594; 4&#8230;</p>"
    assert unescape(html) == "<p title=\"Ann’s turn\">Ann’s turn · 3 → 4…</p>"


def test_a_string_in_an_expression_is_escaped_once_not_twice() -> None:
    """A literal inside `{{ }}` is a value: escaped, then its references written, once."""
    assert _render('<i>{{ x or "–" }}</i>{{ "a ’ & b" }}', x=None) == (
        "<i>&#8211;</i>a &#8217; &amp; b")
    assert _render('{% set dash = "—" %}{{ dash }}{% if "’" in s %}yes{% endif %}',
                   s="it’s") == "&#8212;yes"


def test_values_printed_into_a_template_are_one_byte_and_latin_1_stays() -> None:
    assert _render("{{ name }}: {{ line }}", name="Zoë <b>", line="paid −140 × 2 “ok”") == (
        "Zoë &lt;b&gt;: paid &#8722;140 × 2 &#8220;ok&#8221;")


def test_text_inside_a_script_or_a_style_is_left_as_written() -> None:
    """There a reference is not read as one: the script would see `&#8217;`."""
    source = "<p>’</p><script>say('’{{ n }}')</script><style>a::after{content:'→'}</style>’"
    assert _render(source, n=1) == (
        "<p>&#8217;</p><script>say('’1')</script><style>a::after{content:'→'}</style>&#8217;")


def test_one_byte_returns_ascii_as_the_very_object() -> None:
    safe = SafeString("<b>plain</b>")
    assert one_byte(safe) is safe
    assert one_byte("naïve ★") == "naïve &#9733;"


def _started(kind: str, players: list[Viewer]) -> Game:
    """A four-seat game with its clocks on, so the pushes show deadlines and paused clocks."""
    preset = PRESETS.get(kind)
    table = services.table_create(viewer=players[0], name="Ann", ruleset_spec=(
        {"preset": preset} if preset else {}), max_seats=len(players), turn_seconds=90,
        response_seconds=30, game_kind=kind)
    for viewer, name in zip(players[1:], ("Ben", "Cat", "Dan"), strict=False):
        services.seat_join(table_id=table.pk, viewer=viewer, name=name)
    return services.game_start(table_id=table.pk, viewer=players[0])


@pytest.mark.django_db
@pytest.mark.parametrize("kind", sorted(registered_games()))
def test_every_frame_a_bot_game_pushes_is_one_byte_a_character(kind: str) -> None:
    """Two games played by bots move by move, four seats and a watcher at each: every frame
    their sockets are sent, the first page's partials and each push after a move, holds no
    character above U+00FF."""
    players = guests(4)
    frames = 0
    for round_ in range(2):
        game = _started(kind, players)
        sockets = [Socket(game.table.code, v) for v in (*players, None)]
        for n in range(200):
            for socket in sockets:
                frame = socket.take()
                frames += bool(frame)
                wide = sorted({c for c in frame if c > "\xff"})
                assert not wide, (kind, round_, n, wide)
            if game.status != Game.Status.RUNNING:
                break
            game = move(game, n + round_)
            sockets[n % len(sockets)].hear(game)
        for socket in sockets:
            socket.close()
    assert frames > 100
