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

What a socket keeps of what it sent is no HTML but its `Base`: each element's id and tag, and
digests of its markup, of its start tag and of what lies between its start tag, its children
and its end. The comparisons above need no more of the old screen than whether those are
equal; the swaps are cut from the new HTML alone. A distinct HTML is read once per process
(`trees`, by the HTML itself): the sockets it was rendered for share its tree and its base, and
the swaps from one base to one new tree are made once (`_made`). The digests are Python's
string hash (SipHash, keyed at random per process) combined by the tuple hash, an element's
markup from its start tag, its gaps and its children's: two parts that differ have equal
digests about once in 2**61 comparisons.
"""

from __future__ import annotations

import re
import sys
import threading
import weakref
from array import array
from collections import OrderedDict

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
    tree's HTML: html[start:end] is the element, html[start:open_end] its start tag. `index`:
    its place in its tree's base (document order, the top level 0)."""

    __slots__ = ("children", "end", "id", "index", "open_end", "start", "tag")

    def __init__(self, element_id: str | None, tag: str, start: int, open_end: int) -> None:
        self.id = element_id
        self.tag = tag
        self.start = start
        self.open_end = open_end
        self.end = open_end
        self.index = 0
        self.children: list[Element] = []


class Tree:
    """A partial's HTML, its elements with ids, and its base (what a socket that sent it
    keeps). `ok` is False when the HTML could not be read as well-formed elements: such a
    partial is only ever sent whole."""

    __slots__ = ("__weakref__", "base", "html", "ids", "ok", "root")

    def __init__(self, html: str) -> None:
        self.html = html
        self.root = Element(None, "", 0, 0)
        self.root.end = len(html)
        self.ids: frozenset[str] = frozenset()
        self.ok = _read(self)
        if not self.ok:
            self.root.children = []
        self.base = _base_of(self)


def _read(tree: Tree) -> bool:
    """Fill `tree` from its HTML: each start tag with an id, and where its element ends (the
    end tag that closes as many tags of its name as opened since). False if an element does
    not close, or elements overlap. Ids found more than once are no ids."""
    found = _elements(tree.html, 0, len(tree.html))
    if found is None:
        return False
    ids: list[str] = []
    if not _nest(tree.root, found, ids):
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


def _nest(root: Element, found: list[Element], ids: list[str]) -> bool:
    """Put `found` (in document order) under `root` as they nest; False if they overlap or
    one ends past `root`. An id found twice is no id."""
    shown = [e for e in found if _PLAIN_ID.match(e.id)]  # type: ignore[arg-type]
    counts: dict[str, int] = {}
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


class Shape:
    """A partial's elements with ids, without what they hold: their ids and tags in document
    order (the top level first, id None), where each one's subtree ends in that order
    (`after`), and the ids that count (unique, plain, outside a <template>). One object per
    shape and process (`_shape`): a board's shape is the same from seat to seat and from move
    to move, and every base of it shares it."""

    __slots__ = ("__weakref__", "after", "element_ids", "ids", "ok", "tags")

    def __init__(self, element_ids: tuple[str | None, ...], tags: tuple[str, ...],
                 after: tuple[int, ...], ids: frozenset[str], ok: bool) -> None:
        self.element_ids = element_ids
        self.tags = tags
        self.after = after
        self.ids = ids
        self.ok = ok


_SHAPES: weakref.WeakValueDictionary[int, Shape] = weakref.WeakValueDictionary()


def _shape(element_ids: tuple[str | None, ...], tags: tuple[str, ...],
           after: tuple[int, ...], ids: frozenset[str], ok: bool) -> Shape:
    key = hash((element_ids, tags, after, ok))
    found = _SHAPES.get(key)
    if (found is None or found.element_ids != element_ids or found.tags != tags
            or found.after != after or found.ok != ok):
        found = Shape(element_ids, tags, after, ids, ok)
        _SHAPES[key] = found
    return found


# A base's digests of an element, at 4 * its index: its markup (the element's whole HTML), its
# start tag, what lies between its start tag and its children and between them (0 when
# nothing does: its children run one after another from its start tag), and what follows its
# last child to its end (or all it holds, when it has no children with ids).
MARKUP, START_TAG, BETWEEN, TAIL = range(4)


