"""The platform's tags as the Jinja2 partials call them (games/platform/jinja_tags.py) print
what the Django tags print and share their kept renders; the platform's pieces of the board
games' partials (games/platform/common_templates/) read alike in both engines."""

from __future__ import annotations

from typing import Any

from django.template import Context, engines

from games.platform.one_byte import one_byte
from games.platform.presenters import LogLine
from games.platform.rendering import render_unlocalized
from games.platform.templatetags.shared_includes import shared_renders, values_key, whole_renders

UNAVAILABLE = [[{"id": "buy", "label": "Buy <it>", "reason": "Ann's cash is short"}],
               [], [{"id": "x", "label": "X", "reason": "no"}, {"id": "y", "label": "Y",
                                                            "reason": "not \"now\""}]]


def _jinja(source: str, **context: Any) -> str:
    return engines["jinja2"].from_string(source).render(context)


def _django_pushed(source: str, **context: Any) -> str:
    # As a push renders a Django partial (render_unlocalized): localization off, one byte a
    # character.
    template = engines["django"].from_string(source).template
    return one_byte(template.render(Context(context, autoescape=True, use_l10n=False)))


def test_include_each_prints_what_the_django_tag_prints() -> None:
    jinja = _jinja('<p>{{ include_each("games/_why_not.html", rows, "unavailable") }}</p>',
                   rows=UNAVAILABLE)
    django = _django_pushed('<p>{% include_each "games/_why_not.html" rows "unavailable" %}</p>',
                            rows=UNAVAILABLE)
    assert jinja == django
    assert 'id="buy-why">Ann&#x27;s cash is short</small>' in jinja
    assert _jinja('[{{ include_each("games/_why_not.html", [], "u") }}]') == "[]"


def test_include_each_keeps_each_render_and_the_whole_under_the_django_tags_keys() -> None:
    shared_renders.clear()
    whole_renders.clear()
    rows = [[{"id": "sell", "label": "Sell", "reason": "later"}]]
    html = _jinja('{{ include_each("games/_why_not.html", rows, "unavailable") }}', rows=rows)
    flags = ("games/_why_not.html", True, False, None)
    assert shared_renders.get((*flags, values_key({"unavailable": rows[0]}))) == html
    assert whole_renders.get((*flags, values_key({"unavailable": rows}))) == html
    # The Django tag is served the Jinja2 render it kept.
    whole_renders.put((*flags, values_key({"unavailable": rows})), "kept")
    assert _django_pushed('{% include_each "games/_why_not.html" rows "unavailable" %}',
                          rows=rows) == "kept"


def test_include_each_without_its_whole_keeps_each_render_and_not_the_whole() -> None:
    shared_renders.clear()
    whole_renders.clear()
    rows = [[{"id": "sell", "label": "Sell", "reason": "later"}],
            [{"id": "buy", "label": "Buy", "reason": "no cash"}]]
    kept_whole = _jinja('{{ include_each("games/_why_not.html", rows, "unavailable") }}',
                        rows=rows)
    shared_renders.clear()
    whole_renders.clear()
    html = _jinja('{{ include_each("games/_why_not.html", rows, "unavailable", false) }}',
                  rows=rows)
    assert html == kept_whole
    flags = ("games/_why_not.html", True, False, None)
    assert whole_renders.get((*flags, values_key({"unavailable": rows}))) is None
    for row in rows:
        assert shared_renders.get((*flags, values_key({"unavailable": row}))) is not None
    # An item kept is served, not rendered again.
    shared_renders.put((*flags, values_key({"unavailable": rows[1]})), "<kept/>")
    again = _jinja('{{ include_each("games/_why_not.html", rows, "unavailable", false) }}',
                   rows=rows)
    assert again.endswith("<kept/>")


def test_include_only_prints_what_an_include_with_only_prints_and_keeps_it() -> None:
    shared_renders.clear()
    row = UNAVAILABLE[2]
    jinja = _jinja('{{ include_only("games/_why_not.html", unavailable=row) }}', row=row)
    django = _django_pushed(
        '{% include "games/_why_not.html" with unavailable=row only %}', row=row)
    assert jinja == django and "not &quot;now&quot;" in jinja
    key = ("games/_why_not.html", True, False, None, values_key({"unavailable": row}))
    assert shared_renders.get(key) == jinja


def test_log_lines_prints_what_the_django_tag_prints() -> None:
    def lines() -> list[LogLine]:
        return [LogLine("Ann built a branch", 3, 0, ({"type": "build"},)),
                LogLine("You paid <5> & moved", 4, 0, ({"type": "pay"},))]

    jinja = _jinja('<ol>{{ log_lines(lines, "boardroom/_log_line.html") }}</ol>', lines=lines())
    django = _django_pushed(
        '{% load log_lines %}<ol>{% log_lines lines "boardroom/_log_line.html" %}</ol>',
        lines=lines())
    assert jinja == django
    assert jinja.startswith('<ol><li data-k="4.0" id="line-4-0">')


def test_a_django_page_prints_a_jinja2_partial_with_the_values_it_is_given() -> None:
    html = _django_pushed('{% load jinja_partials %}<div>{% jinja_partial name c=board '
                          'game=None oob=False %}</div>', name="chudopoly/_hand.html", board={})
    partial = render_unlocalized("chudopoly/_hand.html", {"c": {}, "game": None, "oob": False})
    assert html == f"<div>{partial}</div>"


def test_the_auto_move_toggle_reads_alike_in_both_engines() -> None:
    for c in ({"auto_move": {"on": True}}, {"auto_move": {"on": False}},
              {"auto_move": {"on": True}, "auto_move_on_words": "It <moves>"},
              {"auto_move": {"on": False}, "auto_move_words": "Rolls & ends"}, {}):
        context = {"c": c, "table": {"code": "abc"}, "csrf_value": "t&k"}
        jinja = _jinja('{% include "games/_auto_move.html" %}', **context)
        assert jinja == _django_pushed('{% include "games/_auto_move.html" %}', **context), c
    words = _jinja('{% include "games/_auto_move.html" %}',
                   c={"auto_move": {"on": False}, "auto_move_words": "Rolls & ends"})
    assert 'title="Rolls &amp; ends"' in words


def test_the_result_links_read_alike_in_both_engines() -> None:
    context = {"c": {"replay_url": "/r/1?a=1&b=2", "charts_url": "/c/1"},
               "game": {"pk": 7}}
    jinja = _jinja('{% include "games/_result_links.html" %}', **context)
    assert jinja == _django_pushed('{% include "games/_result_links.html" %}', **context)
    assert 'href="/r/1?a=1&amp;b=2"' in jinja and 'id="result-charts-7"' in jinja
