"""A table tab's screen as htmx keeps it, for the benches' scripted seats (bench/liveplay.py).

A push is a list of swaps (games/platform/swaps.py writes them): whole partials, and pieces of
them swapped by id (a player's counts, a tile, the plays left), by their start tag's attributes
alone, or by selector (the log's new and aged lines, which the scripted player never reads).
`Page` keeps each partial as a tree of the elements swapped into it so far: the first swap of
an id finds its element in the partial's text and splits it out, and every later swap of that
id (most of a push: the same counts and panels change move after move) replaces its node
without reading the partial again. The text of a partial is joined only when the seat reads
its page. The measuring client plays hundreds of seats in the process that times them, on the
cores the server it measures runs on: splicing each piece into a partial of 25-55 KB, found by
searching it, was most of what it spent on a move. A screen may keep only some partials
(`keep`): a swap into one it does not keep is known by its id and dropped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Iterator, Mapping

# The partials a table page is made of (games/platform/presenters.py render_all + the socket's
# extras; "inspect" is a board game's centre card, "deals" Commonwealth's deal forms).
ROOT_IDS = ("table-version", "lobby", "status", "inspect", "decision", "deals", "hand", "players",
            "log", "chat-log", "chat-form", "frame-error")
ATTRS = "attrs:"  # a swap that gives an element (by id) a new start tag's attributes

# Every search starts from a literal, which str.find and the regex engine find at C speed.
_SWAP = ' hx-swap-oob="'
_TAG_NAME_RE = re.compile(r"<[a-zA-Z][a-zA-Z0-9-]*\Z")
_TAG_START_RE = re.compile(r"<[a-zA-Z][a-zA-Z0-9-]*")
_ID_ATTR_RE = re.compile(r'\sid="([^"]*)"')
_VERSION_RE = re.compile(r'id="table-version"[^>]*\bvalue="(\d+)"')
_DECISION_RE = re.compile(r'id="table-decision"[^>]*\bvalue="([^"]*)"')
_ERROR_RE = re.compile(r'id="frame-error"[^>]*data-code="([a-z_]*)"[^>]*>([^<]*)<')
# Elements with no closing tag (games/platform/swaps.py VOID).
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


def version_in(text: str) -> int | None:
    match = _VERSION_RE.search(text)
    return int(match.group(1)) if match else None


def decision_in(text: str) -> str | None:
    """The decision token a frame carries (the page sends it back with a move)."""
    match = _DECISION_RE.search(text)
    return html.unescape(match.group(1)) if match else None


def error_in(text: str) -> tuple[str, str] | None:
    match = _ERROR_RE.search(text)
    return (match.group(1), html.unescape(match.group(2)).strip()) if match else None


def fragments(frame: str) -> list[tuple[str, str]]:
    """(id, HTML) of each swap in a frame, each up to the next: whole elements (the partials)
    and pieces by their id, ATTRS + id for a swap of a start tag's attributes, "" for one by
    selector. A second swap of one id in a frame is left out (the first counts)."""
    return [(key, text) for key, text, _ in _swaps(frame)]


def _swaps(frame: str) -> list[tuple[str, str, str]]:
    """(id, HTML, how) of each swap in a frame: how it is swapped ("whole" for an element
    with its own swap after its id, as a partial is pushed; "true" for a piece by id; else
    the swap's style, "attrs", "afterbegin", "delete"...; the id "" for a selector that is
    not one id)."""
    starts: list[tuple[int, str, str]] = []
    at = frame.find(_SWAP)
    while at >= 0:
        value_at = at + len(_SWAP)
        value_end = frame.find('"', value_at)
        if value_end < 0:
            break
        start = frame.rfind("<", 0, at)
        if start >= 0:
            value = frame[value_at:value_end]
            key = how = ""
            if value == "true":
                found = _ID_ATTR_RE.search(frame, start, frame.find(">", value_end))
                key = found.group(1) if found else ""
                # First in a piece's start tag (games/platform/swaps.py whole), after a
                # whole partial's id.
                how = "true" if _TAG_NAME_RE.match(frame, start, at) else "whole"
            elif _TAG_NAME_RE.match(frame, start, at):
                how, _, selector = value.partition(":")
                if selector.startswith("#") and " " not in selector:
                    key = selector[1:]
                if how == "attrs":
                    key = ATTRS + key
            starts.append((start, key, how))
        at = frame.find(_SWAP, value_end)
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    ends = [pos for pos, _, _ in starts[1:]] + [len(frame)]
    for (pos, key, how), end in zip(starts, ends, strict=True):
        if how in ("true", "whole", "attrs"):
            if key in seen:
                continue
            seen.add(key)
        out.append((key, frame[pos:end], how))
    return out


# In a node's bits, a child node stands as this mark and its id. The tree is made of strings,
# tuples and dicts of them only, which the collector leaves alone: a tree of objects was
# scanned by every collection of the measuring client, whose pauses count as latency.
_CHILD = "\x00"


class _Texts(Mapping[str, str]):
    """A screen's partials by root id, each joined from its tree when it is read (the log and
    the board change on every move; the scripted player reads neither)."""

    def __init__(self, screen: Screen) -> None:
        self._screen = screen

    def __getitem__(self, name: str) -> str:
        if name not in self._screen._roots:
            raise KeyError(name)
        return self._screen.text(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._screen._roots)

    def __len__(self) -> int:
        return len(self._screen._roots)


class Screen:
    """The partials of one page, kept as trees of the elements swapped into them: each node
    (a partial, or an element split out of it on its first swap) is its HTML as a tuple of
    texts, with its children split out since standing as _CHILD + their id."""

    def __init__(self, partials: Mapping[str, str] | None = None, *,
                 keep: Collection[str] | None = None, follow: str = "") -> None:
        """`keep`: the partials kept (None: every one). Of the others only the ids are kept,
        so that a swap into one of them is known at once and dropped, and whether the last
        text that came for each of them held `follow` (`dropped_holding`)."""
        self._keep = None if keep is None else frozenset(keep)
        self._follow = follow
        self._roots: dict[str, None] = {}  # the partials' ids, in the order they came
        self._bits: dict[str, tuple[str, ...]] = {}  # a node's id -> its bits
        self._parent: dict[str, str] = {}  # an element's id -> the node holding it
        self._root_of: dict[str, str] = {}  # a node's id -> the partial it stands in
        self._where: dict[str, str] = {}  # an id -> the partial that held it last
        self._texts: dict[str, str] = {}  # each partial's text, as last joined
        self._elsewhere: dict[str, str] = {}  # an id -> the partial not kept that holds it
        self._holding: set[str] = set()  # the partials not kept whose text held `follow`
        for name, text in (partials or {}).items():
            self._new_root(name, text)
            self._texts[name] = text
        self.partials = _Texts(self)

    def dropped_holding(self, name: str) -> bool:
        """Whether partial `name`, not kept, holds `follow` as far as its swaps tell: its
        last whole text did, or a piece swapped into it since did (a piece without it may
        have replaced the element that held it: a page whose `follow` stays once shown, a
        game's result, reads true)."""
        return name in self._holding

    def _drop(self, name: str, text: str, *, whole: bool) -> None:
        """A partial not kept (`whole`), or a piece swapped into one: only its ids are kept,
        as standing in that partial."""
        for found in _ID_ATTR_RE.finditer(text):
            self._elsewhere[found.group(1)] = name
        if self._follow:
            if self._follow in text:
                self._holding.add(name)
            elif whole:
                self._holding.discard(name)

    def _new_root(self, name: str, text: str) -> None:
        if name in self._bits:
            self._forget_inside(name)
        self._roots[name] = None
        self._bits[name] = (text,)
        self._root_of[name] = name
        self._parent.pop(name, None)
        self._texts.pop(name, None)

    def text(self, name: str) -> str:
        """A partial's HTML; the same string object while it does not change."""
        text = self._texts.get(name)
        if text is None:
            text = self._texts[name] = self._join(name)
        return text

    def _join(self, key: str) -> str:
        return "".join(self._join(b[1:]) if b[:1] == _CHILD else b
                       for b in self._bits.get(key, ()))

    def _changed(self, key: str) -> None:
        self._texts.pop(self._root_of[key], None)

    def apply(self, frame: str) -> None:
        """One pushed frame, applied as htmx applies it: a whole element (a partial, the
        version's inputs) replaces its own, a piece swapped by id replaces that element
        wherever a partial holds it, an attributes swap gives it a new start tag, a list's
        new items go first in it and its aged ones are deleted. A selector that is not one id
        is left out (the server sends none)."""
        for key, fragment, how in _swaps(frame):
            if how == "whole" or key in ROOT_IDS:
                if self._keep is None or key in self._keep:
                    self._new_root(key, fragment)
                else:
                    self._drop(key, fragment, whole=True)
                continue
            target = key[len(ATTRS):] if how == "attrs" else key
            if not target:
                continue
            elsewhere = self._elsewhere.get(target) if target not in self._bits else None
            if elsewhere is not None:
                if how in ("true", "afterbegin"):
                    self._drop(elsewhere, fragment, whole=False)
            elif how == "true":
                self._swap(key, fragment.strip().replace(_SWAP + 'true"', "", 1))
            elif how == "attrs":
                self._set_attributes(target, fragment)
            elif how == "afterbegin":
                self._prepend(key, fragment)
            elif how == "delete":
                self._delete(key)

    def _node(self, key: str) -> bool:
        """Whether the element with id `key` is on the page, as a node of its own (split out
        on its first swap)."""
        return key in self._bits or self._split(key)

    def _swap(self, key: str, piece: str) -> None:
        if not self._node(key):
            return  # not on this page
        self._forget_inside(key)
        self._bits[key] = (piece,)
        self._changed(key)

    def _delete(self, key: str) -> None:
        if not self._node(key):
            return
        self._forget_inside(key)
        self._changed(key)
        parent = self._parent.pop(key, None)
        if parent is None:  # a partial: it stays, empty
            self._bits[key] = ()
            return
        mark = _CHILD + key
        self._bits[parent] = tuple(b for b in self._bits[parent] if b != mark)
        del self._bits[key], self._root_of[key]

    def _prepend(self, key: str, fragment: str) -> None:
        """The children of the swap's element, first in the element with id `key`: each of
        them with an id a node of its own at once (a log line is swapped and deleted by its
        id later)."""
        if not self._node(key):
            return
        fragment = fragment.rstrip()
        inner = fragment[fragment.find(">") + 1:fragment.rfind("</")]
        head, *rest = self._bits[key]  # a node's text starts with its start tag
        opened = head.find(">") + 1
        self._bits[key] = (head[:opened], *self._children(inner, key), head[opened:], *rest)
        self._changed(key)

    def _children(self, text: str, parent: str) -> list[str]:
        """`text` (elements one after another) with each element that has an id a node."""
        out: list[str] = []
        at = 0
        root = self._root_of[parent]
        while (start := text.find("<", at)) >= 0:
            tag = _TAG_START_RE.match(text, start)
            if tag is None:
                break
            found = _ID_ATTR_RE.search(text, start, text.find(">", start))
            _, end = _element_end([text], 0, start, tag.group()[1:])
            if found is None or found.group(1) in self._bits:
                out.append(text[at:end])
            else:
                child = found.group(1)
                out += [text[at:start], _CHILD + child]
                self._bits[child] = (text[start:end],)
                self._parent[child] = parent
                self._root_of[child] = root
            at = end
        out.append(text[at:])
        return out

    def _set_attributes(self, key: str, fragment: str) -> None:
        """Give the element with id `key` the attributes of the swap's start tag, keeping its
        id and what it holds (games/platform/swaps.py, applied by static/js/table.js)."""
        if not self._node(key):
            return
        swap = fragment.find(_SWAP)
        value_end = fragment.find('"', swap + len(_SWAP))
        attributes = fragment[value_end + 1:fragment.find(">", value_end)]
        text, *rest = self._bits[key]  # a node's text starts with its start tag
        tag = _TAG_START_RE.match(text)
        end = text.find(">")
        if tag is None or end < 0:
            return
        closing = "/" if text[end - 1] == "/" else ""
        self._bits[key] = (f'{text[:tag.end()]} id="{key}"{attributes.rstrip("/")}'
                           f'{closing}>{text[end + 1:]}', *rest)
        self._changed(key)

    def _find(self, key: str) -> tuple[str, int, int] | None:
        """Where the start tag of the element with id `key` stands in a partial's text: the
        node holding that text, the text's place among its bits, and the tag's start. The
        partial that held the id last is searched first (an element rarely moves)."""
        needle = f'id="{key}"'
        hint = self._where.get(key)
        names = ([hint] if hint in self._roots else []) + [n for n in self._roots if n != hint]
        for name in names:
            stack = [name]
            while stack:
                node = stack.pop()
                for index, bit in enumerate(self._bits.get(node, ())):
                    if bit[:1] == _CHILD:
                        stack.append(bit[1:])
                        continue
                    at = bit.find(needle)
                    while at > 0 and not bit[at - 1].isspace():  # "data-id=" is no id
                        at = bit.find(needle, at + 1)
                    if at > 0:
                        self._where[key] = name
                        return node, index, bit.rfind("<", 0, at)
        return None

    def _split(self, key: str) -> bool:
        """Split the element with id `key` out of the text around it, as a node of its own."""
        found = self._find(key)
        if found is None:
            return False
        holder, first, start = found
        bits = list(self._bits[holder])
        text = bits[first]
        tag = _TAG_START_RE.match(text, start)
        if tag is None:
            return False
        last, end = _element_end(bits, first, start, tag.group()[1:])
        ending = bits[last]
        if last == first:
            inside = (text[start:end],)
        else:
            inside = (text[start:], *bits[first + 1:last], ending[:end])
            for bit in inside:
                if bit[:1] == _CHILD:
                    self._parent[bit[1:]] = key
        self._bits[key] = inside
        self._parent[key] = holder
        self._root_of[key] = self._root_of[holder]
        self._bits[holder] = (*bits[:first], text[:start], _CHILD + key, ending[end:],
                              *bits[last + 1:])
        return True

    def _forget_inside(self, key: str) -> None:
        """The elements split out of node `key` are gone with what it held."""
        for bit in self._bits.get(key, ()):
            if bit[:1] == _CHILD:
                child = bit[1:]
                self._forget_inside(child)
                self._bits.pop(child, None)
                self._parent.pop(child, None)
                self._root_of.pop(child, None)


def _element_end(bits: list[str], first: int, start: int, tag: str) -> tuple[int, int]:
    """Where the element whose start tag begins at `start` of bits[first] ends: the bit
    holding its closing tag and the place right after it (nested elements of its name
    counted; the children between are whole elements). Unclosed, it runs to the end."""
    if tag in VOID:
        text = bits[first]
        return first, text.find(">", start) + 1 or len(text)
    opening, closing = f"<{tag}", f"</{tag}>"
    depth = 0
    at = start
    for index in range(first, len(bits)):
        text = bits[index]
        if text[:1] == _CHILD:
            continue
        while True:
            close = text.find(closing, at)
            nested = text.find(opening, at, len(text) if close < 0 else close)
            # "<span" opens a span, "<spanx" does not.
            while nested >= 0 and text[nested + len(opening):nested + len(opening) + 1] not in (
                    " ", "\t", "\n", "\r", "/", ">"):
                nested = text.find(opening, nested + 1, len(text) if close < 0 else close)
            if nested >= 0:
                depth += 1
                at = nested + len(opening)
            elif close >= 0:
                depth -= 1
                at = close + len(closing)
                if depth == 0:
                    return index, at
            else:
                break
        at = 0
    if bits[-1][:1] == _CHILD:
        bits.append("")
    return len(bits) - 1, len(bits[-1])
