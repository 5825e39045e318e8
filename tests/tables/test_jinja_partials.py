"""The hot board partials are Jinja2 templates (games/platform/jinja.py) that must print what
the Django templates they replaced printed: tests, the browser's scripts and the push's diffing
read the same HTML whichever engine wrote it."""

from __future__ import annotations

from html import escape

from django.template import engines
from django.template.backends.jinja2 import Template as JinjaTemplate
from django.template.loader import get_template
from django.template.loader import render_to_string as django_render
from django.utils.safestring import mark_safe

from games.platform.interface import get_game
from games.platform.rendering import render_unlocalized


def _jinja(source: str, **context: object) -> str:
    return engines["jinja2"].from_string(source).render(context)


def _django(source: str, **context: object) -> str:
    return engines["django"].from_string(source).render(context)


def test_text_is_escaped_as_django_escapes_it() -> None:
    name = "O'Brien & \"Sons\" <b>"
    assert _jinja("{{ n }}", n=name) == _django("{{ n }}", n=name)
    assert _jinja("{{ n }}", n=name) == "O&#x27;Brien &amp; &quot;Sons&quot; &lt;b&gt;"


def test_safe_html_is_printed_as_it_is() -> None:
    assert _jinja("{{ h }}", h=mark_safe("<i>x</i>")) == "<i>x</i>"


def test_numbers_none_and_booleans_print_as_django_prints_them() -> None:
    for value in (0, 12345, -3, 2.5, None, True, False):
        assert _jinja("{{ v }}", v=value) == _django("{{ v }}", v=value), value


def test_a_missing_value_prints_nothing_reads_false_and_is_none() -> None:
    source = ("[{{ c.gone.deeper }}]{% if c.gone %}yes{% endif %}"
              "{% if c.gone is none %}none{% endif %}")
    assert _jinja(source, c={}) == "[]none"
    assert _django(source.replace("is none", "is None"), c={}) == "[]none"


def test_pluralize_reads_as_django_s() -> None:
    assert _jinja("{{ 1|pluralize }}{{ 2|pluralize }}{{ 0|pluralize }}") == "ss"


def test_the_last_newline_of_a_template_is_kept() -> None:
    assert _jinja("<p></p>\n") == "<p></p>\n"


def test_chudopoly_s_board_partials_are_jinja2_templates() -> None:
    for template in get_game("chudopoly").board_templates.values():
        assert isinstance(get_template(template), JinjaTemplate), template


def test_boardroom_s_board_partials_are_jinja2_templates() -> None:
    for template in get_game("boardroom").board_templates.values():
        assert isinstance(get_template(template), JinjaTemplate), template


def test_a_boardroom_replay_draws_its_board_with_the_table_s_jinja2_partials() -> None:
    tiles = [{"pos": 3, "kind": "business", "side": "bottom", "row": 11, "col": 8,
              "name": "Dock & Co", "short": "Dock", "owner": None, "tokens": [],
              "card": {"pos": 3, "name": "Dock & Co", "price": 60}}]
    board = {"tiles": tiles, "dice": [2, 5], "stock": {"branches": 1, "holdings": 2},
             "players": [], "me": 1, "focus_card": tiles[0]["card"]}
    html = django_render("boardroom/_replay_board.html", {"board": board})
    for partial, values in (("boardroom/_tiles.html", {"c": board}),
                            ("boardroom/_dice.html", {"c": board}),
                            ("boardroom/_tile_cards.html", {"c": board}),
                            ("boardroom/_players.html", {"c": board, "game": True})):
        assert render_unlocalized(partial, values) in html, partial
    assert 'data-me="1"' in html and "Bank stock: 1 branch, 2 holdings" in html
    assert html.count('data-card="3"') == 2  # the inspected card and the tile's card


def test_a_board_partial_renders_the_same_through_every_path() -> None:
    # The page's render_to_string and the push's render_unlocalized.
    context = {"game": None, "oob": True, "c": {}}
    html = render_unlocalized("chudopoly/_hand.html", context)
    assert html == django_render("chudopoly/_hand.html", context)
    assert html.startswith('<section id="hand" class="hand-panel"')
    assert 'hx-swap-oob="true"' in html


def test_a_rendered_partial_is_safe_html_for_the_page_that_prints_it() -> None:
    html = render_unlocalized("chudopoly/_hand.html", {"game": None, "oob": False, "c": {}})
    assert _django("{{ h }}", h=html) == html


def test_the_version_inputs_carry_the_servers_clock_on_the_page_and_swap_in_on_a_push(
        ) -> None:
    import re
    import time

    from games.platform import presenters

    page = presenters._epoch_now()
    assert re.fullmatch(r"\d+\.\d{6}", page) and abs(float(page) - time.time()) < 5
    pushed = presenters.version_inputs(12, "ab&c", oob=True, now=None)
    assert pushed == ('<input type="hidden" id="table-version" name="expected_version" '
                      'value="12" hx-swap-oob="true">\n<input type="hidden" id="table-decision" '
                      'name="decision" value="ab&amp;c" hx-swap-oob="true">\n')
    shown = presenters.version_inputs(12, "", oob=False, now=page)
    assert shown == ('<input type="hidden" id="table-version" name="expected_version" '
                     f'value="12" data-now="{page}">\n<input type="hidden" id="table-decision" '
                     'name="decision" value="">\n')


