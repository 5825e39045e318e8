"""`{% include "x.html" with a=… only %}`, rendered once per distinct values and process.

An include with `only` sees nothing but the values it is given, so what it prints is a
function of those values: this library (a builtin of the site's Django templates, so every
`include` tag is this one) keeps each such render by its template and its values' content,
and serves it again to whichever seat, table or push asks for the same. A board's tile
cards, a tile, a space: most are the same for every viewer and from one move to the next.

An include is rendered as Django renders it, and not kept, when it has no `only`, when a
value is not plain data (dicts, lists, strings, numbers, booleans, None, dates; safe HTML
keys apart from the same text unescaped) or when its template holds a tag whose output is
not a function of its values (the time, a CSRF token, a cycle or ifchanged kept across
renders), and with DEBUG (a template may change under a running process).

`{% include_each "x.html" items "name" %}` is a loop of such includes, one per item of
`items` (`{% include "x.html" with name=item only %}` each, joined): a board's forty tiles
looked up in one tag, without a template loop's and an include node's work per tile. The
joined whole is kept too, by the template and the list's content: when every viewer's list
reads alike (a board whose tiles carry nothing of the viewer: "you" is marked by the page's
CSS from seat numbers, static/css/site.css), the first socket of a move renders it and the
others of the process are served it for one key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import template
from django.template.base import Node, Parser, Token
from django.template.context import Context
from django.template.defaulttags import (
    CsrfTokenNode,
    CycleNode,
    DebugNode,
    IfChangedNode,
    LoremNode,
    NowNode,
)
from django.template.loader_tags import IncludeNode, do_include
from django.utils.safestring import SafeString

from games.platform.bounded_cache import BoundedCache
from games.platform.rendering import SharedList, kept, values_key

register = template.Library()

_IMPURE = (NowNode, CsrfTokenNode, CycleNode, IfChangedNode, DebugNode, LoremNode)
class SharedRenders:
    """Renders by (template, context flags, values), the most recent MAX_ENTRIES, and no
    more than about MAX_BYTES of keys and HTML (games/platform/bounded_cache.py): a key holds
    its values' whole content."""

    MAX_ENTRIES = 8192
    MAX_BYTES = 4 * 1024 * 1024

    def __init__(self) -> None:
        self._entries: BoundedCache[str] = BoundedCache(self.MAX_ENTRIES, self.MAX_BYTES)

    def get(self, key: tuple[Any, ...]) -> str | None:
        return self._entries.get(key)

    def clear(self) -> None:
        self._entries.clear()

    def put(self, key: tuple[Any, ...], html: str) -> None:
        self._entries.put(key, kept(html))


shared_renders = SharedRenders()


class WholeRenders(SharedRenders):
    """`include_each`'s joined renders: a board's forty tiles are tens of kilobytes, and only
    the latest move's are asked for again (by the move's other sockets, within moments), so
    few are kept."""

    MAX_ENTRIES = 128


whole_renders = WholeRenders()
_PURE: dict[str, bool] = {}


def _pure(name: str, context: Context) -> bool:
    """Whether the template `name` prints only what its values say (see the docstring)."""
    found = _PURE.get(name)
    if found is None:
        loaded = context.template.engine.get_template(name)
        found = _PURE[name] = not any(loaded.nodelist.get_nodes_by_type(node_type)
                                      for node_type in _IMPURE) and all(
            isinstance(name_of(node), str) and _pure(name_of(node), context)
            for node in loaded.nodelist.get_nodes_by_type(IncludeNode))
    return found


def name_of(node: IncludeNode) -> Any:
    """An include's template name when it is written out ("x.html"), else None."""
    var = node.template.var
    return var if isinstance(var, str) else None


class SharedIncludeNode(IncludeNode):
    def render(self, context: Context) -> str:
        name = name_of(self)
        # With DEBUG a template may change under a running process: nothing is kept.
        if (not self.isolated_context or name is None or context.template.engine.debug
                or not _pure(name, context)):
            return super().render(context)
        values = {key: var.resolve(context) for key, var in self.extra_context.items()}
        return SafeString(include_kept(
            (name, context.autoescape, context.use_l10n, context.use_tz), values,
            lambda: super(SharedIncludeNode, self).render(context)))


