"""What a push sends: the swaps that turn the screen a socket last sent into the next one.

Every partial's HTML is read as a tree of the elements that carry an `id` (nested: an element
with an id is a child of the nearest enclosing one that has one). A push compares that tree
with the one its socket last sent, element by element, and sends, as htmx out-of-band swaps,
only the smallest elements with an id that changed:

- an element whose HTML is the same is left alone;
- an element whose own markup (everything but its children with ids) is the same and whose
  children with ids are the same ones in the same order: only its changed children go, and
  its new attributes when its start tag alone changed ("attrs", applied by static/js/table.js);
- an element whose children with ids are a list that grew on top (new ones first, the old ones
  after in their order, some dropped off the end; the items follow one another with nothing
  between): its new items are put on top (`afterbegin`), the kept ones compared one by one and
  the dropped ones deleted (a game log);
- any other change: the element is swapped whole, by its id;
- a partial whose top level changed goes whole, as does one whose swaps would weigh as much.

Nothing here knows a game: a game's templates get this by giving ids to what changes on its
own (a tile, a token's square, a player's panel, a log line). Ids are used only when they are
unique on the screen, plain (letters, digits, "-" and "_": htmx looks them up as "#id"), and not
inside a `<template>` (whose content is not in the document). A tree is the HTML it was read
from, byte for byte, so a page that applied the swaps holds what the whole partials would
have made (tests/tables/test_swaps.py checks it with an emulated page).
"""

from __future__ import annotations

import itertools
import os
import re
import sys
import threading
import weakref
from collections import OrderedDict
from typing import Any

from games.platform.bounded_cache import BoundedCache

# The name of the tag a "<" opens.
_TAG_NAME = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)")
_PLAIN_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_TAG_OF: dict[str, re.Pattern[str]] = {}
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


def _tags_named(tag: str) -> re.Pattern[str]:
    found = _TAG_OF.get(tag)
    if found is None:
        found = _TAG_OF[tag] = re.compile(rf"<(/?){re.escape(tag)}(?=[\s/>])")
    return found


class Element:
    """An element with an id (or a partial's top level: id None), by where it sits in its
    tree's HTML: html[start:end] is the element, html[start:open_end] its start tag."""

    __slots__ = ("children", "end", "id", "open_end", "start", "tag")

    def __init__(self, element_id: str | None, tag: str, start: int, open_end: int) -> None:
        self.id = element_id
        self.tag = tag
        self.start = start
        self.open_end = open_end
        self.end = open_end
        self.children: list[Element] = []


class Tree:
    """A partial's HTML and its elements with ids. `ok` is False when the HTML could not be
    read as well-formed elements: such a partial is only ever sent whole.

    `Tree(html)` reads the whole HTML; `Tree(html, after=old)` reads only what changed since
    `old`, the tree of the same partial's previous HTML: each element of `old` found again
    whole (where it was, give or take what changed before it) is taken as it was, one found
    by its id but changed is read again inside, and only what lies between is read anew.
    What it cannot place (an element moved elsewhere, an id now twice) is read whole. The
    tests check that both readings agree (CHECK_TREES)."""

    __slots__ = ("__weakref__", "html", "ids", "ok", "root")

    def __init__(self, html: str, after: Tree | None = None) -> None:
        self.html = html
        self.root = Element(None, "", 0, 0)
        self.root.end = len(html)
        self.ids: frozenset[str] = frozenset()
        if after is not None and after.ok:
            ids = _Ids()
            if _follow(after, after.root, html, self.root, ids):
                kept_ids = after.ids.difference(ids.gone)
                added = frozenset(ids.added)
                if len(added) == len(ids.added) and kept_ids.isdisjoint(added):
                    self.ids = kept_ids | added
                    self.ok = True
                    if CHECK_TREES:
                        _check_tree(self)
                    return
            self.root.children = []
        self.ok = _read(self)


# Set for the tests (tests/conftest.py, inherited by the web processes they start): a tree read
# after another is checked against the whole HTML read afresh.
CHECK_TREES = os.environ.get("CHUDOPOLY_CHECK_TREES") == "1"


