"""Rendering a template to HTML on the hot path of a push."""

from __future__ import annotations

import datetime
import hashlib
import weakref
from typing import Any

import jinja2
import orjson
from django.core.signals import setting_changed
from django.template import Context
from django.template.backends.jinja2 import Jinja2
from django.template.backends.jinja2 import Template as JinjaTemplate
from django.template.loader import get_template
from django.utils.safestring import SafeData, SafeString

# Which Jinja2 engine holds a template, by name: Django's loader would first look for it among
# the Django templates on every render, and that miss costs more than a small partial's render.
_JINJA_ENGINE: dict[str, Jinja2 | None] = {}

# Settings that make Django build its template engines anew (django.test.signals).
ENGINE_SETTINGS = frozenset({"TEMPLATES", "DEBUG", "INSTALLED_APPS"})


def _forget_engines(*, setting: str, **kwargs: Any) -> None:
    """Django made its engines anew: an engine kept here by name would be the old one (say, one
    made while a test had DEBUG on, reloading its templates for the rest of the run)."""
    if setting in ENGINE_SETTINGS:
        _JINJA_ENGINE.clear()


setting_changed.connect(_forget_engines)


def render_unlocalized(template: str, context: dict[str, Any]) -> str:
    """`template` rendered with number localization off. The site prints plain integers either
    way (no thousand separators), but the localizing path sends each of the hundreds of numbers
    on a board through Django's number formatter, a tenth of a push's time.

    A Jinja2 template (a game's hot board partials, games/platform/jinja.py) prints numbers
    unlocalized already; it renders straight from the dict, without Django's request and
    context processors, as the Django ones do here. Its HTML is marked safe, as Django's is,
    for the page that prints it ({{ parts.hand }} in templates/games/table.html): made a
    SafeString directly, as the hot paths here do, since `mark_safe`'s lazy-string wrapper
    looks through its arguments on every call."""
    engine = _JINJA_ENGINE.get(template)
    if engine is not None:
        # The environment keeps the compiled template (and reloads it when DEBUG's
        # auto_reload sees the file change).
        return SafeString(render_jinja(engine.env.get_template(template), context))
    found = get_template(template)
    if isinstance(found, JinjaTemplate):
        _JINJA_ENGINE[template] = found.backend
        return SafeString(render_jinja(found.template, context))
    compiled = found.template  # type: ignore[attr-defined]
    return compiled.render(Context(context, autoescape=True, use_l10n=False))


def jinja_template(template: str) -> jinja2.Template | None:
    """The compiled Jinja2 template of that name, or None for a Django template."""
    engine = _JINJA_ENGINE.get(template)
    if engine is not None:
        return engine.env.get_template(template)
    found = get_template(template)
    if isinstance(found, JinjaTemplate):
        _JINJA_ENGINE[template] = found.backend
        return found.template
    return None


# Each Jinja2 template's globals as one plain dict, made once per template object.
_FLAT_GLOBALS: weakref.WeakKeyDictionary[jinja2.Template, dict[str, Any]] = (
    weakref.WeakKeyDictionary())


def render_jinja(template: jinja2.Template, context: dict[str, Any]) -> str:
    """What `Template.render` does, with the globals merged from a dict made once: `render`
    flattens the template's globals (a ChainMap over the environment's) into every context,
    twice, about a twentieth of a small partial's render."""
    env = template.environment
    flat = _FLAT_GLOBALS.get(template)
    if flat is None:
        flat = _FLAT_GLOBALS[template] = dict(template.globals)
    ctx = env.context_class(env, {**flat, **context}, template.name, template.blocks)
    try:
        return env.concat(template.root_render_func(ctx))  # type: ignore[attr-defined]
    except Exception:
        env.handle_exception()
        raise  # handle_exception always raises; this tells the type checker


# What orjson would write alike though a template may print it apart is refused, and keyed by
# `repr` instead: a datetime and its ISO text, a str, int or dict subclass and its plain value
# (safe HTML and text), a dataclass and its fields as a dict. (A dict with keys that are not
# strings is refused without an option. A float NaN would key as None: no partial shows one.)
_KEY_OPTIONS = (orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
                | orjson.OPT_PASSTHROUGH_DATACLASS)


