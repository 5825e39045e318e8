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

What a socket keeps of each partial it sent is no HTML but its `Base`: each element's id, tag,
length and place in its parent, and digests of its markup, of its start tag and of what lies
between its start tag, its children and its end. The comparisons above need no more of the
old screen than whether those are equal; the swaps are cut from the new HTML alone. A
distinct HTML is read once per process (`trees`, by the HTML itself): the sockets it was
rendered for share its tree and its base, and the swaps from one base to one new tree are
made once (`_made`).

A new HTML is read after a base (`Tree(html, after=base)`: the one its socket showed, or the
partial's latest when it showed none), not afresh: an element of the base is looked for where
it would sit if what precedes it kept its length, and recognized by its markup's digest, which
is the hash of its HTML; one that is not there is looked for by its id, read again inside when
it changed; only what lies between is read anew. A large element with children (a board, a
partial's top element: `_through`) is not hashed whole: it is found through its children, its
start tag, gaps and tail, and its markup's digest is made of theirs. Most of a partial stays
from move to move, so most of a reading is hashing slices of the new HTML, each about once. A
base needs no HTML for this, so no socket keeps any; while the tree a base was read from is
still kept (`Trees`: a base refers to it weakly), an element is compared with that tree's HTML
byte for byte instead, which is cheaper than hashing it. The tests check every reading after a
base against the HTML read afresh (CHECK_TREES). The digests are Python's string hash
(SipHash, keyed at random per process; gaps combined by the tuple hash): two parts that differ
have equal digests about once in 2**61 comparisons.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from games.platform.bounded_cache import BoundedCache

_PLAIN_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_TAG_OF: dict[str, re.Pattern[str]] = {}
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


def _tags_named(tag: str) -> re.Pattern[str]:
    found = _TAG_OF.get(tag)
    if found is None:
        found = _TAG_OF[tag] = re.compile(rf"<(/?){re.escape(tag)}(?=[\s/>])")
    return found


class Node:
    """An element with an id (or a partial's top level: id None) without its HTML: its id and
    tag, its length (`size`) and its start tag's (`open`), its children with ids at their
    offsets from its start, and the digests of its markup (the whole element's HTML), of its start
    tag, of what lies between its start tag and its children and between them (`between`:
    0 when nothing does), and of what follows its last child to its end (`tail`). The last
    three are 0 for an element without children with ids: it is compared by its markup alone.

    A node holds nothing of where it sits: an element found again as it was in a tree read
    after a base is that base's node itself, so trees of similar HTML (the seats of a move,
    a partial from move to move) share what they hold alike, and what a socket keeps of its
    screen (its partials' top nodes) is mostly shared with the others'."""

    __slots__ = ("between", "id", "kids", "markup", "offsets", "open", "size", "start_tag",
                 "tag", "tail")

    def __init__(self, element_id: str | None, tag: str, size: int, open_size: int,
                 kids: tuple[Node, ...], offsets: tuple[int, ...],
                 digests: tuple[int, int, int, int]) -> None:
        self.id = element_id
        self.tag = tag
        self.size = size
        self.open = open_size
        self.kids = kids
        self.offsets = offsets
        self.markup, self.start_tag, self.between, self.tail = digests


def _node(html: str, element_id: str | None, tag: str, start: int, open_end: int, end: int,
          kids: list[Node], offsets: list[int], markup: int | None = None) -> Node:
    """The node of html[start:end] (its start tag to `open_end`), with children `kids` at
    `offsets` from `start`: its digests from its start tag, its gaps and its children's.
    `markup`: the digest of html[start:end] when the caller has it."""
    if kids:
        start_tag = hash(html[start:open_end])
        # Loops here index their lists: compiled, `zip(..., strict=True)` and `any` are
        # generic calls and iterators, the hottest loops of a reading.
        gaps = []
        filled = False
        at = open_end
        for i in range(len(kids)):
            gap = html[at:start + offsets[i]]
            if gap:
                filled = True
            gaps.append(gap)
            at = start + offsets[i] + kids[i].size
        between = (hash(tuple(gaps)) or 1) if filled else 0
        tail = hash(html[at:end])
    else:
        # Without children with ids, an element is compared by its markup alone: its start
        # tag's, gaps' and tail's digests serve only to compare an element's own markup
        # around its children (_children, _list, _through), so they are not worked out (two
        # slices and two hashes of all it holds, for most of a reading's nodes).
        start_tag = between = tail = 0
    # Its markup's digest is its HTML's own: an element of the next HTML is recognized by
    # it without the old HTML (see _follow_children). A large element with children is
    # recognized through them instead (_through), and its digest is made of its parts'.
    if markup is None:
        if kids and element_id is not None and end - start >= _LARGE:
            markup = _composed(start_tag, between, tail, end - start, kids, offsets)
        else:
            markup = hash(html[start:end])
    return Node(element_id, tag, end - start, open_end - start, tuple(kids), tuple(offsets),
                (markup, start_tag, between, tail))


def _composed(start_tag: int, between: int, tail: int, size: int, kids: list[Node],
              offsets: list[int]) -> int:
    """The markup digest of a large element with children (`_is_composed`): of its start
    tag's, gaps' and tail's digests, its size, and its children's places and markup digests.
    Those say its HTML as its hash does (equal HTML, equal parts; parts that differ, digests
    that differ but about once in 2**61), without hashing tens of kilobytes again: a changed
    board's container and its partial's were hashed whole twice a reading, where it would sit
    and once read, the largest part of a board game's status reading."""
    return hash((start_tag, between, tail, size, tuple(offsets),
                 tuple([kid.markup for kid in kids])))


def _is_composed(node: Node) -> bool:
    """Whether `node`'s markup digest is `_composed` (not its HTML's hash)."""
    return node.size >= _LARGE and node.id is not None and len(node.kids) > 0


def _node_of(html: str, e: Element) -> Node:
    """The node of an element read afresh, and of its children."""
    return _node(html, e.id, e.tag, e.start, e.open_end, e.end,
                 [_node_of(html, c) for c in e.children],
                 [c.start - e.start for c in e.children])


class Element:
    """An element with an id being read, by where it sits in the HTML: html[start:end] is
    the element, html[start:open_end] its start tag."""

    __slots__ = ("children", "end", "id", "open_end", "start", "tag")

    def __init__(self, element_id: str | None, tag: str, start: int, open_end: int) -> None:
        self.id = element_id
        self.tag = tag
        self.start = start
        self.open_end = open_end
        self.end = open_end
        self.children: list[Element] = []


# Compiled (games/platform/speedups.py), a plain Python class all the same: mypyc's classes
# cannot be weakly referred to (_MadeSwaps).
@mypyc_attr(native_class=False)
class Base:
    """What a socket keeps of a partial it sent: its top node (digests, ids and tags, no
    HTML) and its ids. One per tree: the sockets sent the same HTML share it."""

    __slots__ = ("__weakref__", "ids", "ok", "root", "tree")

    def __init__(self, root: Node, ids: frozenset[str], ok: bool) -> None:
        self.root = root
        self.ids = ids
        self.ok = ok
        # Its tree while something else keeps it (the process's trees, `Trees`): the HTML
        # the base was read from, which a reading after it compares with (_Before). Weak: a
        # socket keeps no HTML.
        self.tree: weakref.ref[Tree] | None = None

    def html(self) -> str | None:
        """The HTML this base was read from, while its tree is kept."""
        tree = self.tree() if self.tree is not None else None
        return tree.html if tree is not None else None

    @property
    def digest(self) -> int:
        """The digest of the partial's whole HTML."""
        return self.root.markup


@mypyc_attr(native_class=False)  # as Base
class Tree:
    """A partial's HTML and its elements with ids (`base.root`, the top level). `ok` is False
    when the HTML could not be read as well-formed elements: such a partial is only ever sent
    whole.

    `Tree(html)` reads the whole HTML; `Tree(html, after=base)` reads only what differs from
    `base`, that of like HTML (the same partial, for another seat or at another move): each
    element of `base` found again whole (where it was, give or take what changed before it)
    is taken as it was, its node itself; one found by its id but changed is read again
    inside, and only what lies between is read anew. What it cannot place (an element moved
    elsewhere, an id now twice) is read whole. The tests check that both readings agree
    (CHECK_TREES)."""

    __slots__ = ("__weakref__", "base", "html", "ids", "ok")

    def __init__(self, html: str, after: Base | None = None, digest: int | None = None
                 ) -> None:
        """`digest`: hash(html) when the caller has it (a str keeps its hash: not the
        copy a SafeString is kept as)."""
        self.html = html
        root: Node | None = None
        if after is not None and after.ok:
            ids = _Ids()
            before = after.html()
            if before is not None:
                ids.before = _Before(before)
            root = _follow(after.root, 0, html, 0, 0, len(html), ids, digest)
            if root is not None and not ids.added and not ids.gone:
                self.ids = after.ids  # the same ids: the base's own set, interned already
                self.ok = True
            elif root is not None:
                kept_ids = after.ids.difference(ids.gone)
                added = frozenset(ids.added)
                if len(added) == len(ids.added) and kept_ids.isdisjoint(added):
                    self.ids = _interned(kept_ids | added)
                    self.ok = True
                else:
                    root = None
        if root is None:
            root = self._read(digest)
        self.base = Base(root, self.ids, self.ok)
        self.base.tree = weakref.ref(self)
        if CHECK_TREES and after is not None:
            _check_tree(self)

    def _read(self, digest: int | None = None) -> Node:
        """Read the whole HTML: each start tag with an id, and where its element ends (the
        end tag that closes as many tags of its name as opened since). Not ok if an element
        does not close, or elements overlap. Ids found more than once are no ids."""
        html = self.html
        top = Element(None, "", 0, 0)
        top.end = len(html)
        found = _elements(html, 0, len(html))
        ids: list[str] = []
        self.ok = found is not None and _nest(top, found, ids, count=True)
        if not self.ok:
            top.children = []
            ids = []
        self.ids = _interned(frozenset(ids))
        return _node(html, None, "", 0, 0, len(html), [_node_of(html, c) for c in top.children],
                     [c.start for c in top.children], digest)

    @property
    def root(self) -> Element:
        """The top level and its elements with ids, where each sits in the HTML."""
        return _placed(self.base.root, 0)


def _placed(node: Node, start: int) -> Element:
    """The element of `node`, and its children, where it sits when it starts at `start`."""
    e = Element(node.id, node.tag, start, start + node.open)
    e.end = start + node.size
    e.children = [_placed(k, start + o) for k, o in zip(node.kids, node.offsets, strict=True)]
    return e


# Set for the tests (tests/conftest.py, inherited by the web processes they start): a tree read
# after a base is checked against the whole HTML read afresh.
CHECK_TREES = os.environ.get("CHUDOPOLY_CHECK_TREES") == "1"


def _check_tree(tree: Tree) -> None:
    whole = Tree(tree.html)

    def shape(n: Node) -> tuple[Any, ...]:
        return (n.id, n.tag, n.size, n.open, n.offsets, n.markup, n.start_tag, n.between,
                n.tail, tuple(map(shape, n.kids)))

    assert whole.ok == tree.ok and shape(whole.base.root) == shape(tree.base.root) and (
        whole.ids == tree.ids), "a tree read after a base differs from the HTML read afresh"


# The process's sets of ids, one object per set: a board's ids are the same from seat to seat
# and move to move, and a socket keeps the set of each partial it sent.
_ID_SETS: weakref.WeakValueDictionary[int, frozenset[str]] = weakref.WeakValueDictionary()


def _interned(ids: frozenset[str]) -> frozenset[str]:
    key = hash(ids)
    found = _ID_SETS.get(key)
    if found is None or found != ids:
        _ID_SETS[key] = found = ids
    return found


def _elements(html: str, start: int, end: int) -> list[Element] | None:
    """Every element with an id whose start tag opens between `start` and `end`, in document
    order, or None when one does not close."""
    found: list[Element] = []
    at = html.find(' id="', start, end)
    while at >= 0:
        value = at + 5
        at = html.find(' id="', value, end)
        begin = html.rfind("<", start, value)
        tag = _tag_at(html, begin) if begin >= 0 else ""
        if not tag or html.find(">", begin, value) >= 0:
            continue  # not in a start tag
        quote = html.find('"', value)
        if quote < 0:
            return None
        # Interned: a screen's ids and tag names recur in every tree a table's sockets keep.
        element = _element_at(html, begin, sys.intern(html[value:quote]), tag,
                              html.find(">", quote))
        if element is None:
            return None
        found.append(element)
    if found and html.find("<template", start, end) >= 0:
        found = _outside_templates(html, start, end, found)
    return found


def _tag_at(html: str, at: int) -> str:
    """The name of the tag the "<" at `at` opens (`<[A-Za-z][A-Za-z0-9-]*`), lowercase
    and interned, or "" when none does. Read character by character: compiled, each is a
    C call and an int comparison, where the pattern's `match`, its group and `lower` were
    three generic calls an element read afresh."""
    end = at + 1
    size = len(html)
    while end < size:
        c = ord(html[end])
        if not (97 <= c <= 122 or 65 <= c <= 90 or (end > at + 1 and (48 <= c <= 57 or c == 45))):
            break
        end += 1
    if end == at + 1:
        return ""
    raw = html[at + 1:end]
    tag = _TAGS.get(raw)
    if tag is None:
        tag = sys.intern(raw.lower())
        if len(_TAGS) < 256:  # the templates' few names; nothing else comes this far
            _TAGS[raw] = tag
    return tag


# Tag names as written, each lowercase and interned (_tag_at).
_TAGS: dict[str, str] = {}


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
    end = _end_of(html, tag, close + 1)
    if end < 0:
        return None
    element.end = end
    return element


def _end_of(html: str, tag: str, at: int) -> int:
    """Where the element of `tag` whose start tag ends at `at` ends (past the ">" of the end
    tag that closes as many `<tag` as opened since), or -1 when it does not close. The tags
    are those `_tags_named(tag)` matches, looked for with `str.find`: a regular expression
    tries a match at every "<" of a board's tens of kilobytes, this only where the tag's
    name follows one. `html.find` is called as a method of the str, never through a bound
    method kept in a variable: compiled (speedups.py), the first is a direct C call, the
    second a generic call whose arguments are parsed again at every step."""
    marks = _MARKS.get(tag)
    if marks is None:
        marks = _MARKS[tag] = ("<" + tag, "</" + tag)
    opening, closing = marks
    after = len(opening)  # where the character that must end the name sits, from a match
    dense = _DENSE  # a module's global, looked up once
    if at <= _TOP and len(html) - at >= _FAR:
        # A partial's top element (a board's section, tens of kilobytes): its end tag is most
        # often the last of its name and the name nowhere inside, which one look from the
        # end and one scan for the name tell, where the count below scans it all twice.
        last = html.rfind(closing, at)
        if last >= 0 and html.find(tag, at, last) < 0 and _name_ends(html, last + after + 1):
            return html.find(">", last + after + 1) + 1
    depth = 1
    closed = html.find(closing, at)
    steps = 0
    while closed >= 0:
        steps += 1
        if steps > dense:
            # Many elements of its name inside (a board's forty tiles): the rest in one
            # pass of the pattern, each tag of the name met in order, not two finds a tag.
            return _end_by_pattern(html, tag, at, depth)
        # The start tags before this end tag: looked for no further (a start tag of its
        # name after a small element may be far off, or nowhere).
        opened = html.find(opening, at, closed)
        while opened >= 0:
            if _name_ends(html, opened + after):
                depth += 1
            opened = html.find(opening, opened + after, closed)
        at = closed + after + 1  # past the end tag's name
        if _name_ends(html, at):
            depth -= 1
            if depth == 0:
                return html.find(">", at) + 1
        closed = html.find(closing, at)
    return -1


# The start and end of the tags of a name ("<div", "</div"), made once a name.
_MARKS: dict[str, tuple[str, str]] = {}


def _name_ends(html: str, at: int) -> bool:
    """Whether the character at `at` ends a tag's name there (a space, "/" or ">")."""
    if at >= len(html):
        return False
    ends = html[at]
    return ends == ">" or ends == "/" or ends.isspace()


# An element whose start tag ends this near the start of its HTML and this far from its end
# (a partial's top element) has its end first looked for from the end.
_TOP = 512
_FAR = 8192
# After this many end tags of its name inside, the rest is read with the pattern.
_DENSE = 12


def _end_by_pattern(html: str, tag: str, at: int, depth: int) -> int:
    """`_end_of` from `at`, `depth` elements of `tag` open there."""
    for found in _tags_named(tag).finditer(html, at):
        if found[1]:
            depth -= 1
            if depth == 0:
                return html.find(">", found.end()) + 1
        else:
            depth += 1
    return -1


def _nest(root: Element, found: list[Element], ids: list[str], *, count: bool) -> bool:
    """Put `found` (in document order) under `root` as they nest; False if they overlap or
    one ends past `root`. An id found twice is no id (with `count`; else the caller
    checks)."""
    shown = [e for e in found if _PLAIN_ID.match(e.id)]  # type: ignore[arg-type]
    counts: dict[str, int] = {}
    if count:
        for e in shown:
            counts[e.id] = counts.get(e.id, 0) + 1  # type: ignore[index, arg-type]
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


class _Ids:
    """The ids a reading after a base added and dropped, and the base's HTML when it is
    still kept (`before`)."""

    __slots__ = ("added", "before", "gone")

    def __init__(self) -> None:
        self.added: list[str] = []
        self.gone: list[str] = []
        self.before: _Before | None = None


class _Before:
    """The HTML a base was read from (`html`), to compare an element of the base with the
    new HTML where it is looked for: two copies and a memcmp, where hashing it costs a
    copy and about three instructions a byte (SipHash)."""

    __slots__ = ("html",)

    def __init__(self, html: str) -> None:
        self.html = html

    def unchanged(self, at: int, size: int, here: int, new: str) -> bool:
        """Whether the element of `size` that sat at `at` in the base's HTML is at `here` in
        `new`, byte for byte."""
        return new[here:here + size] == self.html[at:at + size]


def _follow(was: Node, was_at: int, html: str, start: int, open_end: int, end: int,
            ids: _Ids, markup: int | None = None) -> Node | None:
    """The node of html[start:end] (its start tag to `open_end`), the element `was` of the
    other base (where it sat in its HTML: `was_at`) found again, read after `was`; ids added
    and dropped below it noted in `ids`. None when its children do not fall into place.
    `markup`: see _node."""
    kids: list[Node] = []
    offsets: list[int] = []
    if was.tag == "template":  # its content is not in the document
        return _node(html, was.id, was.tag, start, open_end, end, kids, offsets, markup)
    closing = len(was.tag) + 3 if was.id is not None else 0  # its end tag
    limit = end - closing
    added, gone = len(ids.added), len(ids.gone)
    if not _follow_children(was, was_at, html, start, open_end, limit, ids, kids, offsets):
        # What it holds moved about (a line of a table now elsewhere in it): read it afresh,
        # it alone.
        del ids.added[added:], ids.gone[gone:], kids[:], offsets[:]
        _ids_below(was, ids.gone)
        if not _read_into(kids, offsets, html, start, open_end, limit, ids.added):
            return None
    return _node(html, was.id, was.tag, start, open_end, end, kids, offsets, markup)


def _follow_children(was: Node, was_at: int, html: str, start: int, open_end: int,
                     limit: int, ids: _Ids, kids: list[Node], offsets: list[int],
                     to_limit: bool = True) -> bool:
    """Fill `kids` and `offsets` with the children of the element at `start` read after
    `was` (see _follow); False when they do not fall into place. A child is looked for
    where it would be if what lies before it in its parent kept its length, and recognized
    by its markup's digest (a large one with children through them: _through); one found
    before the one it followed (a seat's own panel, first on its screen) is placed all the
    same. What lies between the children is read anew."""
    cursor = open_end
    before = was.open  # where what preceded the child ended in `was`
    # Where each child found sits and its node, in two lists: no tuple, nor int object, a
    # child.
    placed_at: list[int] = []
    placed: list[Node] = []
    in_order = True
    olds = was.kids
    old_offsets = was.offsets
    old = ids.before
    large = _LARGE
    for i in range(len(olds)):
        child = olds[i]
        offset = old_offsets[i]
        here = cursor + offset - before
        size = child.size
        before = offset + size
        end = here + size
        found: Node | None = None
        if size >= large and child.id is not None and len(child.kids) > 0:  # _is_composed
            found = _through(child, was_at + offset, html, here, limit, ids)
        elif end <= limit and (size < large or _tail_there(child, html, end)) and (
                old.unchanged(was_at + offset, child.size, here, html) if old is not None
                else hash(html[here:end]) == child.markup):
            found = child
        if found is None:
            again = _found_again(child, was_at + offset, html, cursor, limit, ids, here)
            if again is None and cursor > open_end:  # elsewhere in its parent
                again = _found_again(child, was_at + offset, html, open_end, limit, ids,
                                     here)
            if again is None:
                return False
            found, here = again
            if found is None:  # gone
                ids.gone.append(child.id)  # type: ignore[arg-type]
                _ids_below(child, ids.gone)
                continue
        if placed_at and here < placed_at[-1]:
            in_order = False
        placed_at.append(here)
        placed.append(found)  # type: ignore[arg-type]
        cursor = here + found.size  # type: ignore[union-attr]
    if not in_order:
        order = sorted(range(len(placed)), key=placed_at.__getitem__)
        placed_at = [placed_at[i] for i in order]
        placed = [placed[i] for i in order]
    cursor = open_end
    for i in range(len(placed)):
        here = placed_at[i]
        found = placed[i]
        if here < cursor:
            return False  # overlapping
        # What lies between (most often a line break, no tag) read anew: False when
        # something new there does not close by the next one.
        if here > cursor and html.find("<", cursor, here) >= 0 and not _read_into(
                kids, offsets, html, start, cursor, here, ids.added):
            return False
        kids.append(found)
        offsets.append(here - start)
        cursor = here + found.size
    # What follows the last child: read to `limit`, or left to the caller (_through).
    return not to_limit or _read_into(kids, offsets, html, start, cursor, limit, ids.added)


# An element this long is hashed where it would sit only when its tail is there first: a
# changed board (tens of kilobytes, every move) is then not hashed in vain.
_LARGE = 2048


def _tail_there(was: Node, html: str, end: int) -> bool:
    """Whether `was`'s tail (what follows its last child to its end) is in `html` just
    before `end`, as it would be were `was` there unchanged, ending at `end`: when it is not,
    neither is `was` (its HTML holds its tail)."""
    if not was.kids:
        return True
    return hash(html[end - was.size + was.offsets[-1] + was.kids[-1].size:end]) == was.tail


# What may follow a tag's name in its start tag.
_NAME_ENDS = frozenset(" \t\n\r\f/>")


def _through(was: Node, was_at: int, html: str, here: int, limit: int, ids: _Ids
             ) -> Node | None:
    """`was`, a large element with children (`_is_composed`), found at `here` through its
    children, or None: its start tag as it was at `here`, its children followed after it
    (_follow_children: each unchanged one hashed where it sits, a changed one read again
    inside), then what lay between them and its tail (holding its end tag) as they were,
    and each changed child opening and closing `was`'s tag alike, so that it ends where its
    tail does, as counting its tag would find. Unchanged throughout, it is `was` itself: no
    slice of its tens of kilobytes is hashed whole, where it would sit or once read, nor
    scanned for its end. Ids added and dropped below it are noted in `ids` only when
    found."""
    tail_size = was.size - was.offsets[-1] - was.kids[-1].size
    open_end = here + was.open
    if open_end > limit or hash(html[here:open_end]) != was.start_tag:
        # Its start tag changed (a seat's panel now its turn's): its id in the start tag
        # at `here`, which ends after it.
        if not html.startswith(was.tag, here + 1):
            return None
        close = html.find(">", here, limit)
        if close < 0 or html[here + 1 + len(was.tag)] not in _NAME_ENDS:
            return None
        at = html.find(f' id="{was.id}"', here, close)
        if at < 0:
            return None
        open_end = html.find(">", html.find('"', at + 5), limit) + 1
        if open_end <= 0:
            return None
    if open_end + tail_size > limit:
        return None
    added, gone = len(ids.added), len(ids.gone)
    kids: list[Node] = []
    offsets: list[int] = []
    if _follow_children(was, was_at, html, here, open_end, limit - tail_size, ids, kids,
                        offsets, to_limit=False) and kids:
        cursor = here + offsets[-1] + kids[-1].size
        end = cursor + tail_size
        if end <= limit and hash(html[end - tail_size:end]) == was.tail:
            node = _node(html, was.id, was.tag, here, open_end, end, kids, offsets)
            if node.between == was.between and _kids_balanced(was, node, html, here):
                return was if node.markup == was.markup else node
        # Not as it was around its children (a line without an id put in, a hand grown):
        # its end counted, its children as followed, and what follows the last one read.
        element = _element_at(html, here, was.id, was.tag, open_end - 1)  # type: ignore[arg-type]
        closing = len(was.tag) + 3
        if element is not None and element.end <= limit and (
                cursor <= element.end - closing) and _read_into(
                kids, offsets, html, here, cursor, element.end - closing, ids.added):
            return _node(html, was.id, was.tag, here, open_end, element.end, kids, offsets)
    del ids.added[added:], ids.gone[gone:]
    return None


def _kids_balanced(was: Node, node: Node, html: str, at: int) -> bool:
    """Whether each child of `node` (at `at`) that is not one of `was`'s opens and closes
    `was`'s tag alike, never closing one it did not open."""
    tag = was.tag
    olds = was.kids
    kept: set[Node] | None = None
    kids = node.kids
    for i in range(len(kids)):
        kid = kids[i]
        offset = node.offsets[i]
        if i < len(olds) and kid is olds[i]:
            continue
        if kid.tag == tag and kid.size > kid.open:
            # Of `was`'s own tag, with an end tag: its end was found by counting that tag
            # (_end_of), or it is made of parts that were (_through), so it opens and closes
            # it alike; one that is its start tag alone ("<div/>") opens one.
            continue
        if kept is None:
            # The nodes themselves: a node is equal to itself alone and hashed by identity,
            # so the set is made in one call, where a set of their id()s boxed each one.
            kept = set(olds)
        if kid in kept:
            continue
        start = at + offset
        end = start + kid.size
        if html.find(tag, start, end) < 0:
            continue  # its name nowhere in it (one scan: neither "<tag" nor "</tag")
        depth = 0
        for found in _tags_named(tag).finditer(html, start, end):
            depth += -1 if found[1] else 1
            if depth < 0:
                return False
        if depth:
            return False
    return True


def _found_again(child: Node, child_at: int, html: str, cursor: int, limit: int, ids: _Ids,
                 tried: int) -> tuple[Node | None, int] | None:
    """`child` of the other base in `html` from `cursor`, and where: as it was (moved), read
    again inside when it changed, (None, -1) when its id is nowhere now, None when it cannot
    be told. `limit`: where its parent's content ends now; `tried`: where it was looked for
    as it was already (not hashed again there: a changed board is tens of kilobytes)."""
    attribute = f' id="{child.id}"'
    at = html.find(attribute, cursor, limit)
    if at < 0:
        # Not between `cursor` and `limit`: looked for before and after them alone.
        if html.find(attribute, 0, cursor + len(attribute) - 1) < 0 and html.find(
                attribute, max(limit - len(attribute) + 1, 0)) < 0:
            return None, -1
        return None
    start = html.rfind("<", cursor, at)
    if start < 0 or html.find(">", start, at) >= 0:
        return None
    if start != tried:
        if _is_composed(child):
            moved = _through(child, child_at, html, start, limit, ids)
            if moved is not None:
                return moved, start
        elif start + child.size <= limit and (
                ids.before.unchanged(child_at, child.size, start, html)
                if ids.before is not None else
                hash(html[start:start + child.size]) == child.markup):
            return child, start
    close = html.find(">", html.find('"', at + 5))
    tag = child.tag
    if html[start + 1:start + 1 + len(tag)] != tag:  # html[start] is "<"
        return _anew(child, html, start, close, limit, ids)
    # Its end is found by counting its tag's start and end tags: that what follows it in its
    # parent is as it was does not say it ends where that begins (markup without an id put
    # right after it may end in the same end tag).
    element = _element_at(html, start, child.id, child.tag, close)  # type: ignore[arg-type]
    if element is None or element.end > limit:
        return None
    node = _follow(child, child_at, html, start, close + 1, element.end, ids)
    return None if node is None else (node, start)


def _anew(child: Node, html: str, start: int, close: int, limit: int, ids: _Ids
          ) -> tuple[Node, int] | None:
    """The element with `child`'s id at `start` (its ">" at `close`), now of another tag (a
    seat's own panel and another's), read afresh."""
    tag = _tag_at(html, start)
    if not tag or close < 0:
        return None
    element = _element_at(html, start, child.id, tag, close)  # type: ignore[arg-type]
    if element is None or element.end > limit:
        return None
    ids.gone.append(child.id)  # type: ignore[arg-type]
    _ids_below(child, ids.gone)
    ids.added.append(child.id)  # type: ignore[arg-type]
    kids: list[Node] = []
    offsets: list[int] = []
    if tag != "template" and not _read_into(kids, offsets, html, start, element.open_end,
                                            element.end, ids.added):
        return None
    return _node(html, child.id, tag, start, element.open_end, element.end, kids,
                 offsets), start


def _ids_below(node: Node, ids: list[str]) -> None:
    for kid in node.kids:
        ids.append(kid.id)  # type: ignore[arg-type]
        _ids_below(kid, ids)


def _read_into(kids: list[Node], offsets: list[int], html: str, parent_start: int,
               start: int, end: int, ids: list[str]) -> bool:
    """Add to `kids` the elements with ids between `start` and `end` of `html`, read
    afresh, at their offsets from `parent_start`; False when one does not end by `end`, or
    a <template> opens or closes there that does not close or open there too (what lies
    around it would be in its content, not in the document)."""
    if start >= end:
        return True
    if html.find("template", start, end) >= 0 and not _templates_close(html, start, end):
        return False
    if html.find(' id="', start, end) < 0:
        return True
    found = _elements(html, start, end)
    if found is None:
        return False
    part = Element(None, "", start, start)
    part.end = end
    if not _nest(part, found, ids, count=False):
        return False
    for e in part.children:
        kids.append(_node_of(html, e))
        offsets.append(e.start - parent_start)
    return True


def _templates_close(html: str, start: int, end: int) -> bool:
    depth = 0
    for tag in _tags_named("template").finditer(html, start, end):
        depth += -1 if tag[1] else 1
        if depth < 0:
            return False
    return depth == 0


class Trees:
    """Trees by their HTML, the most recent MAX_ENTRIES and no more than about MAX_BYTES
    (games/platform/bounded_cache.py), for every socket of the process: a partial rendered
    alike for several sockets is read once (the sockets of a table are pushed one after
    another, in one handler). A new HTML is read after the base of what its socket showed
    (most of a partial's HTML stays from move to move; another seat's of the same move may
    hold the same elements in another order, a seat's own panel first, and cost more), or
    after the latest base of the same partial for a socket that showed none. Sockets keep
    the trees' bases, not the trees."""

    MAX_ENTRIES: ClassVar[int] = 512
    MAX_BYTES: ClassVar[int] = 2 * 1024 * 1024

    def __init__(self) -> None:
        self._entries: BoundedCache[Tree] = BoundedCache(
            self.MAX_ENTRIES, self.MAX_BYTES, size=lambda html, tree: tree_size(tree))
        # By a partial's name: a few dozen in all, and no HTML.
        self._latest: dict[Hashable, Base] = {}
        self.reads = 0  # trees read, for the tests and the benches

    def of(self, html: str, like: tuple[Hashable, ...] = (), after: Base | None = None
           ) -> Tree:
        """The tree of `html`, read when it is not kept already: after `after` (what the
        socket showed: its seat's screen a move before) or, for a socket that showed none,
        after the latest base read for one of `like` (a partial's name)."""
        tree = self._entries.get(html)
        if tree is None:
            for kind in like if after is None else ():
                after = self._latest.get(kind, after)
            # A plain str: a SafeString is an object the collector tracks (rendering.kept).
            tree = Tree(html if type(html) is str else str.__str__(html), after, hash(html))
            self.reads += 1
            self._entries.put(tree.html, tree)
            for kind in like:
                self._latest[kind] = tree.base
        return tree


# About what an element with an id costs in a tree (its node, its digests, its id).
ELEMENT_BYTES = 200


def tree_size(tree: Tree) -> int:
    """About the bytes a tree holds: its HTML and its elements."""
    return len(tree.html) + ELEMENT_BYTES * len(tree.ids)


trees = Trees()


def swaps(old: Base | Tree, new: Tree, screen: dict[str, Base] | None = None,
          apart: tuple[str, ...] = ()) -> list[str] | None:
    """The out-of-band swaps that turn what `old` showed into what `new` shows, or None when
    only the whole partial can (or it would be no smaller). `screen` holds the screen's
    partials by key, all but the ones keyed in `apart` (this partial's own among them): an id
    found in one of them too is not swapped by. Made once per pair (old base, new tree) and
    process: sockets that showed the same and show the same again share them."""
    if isinstance(old, Tree):
        old = old.base
    made = _made.get(old, new)
    if made is None:
        out = _Swaps()
        if not old.ok or not new.ok or not _children(old.root, new.html, new.base.root, 0,
                                                     out) or (
                out.weight() >= len(new.html)):
            made = (None, ())
        else:
            made = (tuple(out.made), tuple(out.ids))
        _made.put(old, new, made)
    found, ids = made
    if found is None:
        return None
    # The few ids swapped by, each looked up in the others' sets: compiled, indexed loops and
    # set lookups, where `isdisjoint` and `any` over a generator were generic calls (about
    # 1.5 % of a move's instructions). The screen is read as it is, keys skipped here, where
    # a tuple of the other partials made by the caller for each partial cost 0.5 %.
    if screen is not None and ids:
        for key, other in screen.items():
            # The keys kept apart compared one by one: `key in apart` on a tuple was a
            # generic containment call for every partial of the screen.
            skip = False
            for j in range(len(apart)):
                if key == apart[j]:
                    skip = True
                    break
            if skip:
                continue
            other_ids = other.ids
            for i in range(len(ids)):
                if ids[i] in other_ids:
                    return None
    return list(found)


# A partial smaller than this goes whole: its swaps would save next to nothing.
SMALL = 400

# The swaps (None: the whole partial goes) and the ids they are made by.
Made = tuple[tuple[str, ...] | None, tuple[str, ...]]


class _MadeSwaps:
    """The swaps of the latest pairs (old base, new tree), by their identity. An entry refers
    to both weakly (an identity is never another object's while they live): it keeps alive no
    base that no socket holds any more, nor a tree the reads let go."""

    # A move's pushes share them (a table's sockets are pushed one after another).
    MAX_ENTRIES: ClassVar[int] = 64

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


class _Swaps:
    """Swaps being made (`made`), and the ids they are made by."""

    __slots__ = ("ids", "made")

    def __init__(self) -> None:
        self.made: list[str] = []
        self.ids: set[str] = set()

    def by(self, element_id: str | None, swap: str) -> None:
        self.ids.add(element_id or "")
        self.made.append(swap)

    def take(self, other: _Swaps) -> None:
        self.made.extend(other.made)
        self.ids |= other.ids

    def weight(self) -> int:
        """The characters of the swaps."""
        return sum(map(len, self.made))


def _element(o: Node, html: str, n: Node, at: int, out: _Swaps) -> None:
    """The swaps for one element with an id, present before (`o`) and after (`n`, at `at` in
    the new `html`)."""
    if o.markup == n.markup:
        return
    mine = _Swaps()
    if _children(o, html, n, at, mine) and mine.weight() < n.size:
        out.take(mine)
        return
    out.by(n.id, whole(html, n, at))


def _children(o: Node, html: str, n: Node, at: int, out: _Swaps) -> bool:
    """Swaps for an element's children alone, when they can say the whole change."""
    oc, nc = o.kids, n.kids
    if not oc or not nc:
        return False
    if len(oc) == len(nc) and [a.id for a in oc] == [b.id for b in nc]:
        # What lies around and between the children (the element's own markup, but for its
        # start tag when it has an id: see _attributes) must be the same.
        if o.between != n.between or o.tail != n.tail:
            return False
        if o.start_tag != n.start_tag:
            if o.id is None or o.tag != n.tag:
                return False
            out.by(None, _attributes(html, n, at))  # its start tag alone changed
        # Indexed (the lengths are equal): compiled, `zip(..., strict=True)` was a generic
        # call and an iterator for every element with children that changed.
        offsets = n.offsets
        for i in range(len(oc)):
            _element(oc[i], html, nc[i], at + offsets[i], out)
        return True
    return _list(o, html, n, at, out)


_ID_OR_SWAP = re.compile(r"""\s(?:id|hx-swap-oob)\s*=\s*(?:"[^"]*"|'[^']*')""")


def _attributes(html: str, n: Node, at: int) -> str:
    """A swap that gives an element (by its id) the attributes of its new start tag, and
    leaves what it holds alone ("attrs", static/js/table.js): one that carries no id, so that
    nothing takes it for the element itself."""
    start_tag = html[at + 1 + len(n.tag):at + n.open - 1]
    attributes = _ID_OR_SWAP.sub("", start_tag)
    return f'<{n.tag} hx-swap-oob="attrs:#{n.id}"{attributes}></{n.tag}>'


def _list(o: Node, html: str, n: Node, at: int, out: _Swaps) -> bool:
    """A list that grew on top and lost items at its end (see the module's docstring)."""
    if o.id is None:
        return False
    oc, nc = o.kids, n.kids
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
    # The items start right after the start tag, follow one another, and what closes the
    # list is the same: prepending and deleting then leave what the new HTML says.
    if o.between or n.between or o.start_tag != n.start_tag or o.tail != n.tail:
        return False
    if added:
        items = html[at + n.offsets[0]:at + n.offsets[added - 1] + nc[added - 1].size]
        out.by(o.id, f'<{n.tag} hx-swap-oob="afterbegin:#{o.id}">{items}</{n.tag}>')
    for a, b, offset in zip(oc, nc[added:], n.offsets[added:], strict=False):
        _element(a, html, b, at + offset, out)
    for gone in oc[kept:]:
        close = "" if gone.tag in VOID else f"</{gone.tag}>"
        out.by(gone.id, f'<{gone.tag} hx-swap-oob="delete:#{gone.id}">{close}')
    return True


def whole(html: str, n: Node, at: int) -> str:
    """An element as a push sends it alone: swapped by its id."""
    element = html[at:at + n.size]
    if "hx-swap-oob" in element[:n.open]:
        return element
    cut = 1 + len(n.tag)
    return f'{element[:cut]} hx-swap-oob="true"{element[cut:]}'
