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

from games.platform.one_byte import one_byte

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
    # One byte a character, as a Jinja2 partial is (games/platform/one_byte.py): the lobby and
    # a game's Django line templates are pushed too.
    html = compiled.render(Context(context, autoescape=True, use_l10n=False))
    return html if html.isascii() else SafeString(one_byte(html))


def render_plain(template: str, context: dict[str, Any]) -> str:
    """`render_unlocalized`, a Jinja2 template's HTML as the plain string its render joined,
    for a cache to keep as it is (`kept`): not copied to a safe string and back (a board
    game's status is a hundred kilobytes)."""
    found = jinja_template(template)
    if found is None:
        return render_unlocalized(template, context)
    return render_jinja(found, context)


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


class OwnBytes(bytes):
    """Bytes copied to their own size (`own_bytes`). A bounded cache keeps a key of these as
    it is (games/platform/bounded_cache.py's `compact` copies plain bytes alone): a key looked
    up with them is kept with the hash its look-up worked out, where a plain key was copied
    and its kilobytes hashed again to be kept (a partial's, a panel's)."""

    __slots__ = ()


def own_bytes(data: bytes) -> bytes:
    """`data` copied to its own size: orjson's bytes keep the buffer they were written into
    (4 KB and more), and keys are kept by caches that outlive the push. (Made from the bytes
    themselves, a subclass's instance is one copy; from a memoryview, two.)"""
    return OwnBytes(data)


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
        return own_bytes(orjson.dumps(value, default=_as_list, option=_KEY_OPTIONS))
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


def _item_key(item: Any) -> bytes:
    """One item's content as `values_key` writes it (copied to its own size: `own_bytes`).
    An object that names its own
    content for good (`partial_key`, "!" and its name: a log's line) is written as that name,
    which no plain item's JSON begins with; anything else that is not plain data raises
    TypeError."""
    try:
        return own_bytes(orjson.dumps(item, default=_plain, option=_VALUE_OPTIONS))
    except TypeError:
        named = getattr(item, "partial_key", None)
        if type(named) is bytes and named.startswith(b"!"):
            return named
        raise


class SharedList(list):  # type: ignore[type-arg]
    """A list that stays as it is once made, its items too: a part of the board every viewer
    of a snapshot shares (`board_public`'s, games/platform/presenters.py). Each item's content
    is written as a key once (`item_keys`), the first time a partial's key or an
    `include_each` (games/platform/templatetags/shared_includes.py) asks: the same keys give
    the list's digest in a partial's key (games/platform/partial_reads.py), the joined
    whole's key and each item's include, where each was written apart before (a board's
    forty tiles four times a snapshot). `keys` holds other keys of the list, by name.

    `before`: the same part of the previous snapshot. An item listed in both, the very same
    object (a game keeps its unchanged tiles' entries from move to move), takes the key and
    digest written for it there: a move writes only the items it changed (a board's few
    tiles with a token moved or an owner changed, a log's new lines), not all forty. Only
    what `before` had written is taken, and it is let go once this list's keys are written,
    so no list holds its predecessors."""

    __slots__ = ("_before", "_digest", "_digests", "_items", "keys")

    def __init__(self, items: Any = (), before: SharedList | None = None) -> None:
        super().__init__(items)
        self.keys: dict[str, bytes | None] = {}
        self._items: tuple[bytes, ...] | None = _UNREAD
        self._digests: tuple[bytes, ...] | None = None
        self._digest: bytes | None = _UNREAD
        self._before: tuple[tuple[Any, ...], tuple[bytes, ...], tuple[bytes, ...]] | None = (
            before._written() if before is not None else None)

    def _written(self) -> tuple[tuple[Any, ...], tuple[bytes, ...], tuple[bytes, ...]] | None:
        """Its items with their keys and digests, when both are written."""
        if self._items is _UNREAD or self._items is None or self._digests is None:
            return None
        return tuple(self), self._items, self._digests

    def item_keys(self) -> tuple[bytes, ...] | None:
        """Each item's content as `values_key` writes it (or, for an item that names its own
        content, that name: `_item_key`), or None when an item is neither."""
        found = self._items
        if found is _UNREAD:
            before = self._before
            self._before = None
            try:
                if before is None:
                    found = tuple([_item_key(item) for item in self])
                else:
                    # Where each of the previous list's items stood, by identity: it holds
                    # them all, so no id is another object's meanwhile.
                    items, keys, digests = before
                    at = {id(item): i for i, item in enumerate(items)}
                    made: list[bytes] = []
                    taken: list[bytes | None] = []
                    for item in self:
                        i = at.get(id(item))
                        if i is None:
                            made.append(_item_key(item))
                            taken.append(None)
                        else:
                            made.append(keys[i])
                            taken.append(digests[i])
                    found = tuple(made)
                    self._digests = tuple([
                        digest if digest is not None else _item_digest(key)
                        for key, digest in zip(found, taken, strict=True)])
            except TypeError:
                found = None
            self._items = found
        return found

    def digest(self) -> bytes | None:
        """The items' content as a key of fixed length ("!#" and the BLAKE2b digest of
        their keys' own digests, in hex), or None when an item is not plain data. Each
        item's digest is of fixed length: joined, no two lists' read alike. Written from
        the items' digests, not their keys, so that a list whose items were written before
        (`before`) hashes a few hundred bytes, not a board's thirty kilobytes."""
        found = self._digest
        if found is _UNREAD:
            keys = self.item_keys()
            if keys is None:
                found = None
            else:
                digests = self._digests
                if digests is None:
                    digests = self._digests = tuple([_item_digest(key) for key in keys])
                found = b"!#" + hashlib.blake2b(
                    b"items\n" + b"".join(digests), digest_size=32).hexdigest().encode()
            self._digest = found
        return found


def _item_digest(key: bytes) -> bytes:
    return hashlib.blake2b(key, digest_size=32).digest()


def kept(html: str) -> str:
    """`html` as a plain str, for a cache that outlives the push it was made for.

    A SafeString, unlike a str, is an object the garbage collector tracks: the panels, log
    lines and partials a web process keeps were tens of thousands of them, walked by every
    full pass of the collector while every socket of the process waited. Whoever serves a
    kept string into a template marks it safe again (a copy made at once)."""
    return str.__str__(html)