def include_kept(flags: tuple[Any, ...], values: dict[str, Any],
                 render: Callable[[], str]) -> str:
    """An include with `only` of the template `flags[0]` (then the context's flags), kept by
    its values' content: `render()` when not kept yet, or when a value is not plain data. The
    Django tag and the Jinja2 partials' `include_only` (games/platform/jinja_tags.py) share
    these renders and their keys."""
    content = values_key(values)
    if content is None:
        return render()
    key = (*flags, content)
    html = shared_renders.get(key)
    if html is None:
        html = render()
        shared_renders.put(key, html)
    return html


@register.simple_tag(takes_context=True)
def include_each(context: Context, name: str, items: Any, as_name: str) -> SafeString:
    """`name` rendered with `{as_name: item}` alone for each of `items`, joined; each render
    kept by its template and the item's content, as an include with `only` is."""
    if not items:
        return SafeString("")
    engine = context.template.engine
    loaded: list[Any] = []

    def render(values: dict[str, Any]) -> str:
        if not loaded:
            loaded.append(engine.get_template(name))
        return loaded[0].render(context.new(values))

    return SafeString(each_kept(
        (name, context.autoescape, context.use_l10n, context.use_tz), items, as_name,
        keep=not engine.debug and _pure(name, context), render=render))


def each_kept(flags: tuple[Any, ...], items: Any, as_name: str, *, keep: bool,
              render: Callable[[dict[str, Any]], str], whole: bool = True) -> str:
    """`include_each`'s work for either engine: `render({as_name: item})` for each item,
    joined, each render (and with `keep` and `whole`, the joined whole) kept by `flags` (the
    template's name, then the context's flags) and the content. The Django tag above and the
    Jinja2 partials' `include_each` (games/platform/jinja_tags.py) share these renders and
    keys. Without `whole`, a list that is not shared is not written whole as a key: one
    screen's own list (a hand) changes whenever the partial that lists it does, and that
    partial's key keeps its render already, so its whole would be written and kept for
    nothing; its items are the same from push to push, and are served."""
    if not items:
        return ""
    as_name = str.__str__(as_name)  # a template's literal is safe text, which orjson refuses
    if keep and isinstance(items, SharedList):
        keys = items.item_keys()
        if keys is not None:
            return _each_of_shared(flags, items, as_name, keys, render)
    whole_key = None
    if keep and whole:
        if isinstance(items, SharedList):
            if as_name not in items.keys:
                items.keys[as_name] = values_key({as_name: items})
            whole = items.keys[as_name]
        else:
            whole = values_key({as_name: items})
        if whole is not None:
            whole_key = (*flags, whole)
            html = whole_renders.get(whole_key)
            if html is not None:
                return html
    out: list[str] = []
    for item in items:
        values = {as_name: item}
        content = values_key(values) if keep else None
        key = (*flags, content)
        html = shared_renders.get(key) if content is not None else None
        if html is None:
            html = render(values)
            if content is not None:
                shared_renders.put(key, html)
        out.append(html)
    joined = "".join(out)
    if whole_key is not None:
        whole_renders.put(whole_key, joined)
    return joined


def _each_of_shared(flags: tuple[Any, ...], items: SharedList, as_name: str,
                    keys: tuple[bytes, ...], render: Callable[[dict[str, Any]], str]) -> str:
    """`each_kept` of a SharedList, by its items' keys (written once for the list): the
    whole kept by the list's digest, each item by its key, beside the name it is given.
    (Keys of another length than an include's own: the two never meet.)"""
    whole_key = (*flags, as_name, items.digest())
    html = whole_renders.get(whole_key)
    if html is not None:
        return html
    out: list[str] = []
    for item, content in zip(items, keys, strict=True):
        key = (*flags, as_name, content)
        html = shared_renders.get(key)
        if html is None:
            html = render({as_name: item})
            shared_renders.put(key, html)
        out.append(html)
    joined = "".join(out)
    whole_renders.put(whole_key, joined)
    return joined


@register.tag("include")
def include(parser: Parser, token: Token) -> Node:
    node = do_include(parser, token)
    node.__class__ = SharedIncludeNode
    return node