def _check_tree(tree: Tree) -> None:
    whole = Tree(tree.html)

    def shape(e: Element) -> tuple[Any, ...]:
        return (e.id, e.tag, e.start, e.open_end, e.end, tuple(map(shape, e.children)))

    assert whole.ok and shape(whole.root) == shape(tree.root) and whole.ids == tree.ids, (
        "a tree read after another differs from the HTML read afresh")


def _read(tree: Tree) -> bool:
    """Fill `tree` from its HTML: each start tag with an id, and where its element ends (the
    end tag that closes as many tags of its name as opened since). False if an element does
    not close, or elements overlap. Ids found more than once are no ids."""
    found = _elements(tree.html, 0, len(tree.html))
    if found is None:
        return False
    ids: list[str] = []
    if not _nest(tree.root, found, ids, count=True):
        return False
    tree.ids = frozenset(ids)
    return True


def _elements(html: str, start: int, end: int) -> list[Element] | None:
    """Every element with an id whose start tag opens between `start` and `end`, in document
    order, or None when one does not close."""
    found: list[Element] = []
    at = html.find(' id="', start, end)
    while at >= 0:
        value = at + 5
        at = html.find(' id="', value, end)
        begin = html.rfind("<", start, value)
        name = _TAG_NAME.match(html, begin) if begin >= 0 else None
        if name is None or html.find(">", begin, value) >= 0:
            continue  # not in a start tag
        quote = html.find('"', value)
        if quote < 0:
            return None
        # Interned: a screen's ids and tag names recur in every tree a table's sockets keep.
        element = _element_at(html, begin, sys.intern(html[value:quote]),
                              sys.intern(name.group(1).lower()),
                              html.find(">", quote))
        if element is None:
            return None
        found.append(element)
    if found and html.find("<template", start, end) >= 0:
        found = _outside_templates(html, start, end, found)
    return found


def _outside_templates(html: str, start: int, end: int, found: list[Element]
                       ) -> list[Element]:
    """`found` less the elements inside a <template>'s content (not in the document)."""
    hidden: list[tuple[int, int]] = []
    at = html.find("<template", start, end)
    while at >= 0:
        element = _element_at(html, at, "", "template", html.find(">", at))
        if element is None:
            break
        hidden.append((element.open_end, element.end))
        at = html.find("<template", element.end, end)
    # Both in document order: one walk through the two lists.
    kept: list[Element] = []
    at = 0
    for e in found:
        while at < len(hidden) and hidden[at][1] <= e.start:
            at += 1
        if at == len(hidden) or e.start < hidden[at][0]:
            kept.append(e)
    return kept


def _element_at(html: str, start: int, element_id: str, tag: str, close: int
                ) -> Element | None:
    """The element whose start tag opens at `start` and closes at `close` (its ">"), to where
    the element ends."""
    if close < 0:
        return None
    element = Element(element_id, tag, start, close + 1)
    if tag in VOID or html[close - 1] == "/":
        return element
    depth = 1
    for t in _tags_named(tag).finditer(html, close + 1):
        depth += -1 if t.group(1) else 1
        if depth == 0:
            element.end = html.find(">", t.end()) + 1
            return element
    return None


def _nest(root: Element, found: list[Element], ids: list[str], *, count: bool) -> bool:
    """Put `found` (in document order) under `root` as they nest; False if they overlap or
    one ends past `root`. An id found twice is no id (with `count`; else the caller
    checks)."""
    shown = [e for e in found if _PLAIN_ID.match(e.id)]  # type: ignore[arg-type]
    counts: dict[str, int] = {}
    if count:
        for e in shown:
            counts[e.id] = counts.get(e.id, 0) + 1  # type: ignore[index]
    parents = [root]
    for e in shown:  # in document order: each is inside the innermost open one, or after it
        if counts.get(e.id, 1) > 1:  # type: ignore[arg-type]
            continue
        while parents[-1] is not root and e.start >= parents[-1].end:
            parents.pop()
        parent = parents[-1]
        if e.end > parent.end:
            return False
        parent.children.append(e)
        parents.append(e)
        ids.append(e.id)  # type: ignore[arg-type]
    return True