def _as_list(value: Any) -> list[Any]:
    """A list subclass that prints as a list (a shared view's banks and zones, which carry
    their card ids beside) keys as the list; anything else is refused."""
    if isinstance(value, list) and type(value).__repr__ is list.__repr__:
        return list(value)
    raise TypeError


def content_key(value: Any) -> bytes | str:
    """`value` (plain data: dicts, lists, strings, numbers, booleans, None) as a key that two
    values share only if a template prints them alike: 1, True and "1" differ, as do a dict's
    keys in another order. orjson writes it in a sixth to a third of `repr`'s time (the keys
    of a push's partials and panels); what it refuses goes by `repr`. A tuple keys as the list
    of its items, which no partial prints apart."""
    try:
        # Copied to its own size: orjson's bytes keep the buffer they were written into (4 KB
        # and more), and keys are kept by caches that outlive the push.
        return bytes(memoryview(orjson.dumps(value, default=_as_list, option=_KEY_OPTIONS)))
    except TypeError:
        return repr(value)


# What values_key writes a value with: what orjson would write alike though a template
# prints it apart goes to `_plain`.
_VALUE_OPTIONS = (orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
                  | orjson.OPT_PASSTHROUGH_DATACLASS)


def _plain(value: Any) -> Any:
    """What orjson cannot write alike for values a template prints apart, told apart."""
    if isinstance(value, SafeData) and isinstance(value, str):
        return {"\x00safe": str.__str__(value)}
    if isinstance(value, list) and type(value).__repr__ is list.__repr__:
        return list(value)
    if isinstance(value, range):
        return {"\x00range": [value.start, value.stop, value.step]}
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return {"\x00" + type(value).__name__: value.isoformat()}
    raise TypeError


def values_key(values: Any) -> bytes | None:
    """The values' content as a key (an include's values, templatetags/shared_includes.py),
    or None when one is not plain data."""
    try:
        return orjson.dumps(values, default=_plain, option=_VALUE_OPTIONS)
    except TypeError:
        return None


_UNREAD: Any = object()


class SharedList(list):  # type: ignore[type-arg]
    """A list that stays as it is once made: a part of the board every viewer of a snapshot
    shares (`board_public`'s, games/platform/presenters.py). Each item's content is written
    as a key once (`item_keys`), the first time a partial's key or an `include_each`
    (games/platform/templatetags/shared_includes.py) asks: the same keys give the list's
    digest in a partial's key (games/platform/partial_reads.py), the joined whole's key and
    each item's include, where each was written apart before (a board's forty tiles four
    times a snapshot). `keys` holds other keys of the list, by name."""

    __slots__ = ("_digest", "_items", "keys")

    def __init__(self, items: Any = ()) -> None:
        super().__init__(items)
        self.keys: dict[str, bytes | None] = {}
        self._items: tuple[bytes, ...] | None = _UNREAD
        self._digest: bytes | None = _UNREAD

    def item_keys(self) -> tuple[bytes, ...] | None:
        """Each item's content as `values_key` writes it, or None when an item is not plain
        data."""
        found = self._items
        if found is _UNREAD:
            try:
                # Each copied to its own size: orjson's bytes keep the buffer they were
                # written into (4 KB and more).
                found = tuple([bytes(memoryview(orjson.dumps(item, default=_plain,
                                                             option=_VALUE_OPTIONS)))
                               for item in self])
            except TypeError:
                found = None
            self._items = found
        return found

    def digest(self) -> bytes | None:
        """The items' content as a key of fixed length ("!#" and the BLAKE2b digest of
        their keys, in hex), or None when an item is not plain data. Items' keys are JSON,
        which holds no bare line break: joined by one, no two lists' read alike."""
        found = self._digest
        if found is _UNREAD:
            keys = self.item_keys()
            found = None if keys is None else b"!#" + hashlib.blake2b(
                b"items\n" + b"\n".join(keys), digest_size=32).hexdigest().encode()
            self._digest = found
        return found


def kept(html: str) -> str:
    """`html` as a plain str, for a cache that outlives the push it was made for.

    A SafeString, unlike a str, is an object the garbage collector tracks: the panels, log
    lines and partials a web process keeps were tens of thousands of them, walked by every
    full pass of the collector while every socket of the process waited. Whoever serves a
    kept string into a template marks it safe again (a copy made at once)."""
    return str.__str__(html)
