"""Pieces of a partial: what a push sends instead of the whole partial when only some changed.

A game may say how one of its board partials splits into pieces (GameEngine.board_pieces):

- `Elements`: elements that each carry their own id (a player's panel). A push sends the
  changed ones, each with `hx-swap-oob="true"`, and htmx swaps each by its id.
- `NewestFirst`: the items of one list, newest first (the log). Items are never rewritten,
  only added on top, shown shorter as they age, and dropped off the end: a push prepends the
  new ones, swaps the aged ones and deletes the dropped ones, by selector.

Either way the partial's HTML is its pieces with a *frame* around them (everything else). A
socket keeps the `Split` it last sent of a partial; `changes` turns it into the next one
only when the frame is the same, so that the page the swaps leave equals the one the whole
partial would have made. Anything else (another frame, other ids, lines missing between)
gets None, and the caller sends the whole partial.

The first time, pieces are cut out of the partial's own HTML (`split` finds each one in it),
so a push never carries anything the whole partial would not have shown this seat. After that
the partial is not rendered whole at all: a game promises that a split partial's frame
depends only on its pieces' keys, so `reframe` puts the new pieces in the frame last cut
while their keys are the same (most moves change one panel and add a log line; rendering the
whole partial to cut it again was most of a push's cost for it). Tests check the promise on
every push (`CHECK_REFRAMED`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

_ROOT_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)")
_HEAD = 64  # the characters of a piece it is searched for by (see _find)


@dataclass(frozen=True)
class Elements:
    """Pieces that are single elements, each keyed by its root's id, in page order."""

    items: Sequence[tuple[str, str]]  # (id, HTML)


@dataclass(frozen=True)
class NewestFirst:
    """The items of one list, newest first, keyed by something the item selector names.

    `list_selector` finds the list element on the page ("#log ol"); `item_selector` one item
    by its key, with "{key}" standing for it ('#log li[data-k="{key}"]')."""

    items: Sequence[tuple[str, str]]  # (key, HTML), newest first
    list_selector: str
    item_selector: str


Pieces = Elements | NewestFirst


@dataclass(frozen=True)
class Split:
    """A partial's HTML cut into its frame and its pieces: frame[0] + html[0] + frame[1] + ...
    + frame[-1] is the partial, byte for byte (a list's frame is what comes before and after
    its items, which follow one another). Plain strs only: a socket keeps it between pushes
    (rendering.kept)."""

    frame: tuple[str, ...]
    keys: tuple[str, ...]
    html: tuple[str, ...]
    list_selector: str | None = None  # a NewestFirst's; None for Elements
    item_selector: str = ""

    def whole(self) -> str:
        """The partial these pieces make in this frame."""
        if self.list_selector is not None:
            return self.frame[0] + "".join(self.html) + self.frame[1]
        parts = [self.frame[0]]
        for piece, after in zip(self.html, self.frame[1:], strict=True):
            parts += (piece, after)
        return "".join(parts)


# Set for the tests (tests/conftest.py, inherited by the web processes they start): a push that
# reframes pieces also renders the partial whole and checks that the two agree (the game's
# promise about its frames, above).
CHECK_REFRAMED = os.environ.get("CHUDOPOLY_CHECK_REFRAMED") == "1"


def split(partial: str, pieces: Pieces) -> Split | None:
    """`partial` cut around `pieces`, or None when they are not in it in their order (the
    partial is then only ever sent whole), or a list has none. Whitespace around a piece
    belongs to the frame."""
    # `strip` and slicing return plain strs even from a SafeString (rendering.kept); keys
    # are the game's plain strs.
    keys = tuple([key for key, _ in pieces.items])
    html = tuple([piece.strip() for _, piece in pieces.items])
    if len(set(keys)) != len(keys) or not all(html):
        return None
    if isinstance(pieces, Elements) and not _ids_in_roots(keys, html):
        return None
    if isinstance(pieces, NewestFirst):
        # The items follow one another (or new ones could not go on top).
        start = _find(partial, html[0], 0) if html else -1
        items = "".join(html)
        at = start + len(items)
        if start < 0 or partial[start:at] != items:
            return None
        return Split(frame=(partial[:start], partial[at:]), keys=keys, html=html,
                     list_selector=pieces.list_selector, item_selector=pieces.item_selector)
    frame: list[str] = []
    at = 0
    for piece in html:
        found = _find(partial, piece, at)
        if found < 0:
            return None
        frame.append(partial[at:found])
        at = found + len(piece)
    frame.append(partial[at:])
    return Split(frame=tuple(frame), keys=keys, html=html)