def _shifted(e: Element, by: int) -> Element:
    if not by:
        return e
    moved = Element(e.id, e.tag, e.start + by, e.open_end + by)
    moved.end = e.end + by
    moved.children = [_shifted(c, by) for c in e.children]
    return moved


class _Ids:
    """The ids a reading after an old tree added and dropped."""

    __slots__ = ("added", "gone")

    def __init__(self) -> None:
        self.added: list[str] = []
        self.gone: list[str] = []


def _follow(old: Tree, was: Element, html: str, now: Element, ids: _Ids) -> bool:
    """Fill `now`, the element `was` of `old` found again in `html` (its start tag and end
    known), with its children, noting in `ids` the ids added and dropped below it; False when
    they do not fall into place."""
    if was.tag == "template":
        return True  # its content is not in the document
    cursor = now.open_end
    closing = len(was.tag) + 3 if was.id is not None else 0  # its end tag
    limit, old_limit = now.end - closing, was.end - closing
    before = was.open_end
    oh = old.html
    for child in was.children:
        gap = oh[before:child.start]
        at = cursor + len(gap)
        before = child.end
        if html.startswith(oh[child.start:child.end], at) and html.startswith(gap, cursor):
            found: Element | None = _shifted(child, at - child.start)
        else:
            found = _found_again(old, child, html, cursor, (limit, old_limit), ids)
            if found is _GONE:
                ids.gone.append(child.id)  # type: ignore[arg-type]
                _ids_below(child, ids.gone)
                continue
            if found is None or not _read_into(now, html, cursor, found.start, ids.added):
                return False  # something new before it that does not close by then
        now.children.append(found)  # type: ignore[arg-type]
        cursor = found.end  # type: ignore[union-attr]
    return _read_into(now, html, cursor, limit, ids.added)


_GONE = Element(None, "", 0, 0)


def _found_again(old: Tree, child: Element, html: str, cursor: int,
                 limits: tuple[int, int], ids: _Ids) -> Element | None:
    """`child` of `old` in `html` from `cursor`: as it was (moved), read again inside when it
    changed, _GONE when its id is nowhere now, None when it cannot be told. `limits`: where
    its parent's content ends, now and in `old`."""
    limit, old_limit = limits
    at = html.find(f' id="{child.id}"', cursor, limit)
    if at < 0:
        return _GONE if html.find(f' id="{child.id}"') < 0 else None
    start = html.rfind("<", cursor, at)
    if start < 0 or html.find(">", start, at) >= 0 or not html.startswith(
            "<" + child.tag, start):
        return None
    oh = old.html
    if html.startswith(oh[child.start:child.end], start):
        return _shifted(child, start - child.start)
    close = html.find(">", html.find('"', at + 5))
    # When all that follows it in its parent is as it was, it ends where that begins: no
    # need to look for its end tag through all it holds.
    tail = oh[child.end:old_limit]
    end = limit - len(tail)
    end_tag = f"</{child.tag}>"
    if (child.tag not in VOID and close >= 0 and end > close and html.startswith(tail, end)
            and html.startswith(end_tag, end - len(end_tag))):
        element: Element | None = Element(child.id, child.tag, start, close + 1)
        element.end = end  # type: ignore[union-attr]
    else:
        element = _element_at(html, start, child.id, child.tag, close)  # type: ignore[arg-type]
    if element is None or element.end > limit or not _follow(old, child, html, element, ids):
        return None
    return element


def _ids_below(e: Element, ids: list[str]) -> None:
    for c in e.children:
        ids.append(c.id)  # type: ignore[arg-type]
        _ids_below(c, ids)


def _read_into(parent: Element, html: str, start: int, end: int, ids: list[str]) -> bool:
    """Add to `parent` the elements with ids between `start` and `end` of `html`, read
    afresh; False when one does not end by `end`."""
    if start >= end or html.find(' id="', start, end) < 0:
        return True
    found = _elements(html, start, end)
    if found is None:
        return False
    part = Element(None, "", start, start)
    part.end = end
    if not _nest(part, found, ids, count=False):
        return False
    parent.children.extend(part.children)
    return True