def test_each_push_carries_its_own_decision_token_escaped() -> None:
    from games.platform import presenters

    for token in ("a<1", "a<1", "b&2", "a<1"):
        html = presenters.version_inputs(5, token, oob=True, now=None)
        assert f'value="{escape(token)}"' in html and 'value="5"' in html


def test_the_version_inputs_are_safe_html_for_the_page_that_prints_them() -> None:
    from games.platform import presenters

    html = presenters.version_inputs(3, "<x>", oob=False, now="1.000000")
    assert 'value="&lt;x&gt;"' in html
    assert _django("{{ h }}", h=html) == html


def test_a_dict_key_is_read_before_an_attribute_as_django_reads_it() -> None:
    # Jinja2 alone would print the dict's `items` method here.
    row = {"items": 3, "name": "Ann"}
    assert _jinja("{{ r.items }} {{ r.name }}", r=row) == _django("{{ r.items }} {{ r.name }}",
                                                                    r=row) == "3 Ann"


def test_a_missing_dict_key_still_reads_as_missing() -> None:
    assert _jinja("[{{ r.nope }}]{% if r.nope is none %} none{% endif %}", r={}) == "[] none"


def test_any_other_value_prints_as_its_text_escaped_once() -> None:
    class Label:
        def __str__(self) -> str:
            return "<b>&</b>"

    printed = _jinja("{{ v }}", v=Label())
    assert printed == _django("{{ v }}", v=Label()) == "&lt;b&gt;&amp;&lt;/b&gt;"


def test_safe_html_from_a_helper_is_not_escaped_again_inside_text() -> None:
    # Escaping is finalize's alone (games/platform/jinja.py): a safe piece beside escaped text.
    source = "<p>{{ n }} {{ h }} {{ 3 }}</p>"
    values = {"n": "a<b", "h": mark_safe("<i>&amp;</i>")}
    assert _jinja(source, **values) == _django(source, **values) == "<p>a&lt;b <i>&amp;</i> 3</p>"


def test_a_printed_value_is_written_as_finalize_returns_it_without_a_copy() -> None:
    # games/platform/jinja.py: `str()` around it would copy a safe string (a whole panel).
    source = engines["jinja2"].env.compile("<p>{{ x }}</p>", raw=True)
    assert "environment.finalize(" in source
    assert "str(environment.finalize(" not in source and "escape(" not in source


def test_a_helper_called_in_a_loop_gets_exactly_its_arguments_by_a_plain_call() -> None:
    seen: list[tuple[object, ...]] = []

    def helper(*args: object, **kwargs: object) -> str:
        seen.append((*args, *sorted(kwargs.items())))
        return "x"

    source = "{% for c in cs %}{{ helper(c, k=2) }}{% endfor %}"
    assert _jinja(source, cs=[1, 2], helper=helper) == "xx"
    assert seen == [(1, ("k", 2)), (2, ("k", 2))]
    assert "context.call(" not in engines["jinja2"].env.compile(source, raw=True)


def test_a_template_is_looked_up_once_and_kept_unless_the_environment_reloads_edits() -> None:
    import jinja2

    from games.platform.jinja import environment

    for reloads in (False, True):
        sources = {"t.html": "one"}
        env = environment(loader=jinja2.DictLoader(sources), auto_reload=reloads)
        first = env.get_template("t.html")
        assert env.get_template("t.html") is first and first.render() == "one"
        sources["t.html"] = "two"  # an edit, as DEBUG's auto-reload would see it
        assert env.get_template("t.html").render() == ("two" if reloads else "one")


def test_an_attribute_read_reads_a_dict_s_key_an_object_s_attribute_or_nothing() -> None:
    class Seat:
        seat = 7
        rating = {"after": 1510}

    source = ("{{ p.seat }}|{{ p.rating.after }}|{{ p.gone }}|{{ p.gone.deeper }}|"
              "{{ missing.x.y }}|{% for z in p.zones %}{{ z.colour }}{% endfor %}")
    as_dict = {"seat": 7, "rating": {"after": 1510}, "zones": [{"colour": "red"}]}
    assert _jinja(source, p=as_dict) == "7|1510||||red"
    assert _jinja(source, p=Seat()) == "7|1510||||"
    assert _jinja(source, p=None) == "|||||"


def test_a_dict_key_is_read_without_calling_the_environment_s_getattr() -> None:
    # games/platform/jinja.py's visit_Getattr: the key read inline; anything else (an object,
    # a key the dict lacks) still goes through the environment's own getattr.
    source = engines["jinja2"].env.compile("{{ p.seat }}{{ c.view.turn }}", raw=True)
    assert "p['seat'] if type(" in source and "['turn'] if type(" in source


def test_a_run_of_output_is_yielded_as_one_joined_piece_and_prints_the_same() -> None:
    template = engines["jinja2"].env.from_string(
        '<i id="s-{{ p.seat }}" data-seat="{{ p.seat }}">{{ p.name }}</i>'
        "{% if p.seat %}<b>{{ p.seat }}</b>{% endif %}")
    context = template.new_context({"p": {"seat": 2, "name": "A&B"}})
    pieces = list(template.root_render_func(context))
    assert pieces == ['<i id="s-2" data-seat="2">A&amp;B</i>', "<b>2</b>"]