class Base:
    """What a socket keeps of a partial it sent: its shape and four digests an element
    (`MARKUP` and the rest), about 32 bytes an element and no HTML."""

    __slots__ = ("__weakref__", "digests", "shape")

    def __init__(self, shape: Shape, digests: array[int]) -> None:
        self.shape = shape
        self.digests = digests

    @property
    def ids(self) -> frozenset[str]:
        return self.shape.ids

    @property
    def ok(self) -> bool:
        return self.shape.ok

    @property
    def digest(self) -> int:
        """The digest of the partial's whole HTML."""
        return self.digests[MARKUP]

    def children(self, index: int) -> list[int]:
        after = self.shape.after
        found: list[int] = []
        at, end = index + 1, after[index]
        while at < end:
            found.append(at)
            at = after[at]
        return found


_NO_DIGESTS = (0, 0, 0, 0)


def _base_of(tree: Tree) -> Base:
    """The base of a tree just read (and each element's index in it)."""
    html = tree.html
    element_ids: list[str | None] = []
    tags: list[str] = []
    after: list[int] = []
    digests = array("q")

    def visit(e: Element) -> int:
        index = e.index = len(element_ids)
        element_ids.append(e.id)
        tags.append(e.tag)
        after.append(0)
        digests.extend(_NO_DIGESTS)
        start_tag = hash(html[e.start:e.open_end])
        kids = e.children
        if kids:
            gaps = [html[e.open_end:kids[0].start]]
            marks = [visit(kids[0])]
            for n in range(1, len(kids)):
                gaps.append(html[kids[n - 1].end:kids[n].start])
                marks.append(visit(kids[n]))
            between = (hash(tuple(gaps)) or 1) if any(gaps) else 0
            tail = hash(html[kids[-1].end:e.end])
        else:
            marks, between, tail = [], 0, hash(html[e.open_end:e.end])
        # The markup is its start tag, its gaps and its children's markup, in order: equal
        # digests, equal HTML (but for a clash of hashes).
        markup = hash((start_tag, between, tail, *marks))
        at = 4 * index
        digests[at:at + 4] = array("q", (markup, start_tag, between, tail))
        after[index] = len(element_ids)
        return markup

    visit(tree.root)
    shape = _shape(tuple(element_ids), tuple(tags), tuple(after), tree.ids, tree.ok)
    tree.ids = shape.ids
    return Base(shape, digests)


class Trees:
    """Trees by their HTML, the most recent MAX_ENTRIES and no more than about MAX_BYTES
    (games/platform/bounded_cache.py), for every socket of the process: a partial rendered
    alike for several sockets is read once (the sockets of a table are pushed one after
    another, in one handler). Sockets keep their bases, not the trees: a tree is wanted only
    while a move's pushes are made from it."""

    MAX_ENTRIES = 512
    MAX_BYTES = 2 * 1024 * 1024

    def __init__(self) -> None:
        self._entries: BoundedCache[Tree] = BoundedCache(
            self.MAX_ENTRIES, self.MAX_BYTES, size=lambda html, tree: tree_size(tree))
        self.reads = 0  # trees read, for the tests and the benches

    def of(self, html: str) -> Tree:
        """The tree of `html`, read when it is not kept already."""
        tree = self._entries.get(html)
        if tree is None:
            # A plain str: a SafeString is an object the collector tracks (rendering.kept).
            tree = Tree(html if type(html) is str else str.__str__(html))
            self.reads += 1
            self._entries.put(tree.html, tree)
        return tree


# About what an element with an id costs in a tree (its object, its list of children, its id,
# its digests).
ELEMENT_BYTES = 200


def tree_size(tree: Tree) -> int:
    """About the bytes a tree holds: its HTML and its elements."""
    return len(tree.html) + ELEMENT_BYTES * len(tree.ids)


trees = Trees()