class Trees:
    """Trees by their HTML, the most recent MAX_ENTRIES and no more than about MAX_BYTES
    (games/platform/bounded_cache.py), for every socket of the process: a partial rendered
    once for several sockets is read once (the sockets of a table are pushed one after
    another, in one handler)."""

    MAX_ENTRIES = 512
    MAX_BYTES = 2 * 1024 * 1024

    def __init__(self) -> None:
        self._entries: BoundedCache[Tree] = BoundedCache(
            self.MAX_ENTRIES, self.MAX_BYTES, size=lambda html, tree: tree_size(tree))

    def of(self, html: str, after: Tree | None = None) -> Tree:
        """The tree of `html`; read after `after` (the same partial's previous tree) when it
        is not kept already."""
        tree = self._entries.get(html)
        if tree is None:
            tree = Tree(html, after)
            self._entries.put(html, tree)
        return tree


# About what an element with an id costs in a tree (its object, its list of children, its id).
ELEMENT_BYTES = 200


def tree_size(tree: Tree) -> int:
    """About the bytes a tree holds: its HTML and its elements."""
    return len(tree.html) + ELEMENT_BYTES * len(tree.ids)


trees = Trees()


def swaps(old: Tree, new: Tree, elsewhere: tuple[Tree, ...] = ()) -> list[str] | None:
    """The out-of-band swaps that turn what `old` showed into what `new` shows, or None when
    only the whole partial can (or it would be no smaller). `elsewhere` holds the screen's
    other partials: an id found there too is not swapped by. Made once per pair of trees and
    process: sockets that showed the same and show the same again share them."""
    made = _made.get(old, new)
    if made is None:
        out = _Swaps()
        if not old.ok or not new.ok or not _children(old, old.root, new, new.root, out) or (
                sum(map(len, out)) >= len(new.html)):
            made = (None, frozenset())
        else:
            made = (tuple(out), frozenset(out.ids))
        _made.put(old, new, made)
    found, ids = made
    if found is None or any(not ids.isdisjoint(other.ids) for other in elsewhere):
        return None
    return list(found)


# A partial smaller than this goes whole: its swaps would save next to nothing.
SMALL = 400

Made = tuple[tuple[str, ...] | None, frozenset[str]]


class _MadeSwaps:
    """The swaps of the latest pairs of trees, by the trees' identity. An entry refers to its
    trees weakly (an identity is never another tree's while they live): it keeps no tree
    alive that no socket shows any more."""

    # A move's pushes share them (a table's sockets are pushed one after another).
    MAX_ENTRIES = 64

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[int, int],
                                   tuple[weakref.ref[Tree], weakref.ref[Tree], Made]] = (
            OrderedDict())

    def get(self, old: Tree, new: Tree) -> Made | None:
        with self._lock:
            entry = self._entries.get((id(old), id(new)))
        return entry[2] if entry is not None and entry[0]() is old and entry[1]() is new else None

    def put(self, old: Tree, new: Tree, made: Made) -> None:
        with self._lock:
            self._entries[(id(old), id(new))] = (weakref.ref(old), weakref.ref(new), made)
            while len(self._entries) > self.MAX_ENTRIES:
                self._entries.popitem(last=False)


_made = _MadeSwaps()


class _Swaps(list[str]):
    """Swaps being made, and the ids they are made by."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def by(self, element_id: str | None, swap: str) -> None:
        self.ids.add(element_id or "")
        self.append(swap)

    def take(self, other: _Swaps) -> None:
        self.extend(other)
        self.ids |= other.ids


def _element(old: Tree, o: Element, new: Tree, n: Element, out: _Swaps) -> None:
    """The swaps for one element with an id, present before and after."""
    if o.end - o.start == n.end - n.start and new.html.startswith(
            old.html[o.start:o.end], n.start):
        return
    mine = _Swaps()
    if (_children(old, o, new, n, mine)
            and sum(map(len, mine)) < n.end - n.start):
        out.take(mine)
        return
    out.by(n.id, whole(new, n))


def _children(old: Tree, o: Element, new: Tree, n: Element, out: _Swaps) -> bool:
    """Swaps for an element's children alone, when they can say the whole change."""
    oc, nc = o.children, n.children
    if not oc or not nc:
        return False
    same = len(oc) == len(nc) and all(a.id == b.id for a, b in zip(oc, nc, strict=True))
    if same:
        if not _same_between(old, o, new, n):
            return False
        if old.html[o.start:o.open_end] != new.html[n.start:n.open_end]:
            out.by(None, _attributes(new, n))  # its start tag alone changed
        for a, b in zip(oc, nc, strict=True):
            _element(old, a, new, b, out)
        return True
    return _list(old, o, new, n, out)