def reframe(old: Split, pieces: Pieces) -> Split | None:
    """`pieces` in the frame of `old`, the same partial's last split, or None when their keys
    leave the frame in doubt (other panels; a list now empty or listed by other selectors):
    the partial is then rendered whole and split again."""
    keys = tuple([key for key, _ in pieces.items])
    html = tuple([piece.strip() for _, piece in pieces.items])
    if not html or not all(html) or len(set(keys)) != len(keys):
        return None
    if isinstance(pieces, NewestFirst):
        if (old.list_selector != pieces.list_selector
                or old.item_selector != pieces.item_selector):
            return None
        return Split(frame=old.frame, keys=keys, html=html, list_selector=old.list_selector,
                     item_selector=old.item_selector)
    if old.list_selector is not None or keys != old.keys or not _ids_in_roots(keys, html):
        return None
    return Split(frame=old.frame, keys=keys, html=html)


def _ids_in_roots(keys: Sequence[str], html: Sequence[str]) -> bool:
    """Whether each element piece's root carries its key as its id (it is swapped by it)."""
    return all(f' id="{escape(key)}"' in _root_tag(piece)
               for key, piece in zip(keys, html, strict=True))


def _find(partial: str, piece: str, at: int) -> int:
    """Where `piece` starts in `partial` from `at`, or -1. Found by its head, then compared
    whole: `str.find` went through a push's players partial at a fraction of the speed with a
    whole panel (kilobytes) for a needle as with a short one. Compared as a slice, which is
    as narrow as its characters: a partial with one "’" in it is stored two bytes a
    character, and `startswith` compared an ASCII panel with it character by character."""
    head = piece[:_HEAD]
    found = partial.find(head, at)
    while found >= 0 and partial[found:found + len(piece)] != piece:
        found = partial.find(head, found + 1)
    return found


def changes(old: Split, new: Split) -> list[str] | None:
    """The out-of-band swaps that turn what `old` showed into what `new` shows, or None when
    only the whole partial can (or it would be no smaller)."""
    if old.list_selector != new.list_selector or old.item_selector != new.item_selector:
        return None
    swaps = (_element_changes(old, new) if new.list_selector is None
             else _list_changes(old, new))
    whole = sum(map(len, new.frame)) + sum(map(len, new.html))
    return None if swaps is None or sum(map(len, swaps)) >= whole else swaps


def _element_changes(old: Split, new: Split) -> list[str] | None:
    # The same elements in the same frame: swapping the changed ones by id leaves the page
    # as the whole partial would.
    if old.keys != new.keys or old.frame != new.frame:
        return None
    return [with_oob(piece) for was, piece in zip(old.html, new.html, strict=True)
            if was != piece]


def _list_changes(old: Split, new: Split) -> list[str] | None:
    # A list with no items has no split (its place is not known): its first item comes in
    # a whole partial.
    if old.frame != new.frame or new.list_selector is None:
        return None
    if old.keys[0] not in new.keys:
        return None  # every line the page shows is gone: nothing to keep
    added = new.keys.index(old.keys[0])
    staying = len(new.keys) - added
    if (staying > len(old.keys) or new.keys[added:] != old.keys[:staying]
            or not set(new.keys[:added]).isdisjoint(old.keys)):
        return None  # lines missing between, or in another order
    item = new.item_selector
    swaps: list[str] = []
    if added:
        tag = _ROOT_TAG.match(old.frame[0][old.frame[0].rfind("<"):])
        wrapper = tag.group(1) if tag else "div"  # the list's own tag, for the items to parse
        swaps.append(f'<{wrapper} hx-swap-oob="{escape("afterbegin:" + new.list_selector)}">'
                     f'{"".join(new.html[:added])}</{wrapper}>')
    for key, was, piece in zip(old.keys, old.html, new.html[added:], strict=False):
        if was != piece:  # aged: swapped whole, by its key
            swaps.append(_with_attr(piece, "outerHTML:" + item.format(key=key)))
    for key, was in zip(old.keys[staying:], old.html[staying:], strict=True):
        tag = _ROOT_TAG.match(was)
        name = tag.group(1) if tag else "div"
        swaps.append(f'<{name} hx-swap-oob="{escape("delete:" + item.format(key=key))}"></{name}>')
    return swaps


def with_oob(piece: str) -> str:
    """An element piece as a push sends it alone: swapped by its id."""
    return _with_attr(piece, "true")


def _with_attr(piece: str, swap: str) -> str:
    tag = _ROOT_TAG.match(piece)
    assert tag is not None, piece[:80]
    return f'{piece[:tag.end()]} hx-swap-oob="{escape(swap)}"{piece[tag.end():]}'


def _root_tag(piece: str) -> str:
    return piece[:piece.find(">") + 1]