def swaps(old: Base | Tree, new: Tree, elsewhere: tuple[Base | Tree, ...] = ()
          ) -> list[str] | None:
    """The out-of-band swaps that turn what `old` showed into what `new` shows, or None when
    only the whole partial can (or it would be no smaller). `elsewhere` holds the screen's
    other partials: an id found there too is not swapped by. Made once per pair (old base,
    new tree) and process: sockets that showed the same and show the same again share them."""
    if isinstance(old, Tree):
        old = old.base
    made = _made.get(old, new)
    if made is None:
        out = _Swaps()
        if not old.ok or not new.ok or not _children(old, 0, new, new.root, out) or (
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
    """The swaps of the latest pairs (old base, new tree), by their identity. An entry refers
    to both weakly (an identity is never another object's while they live): it keeps alive no
    base that no socket holds any more, nor a tree the reads let go."""

    # A move's pushes share them (a table's sockets are pushed one after another).
    MAX_ENTRIES = 64

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[int, int],
                                   tuple[weakref.ref[Base], weakref.ref[Tree], Made]] = (
            OrderedDict())

    def get(self, old: Base, new: Tree) -> Made | None:
        with self._lock:
            entry = self._entries.get((id(old), id(new)))
        return entry[2] if entry is not None and entry[0]() is old and entry[1]() is new else None

    def put(self, old: Base, new: Tree, made: Made) -> None:
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


def _element(old: Base, o: int, new: Tree, n: Element, out: _Swaps) -> None:
    """The swaps for one element with an id, present before (`o`, its index in `old`) and
    after."""
    if old.digests[4 * o] == new.base.digests[4 * n.index]:
        return
    mine = _Swaps()
    if (_children(old, o, new, n, mine)
            and sum(map(len, mine)) < n.end - n.start):
        out.take(mine)
        return
    out.by(n.id, whole(new, n))


def _children(old: Base, o: int, new: Tree, n: Element, out: _Swaps) -> bool:
    """Swaps for an element's children alone, when they can say the whole change."""
    oc, nc = old.children(o), n.children
    if not oc or not nc:
        return False
    old_ids = old.shape.element_ids
    if len(oc) == len(nc) and all(old_ids[a] == b.id for a, b in zip(oc, nc, strict=True)):
        # What lies around and between the children (the element's own markup, but for its
        # start tag when it has an id: see _attributes) must be the same.
        od, nd = old.digests, new.base.digests
        at, to = 4 * o, 4 * n.index
        if od[at + BETWEEN] != nd[to + BETWEEN] or od[at + TAIL] != nd[to + TAIL]:
            return False
        if od[at + START_TAG] != nd[to + START_TAG]:
            if old_ids[o] is None or old.shape.tags[o] != n.tag:
                return False
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


def _list(old: Base, o: int, new: Tree, n: Element, out: _Swaps) -> bool:
    """A list that grew on top and lost items at its end (see the module's docstring)."""
    shape = old.shape
    list_id = shape.element_ids[o]
    if list_id is None:
        return False
    oc, nc = old.children(o), n.children
    old_ids = [shape.element_ids[c] for c in oc]
    new_ids = [c.id for c in nc]
    try:
        added = new_ids.index(old_ids[0])
    except ValueError:
        return False
    kept = len(new_ids) - added
    if (kept > len(old_ids) or new_ids[added:] != old_ids[:kept]
            or not set(new_ids[:added]).isdisjoint(old_ids)):
        return False
    # The items start right after the start tag, follow one another, and what closes the
    # list is the same: prepending and deleting then leave what the new HTML says.
    od, nd = old.digests, new.base.digests
    at, to = 4 * o, 4 * n.index
    if (od[at + BETWEEN] or nd[to + BETWEEN] or od[at + START_TAG] != nd[to + START_TAG]
            or od[at + TAIL] != nd[to + TAIL]):
        return False
    if added:
        items = new.html[nc[0].start:nc[added - 1].end]
        out.by(list_id, f'<{n.tag} hx-swap-oob="afterbegin:#{list_id}">{items}</{n.tag}>')
    for a, b in zip(oc, nc[added:], strict=False):
        _element(old, a, new, b, out)
    for gone in oc[kept:]:
        tag, gone_id = shape.tags[gone], shape.element_ids[gone]
        close = "" if tag in VOID else f"</{tag}>"
        out.by(gone_id, f'<{tag} hx-swap-oob="delete:#{gone_id}">{close}')
    return True


def whole(tree: Tree, element: Element) -> str:
    """An element as a push sends it alone: swapped by its id."""
    html = tree.html[element.start:element.end]
    start_tag = tree.html[element.start:element.open_end]
    if "hx-swap-oob" in start_tag:
        return html
    at = 1 + len(element.tag)
    return f'{html[:at]} hx-swap-oob="true"{html[at:]}'