_ID_OR_SWAP = re.compile(r"""\s(?:id|hx-swap-oob)\s*=\s*(?:"[^"]*"|'[^']*')""")


def _attributes(tree: Tree, element: Element) -> str:
    """A swap that gives an element (by its id) the attributes of its new start tag, and
    leaves what it holds alone ("attrs", static/js/table.js): one that carries no id, so that
    nothing takes it for the element itself."""
    start_tag = tree.html[element.start + 1 + len(element.tag):element.open_end - 1]
    attributes = _ID_OR_SWAP.sub("", start_tag)
    return (f'<{element.tag} hx-swap-oob="attrs:#{element.id}"{attributes}>'
            f"</{element.tag}>")


def _same_between(old: Tree, o: Element, new: Tree, n: Element) -> bool:
    """Whether what lies around and between the children (the element's own markup, but
    for its start tag when it has an id: see _attributes) is the same before and after."""
    oh, nh = old.html, new.html
    oc, nc = o.children, n.children
    if o.id is None or o.tag != n.tag:
        if oh[o.start:oc[0].start] != nh[n.start:nc[0].start]:
            return False
    elif oh[o.open_end:oc[0].start] != nh[n.open_end:nc[0].start]:
        return False
    if oh[oc[-1].end:o.end] != nh[nc[-1].end:n.end]:
        return False
    return all(oh[a.end:b.start] == nh[c.end:d.start]
               for a, b, c, d in zip(oc, oc[1:], nc, nc[1:], strict=False))


def _list(old: Tree, o: Element, new: Tree, n: Element, out: _Swaps) -> bool:
    """A list that grew on top and lost items at its end (see the module's docstring)."""
    if o.id is None:
        return False
    oc, nc = o.children, n.children
    old_ids = [c.id for c in oc]
    new_ids = [c.id for c in nc]
    try:
        added = new_ids.index(old_ids[0])
    except ValueError:
        return False
    kept = len(new_ids) - added
    if (kept > len(old_ids) or new_ids[added:] != old_ids[:kept]
            or not set(new_ids[:added]).isdisjoint(old_ids)):
        return False
    oh, nh = old.html, new.html
    # The items start right after the start tag, follow one another, and what closes the
    # list is the same: prepending and deleting then leave what the new HTML says.
    if (oc[0].start != o.open_end or nc[0].start != n.open_end
            or oh[o.start:o.open_end] != nh[n.start:n.open_end]
            or oh[oc[-1].end:o.end] != nh[nc[-1].end:n.end]
            or any(a.end != b.start for a, b in itertools.pairwise(oc))
            or any(a.end != b.start for a, b in itertools.pairwise(nc))):
        return False
    if added:
        items = nh[nc[0].start:nc[added - 1].end]
        out.by(o.id, f'<{o.tag} hx-swap-oob="afterbegin:#{o.id}">{items}</{o.tag}>')
    for a, b in zip(oc, nc[added:], strict=False):
        _element(old, a, new, b, out)
    for gone in oc[kept:]:
        close = "" if gone.tag in VOID else f"</{gone.tag}>"
        out.by(gone.id, f'<{gone.tag} hx-swap-oob="delete:#{gone.id}">{close}')
    return True


def whole(tree: Tree, element: Element) -> str:
    """An element as a push sends it alone: swapped by its id."""
    html = tree.html[element.start:element.end]
    start_tag = tree.html[element.start:element.open_end]
    if "hx-swap-oob" in start_tag:
        return html
    at = 1 + len(element.tag)
    return f'{html[:at]} hx-swap-oob="true"{html[at:]}'
