"""An `{% include … only %}` is rendered once per distinct values and process, and served to
whoever asks for the same (games/platform/templatetags/shared_includes.py)."""

from __future__ import annotations

from typing import Any

from django.template import Context, Engine
from django.utils.safestring import mark_safe

from games.platform.rendering import SharedList
from games.platform.templatetags.shared_includes import shared_renders, values_key, whole_renders

TEMPLATES = {
    "card.html": "<p>{{ card.name }}{% if card.owner %} of {{ card.owner }}{% endif %}</p>",
    "clock.html": "<p>{{ card.name }} at {% now 'H:i:s.u' %}</p>",
    "board.html": "{% for t in tiles %}{% include 'card.html' with card=t only %}{% endfor %}",
    "open.html": "{% for t in tiles %}{% include 'card.html' with card=t %}{% endfor %}",
    "timed.html": "{% include 'clock.html' with card=tiles.0 only %}",
    "each.html": "{% include_each 'card.html' tiles 'card' %}",
    "each_timed.html": "{% include_each 'clock.html' tiles 'card' %}",
}


def engine() -> Engine:
    return Engine(loaders=[("django.template.loaders.locmem.Loader", TEMPLATES)],
                  builtins=["games.platform.templatetags.shared_includes"])


def render(name: str, **values: Any) -> str:
    return engine().get_template(name).render(Context(values))


def kept_for(card: dict[str, Any]) -> str | None:
    return shared_renders.get(("card.html", True, None, None, values_key({"card": card})))


def test_an_include_with_only_is_kept_by_its_values_and_served_again() -> None:
    tiles = [{"name": "Dock", "owner": "Ann"}, {"name": "Mill", "owner": None}]
    assert render("board.html", tiles=tiles) == "<p>Dock of Ann</p><p>Mill</p>"
    assert kept_for(tiles[0]) == "<p>Dock of Ann</p>"
    shared_renders.put(("card.html", True, None, None, values_key({"card": tiles[1]})),
                       "<p>kept</p>")
    assert render("board.html", tiles=tiles) == "<p>Dock of Ann</p><p>kept</p>"
    assert render("board.html", tiles=[{"name": "Mill", "owner": "Ben"}]) == "<p>Mill of Ben</p>"


def test_an_include_without_only_or_with_a_clock_is_rendered_every_time() -> None:
    tiles = [{"name": "Quay", "owner": "Cat"}]
    assert render("open.html", tiles=tiles) == "<p>Quay of Cat</p>"
    assert kept_for(tiles[0]) is None
    assert render("timed.html", tiles=tiles) != render("timed.html", tiles=tiles)


def test_values_that_print_apart_are_kept_apart() -> None:
    assert values_key({"card": "<b>"}) != values_key({"card": mark_safe("<b>")})
    assert values_key({"card": 1}) != values_key({"card": True})
    assert values_key({"card": range(2)}) != values_key({"card": [0, 1]})
    assert values_key({"card": object()}) is None  # not plain data: rendered every time


def test_include_each_prints_what_a_loop_of_includes_with_only_prints_and_keeps_it() -> None:
    tiles = [{"name": "Pier", "owner": "Ann"}, {"name": "Yard", "owner": None}]
    assert render("each.html", tiles=tiles) == render("board.html", tiles=tiles)
    shared_renders.put(("card.html", True, None, None, values_key({"card": tiles[1]})),
                       "<p>kept</p>")
    whole_renders.clear()  # the joined whole is kept as well (below): put it aside here
    assert render("each.html", tiles=tiles) == "<p>Pier of Ann</p><p>kept</p>"
    assert render("each.html", tiles=[]) == ""


def test_include_each_keeps_the_joined_whole_by_the_lists_content() -> None:
    tiles = [{"name": "Wharf", "owner": "Dee"}, {"name": "Kiln", "owner": None}]
    assert render("each.html", tiles=tiles) == "<p>Wharf of Dee</p><p>Kiln</p>"
    # Another viewer's list that reads alike is served the whole, without a lookup per item.
    shared_renders.put(("card.html", True, None, None, values_key({"card": tiles[1]})),
                       "<p>not looked up</p>")
    same = [dict(t) for t in tiles]
    assert render("each.html", tiles=same) == "<p>Wharf of Dee</p><p>Kiln</p>"
    # A list that differs in one item is a whole of its own.
    other = [tiles[0], {"name": "Kiln", "owner": "Eve"}]
    assert render("each.html", tiles=other) == "<p>Wharf of Dee</p><p>Kiln of Eve</p>"


def test_include_each_of_a_template_with_a_clock_renders_every_time() -> None:
    tiles = [{"name": "Gate", "owner": "Cat"}]
    assert render("each_timed.html", tiles=tiles) != render("each_timed.html", tiles=tiles)


def test_a_shared_lists_whole_is_keyed_once_for_every_socket_that_renders_it() -> None:
    # A snapshot's public board (read-only once made) is rendered by every seat's screen:
    # its content is written as a key once, the first time.
    tiles = SharedList([{"name": "Mast", "owner": "Flo"}, {"name": "Sail", "owner": None}])
    assert render("each.html", tiles=tiles) == "<p>Mast of Flo</p><p>Sail</p>"
    keys = tiles.item_keys()
    assert keys == tuple(values_key(t) for t in tiles)
    assert render("each.html", tiles=tiles) == "<p>Mast of Flo</p><p>Sail</p>"
    assert tiles.item_keys() is keys
