"""A screen read as its elements with ids, and the swaps from one push's to the next: the page
they leave is the page the whole partial would have made (games/platform/swaps.py)."""

from __future__ import annotations

import itertools
import random
import re
import sys
from collections.abc import Iterator

import pytest
from django.utils.safestring import SafeString
from oob_page import Page, fresh

from games.platform import speedups
from games.platform import swaps as swaps_module
from games.platform.swaps import Element, Tree, Trees, swaps

OOB = ' hx-swap-oob="true"'


def board(*tiles: str, note: str = "turn 1", cls: str = "board") -> str:
    cells = "\n".join(f'<div class="tile" id="tile-{n}"><b>{text}</b></div>'
                      for n, text in enumerate(tiles))
    return (f'<section id="status" class="{cls}"{OOB}>\n<div id="grid">\n{cells}\n</div>\n'
            f'<p id="turn">{note}</p>\n</section>')


def log(*keys: str, peek: int = 2) -> str:
    items = "".join(f'<li data-k="{k}" id="line-{k}"><span>line {k}</span>'
                    + ("<i>card</i>" if n < peek else "") + "</li>"
                    for n, k in enumerate(keys))
    return (f'<section id="log"{OOB}><h2 id="log-heading">Log</h2>'
            f'<ol class="game-log" id="log-lines">{items}</ol></section>')


def pushed(old: str, new: str) -> list[str] | None:
    return swaps(Tree(old), Tree(new))


def applied(old: str, new: str, root: str) -> str:
    page = Page(old)
    found = pushed(old, new)
    page.apply(new if found is None else "\n".join(found))
    return page.element(root)


def test_a_tree_is_the_elements_with_ids_nested_as_in_the_html() -> None:
    tree = Tree(board("Ann", "Ben"))
    assert tree.ok
    (status,) = tree.root.children
    assert status.id == "status"
    assert [c.id for c in status.children] == ["grid", "turn"]
    assert [c.id for c in status.children[0].children] == ["tile-0", "tile-1"]
    tile = status.children[0].children[1]
    assert tree.html[tile.start:tile.end] == '<div class="tile" id="tile-1"><b>Ben</b></div>'


def test_an_unchanged_partial_sends_nothing_and_a_changed_tile_alone_goes() -> None:
    assert pushed(board("Ann", "Ben"), board("Ann", "Ben")) == []
    assert pushed(board("Ann", "Ben"), board("Ann", "Cat")) == [
        f'<div{OOB} class="tile" id="tile-1"><b>Cat</b></div>']
    assert applied(board("Ann", "Ben"), board("Ann", "Cat"), "status") == fresh(
        board("Ann", "Cat"), "status")


def test_an_element_whose_start_tag_alone_changed_gets_its_attributes_and_its_changes() -> None:
    old, new = board("Ann", "Ben"), board("Ann", "Cat", cls="board my-turn")
    assert pushed(old, new) == [
        '<section hx-swap-oob="attrs:#status" class="board my-turn"></section>',
        f'<div{OOB} class="tile" id="tile-1"><b>Cat</b></div>']
    assert applied(old, new, "status") == fresh(new, "status")


def test_an_element_whose_own_markup_changed_goes_whole() -> None:
    old = board("Ann", "Ben")
    new = old.replace('</div>\n<p id="turn">', '</div>\nnow <p id="turn">')
    assert pushed(old, new) is None  # the partial's root: the whole partial
    assert applied(old, new, "status") == fresh(new, "status")


def test_a_list_that_grew_on_top_gets_its_new_items_its_aged_ones_and_loses_its_oldest() -> None:
    old, new = log(*"87654321"), log("a", "9", *"8765432")
    found = pushed(old, new)
    assert found == [
        '<ol hx-swap-oob="afterbegin:#log-lines"><li data-k="a" id="line-a"><span>line a</span>'
        '<i>card</i></li><li data-k="9" id="line-9"><span>line 9</span><i>card</i></li></ol>',
        '<li hx-swap-oob="true" data-k="8" id="line-8"><span>line 8</span></li>',
        '<li hx-swap-oob="true" data-k="7" id="line-7"><span>line 7</span></li>',
        '<li hx-swap-oob="delete:#line-1"></li>']
    assert applied(old, new, "log") == fresh(new, "log")


def test_a_list_in_another_order_or_with_lines_missing_goes_whole() -> None:
    for new in (log("2", "3", "1"), log("4", "2", "1"), log("9", "8")):
        assert applied(log("3", "2", "1"), new, "log") == fresh(new, "log")
    found = pushed(log("3", "2", "1"), log("2", "3", "1"))
    assert found is not None and found[0].startswith('<ol hx-swap-oob="true"')


def test_ids_inside_a_template_or_found_twice_are_not_swapped_by() -> None:
    html = (f'<div id="cards"{OOB}><template id="card-1"><p id="inner">a</p></template>'
            '<p id="twice">x</p><p id="twice">y</p><p id="a.b">z</p></div>')
    tree = Tree(html)
    assert tree.ids == {"cards", "card-1"}
    changed = html.replace(">a<", ">b<")
    assert pushed(html, changed) == [
        f'<template{OOB} id="card-1"><p id="inner">b</p></template>']


def test_html_whose_elements_do_not_close_is_only_sent_whole() -> None:
    broken = f'<section id="status"{OOB}><div id="x"><p>open</section>'
    assert not Tree(broken).ok
    assert pushed(board("Ann"), broken) is None


def test_an_id_another_partial_holds_too_is_not_swapped_by() -> None:
    other = Tree('<aside id="elsewhere"><div id="tile-1">copy</div></aside>')
    old, new = Tree(board("Ann", "Ben")), Tree(board("Ann", "Cat"))
    assert swaps(old, new, {"board": new.base, "aside": other.base}, ("board",)) is None


def test_the_partials_kept_apart_are_not_looked_into_for_ids() -> None:
    other = Tree('<aside id="elsewhere"><div id="tile-1">copy</div></aside>')
    old, new = Tree(board("Ann", "Ben")), Tree(board("Ann", "Cat"))
    screen = {"board": new.base, "chat-log": other.base}
    assert swaps(old, new, screen, ("board", "chat-log")) == swaps(old, new)
    assert swaps(old, new) is not None


def test_swaps_that_weigh_as_much_as_the_partial_give_way_to_it() -> None:
    old = f'<p id="tiny"{OOB}><b id="a">1</b><b id="b">2</b></p>'
    assert pushed(old, old.replace(">1<", ">3<").replace(">2<", ">4<")) is None


def shape(tree: Tree) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []

    def walk(e: object, depth: int) -> None:
        out.append((depth, e.id, e.tag, e.start, e.open_end, e.end))  # type: ignore[attr-defined]
        for c in e.children:  # type: ignore[attr-defined]
            walk(c, depth + 1)

    walk(tree.root, 0)
    return out


def test_a_tree_read_after_the_last_one_is_the_tree_read_afresh() -> None:
    pages = [board("Ann", "Ben", "Cat"), board("Ann", "Bea", "Cat"),
             board("Ann", "Bea", "Cat", "Dan"), board("Ann", "Cat", "Dan", note="turn 2"),
             board("Cat", "Ann", "Dan"), log(*"4321"), log("6", "5", *"432"), log(*"65"),
             board("Ann")]
    for old, new in itertools.pairwise(pages):
        assert shape(Tree(new, after=Tree(old).base)) == shape(Tree(new))


def test_a_tree_read_after_the_last_one_with_the_same_ids_keeps_its_very_set_of_ids() -> None:
    before = Tree(board("Ann", "Ben"))
    same_ids = Tree(board("Ann", "Bea"), after=before.base)
    assert same_ids.ids is before.ids
    grown = Tree(board("Ann", "Bea", "Cat"), after=same_ids.base)
    assert grown.ids == Tree(board("Ann", "Bea", "Cat")).ids and "tile-2" in grown.ids


def test_ids_in_a_template_without_an_id_are_not_swapped_by_either() -> None:
    html = f'<div id="cards"{OOB}><template><p id="inner">a</p></template><p id="x">b</p></div>'
    assert Tree(html).ids == {"cards", "x"}


def test_the_same_html_is_read_once_and_what_is_kept_of_it_holds_no_html() -> None:
    trees = Trees()
    html = board("Ann", "Ben")
    tree = trees.of(html)
    assert trees.of(html) is tree and trees.reads == 1
    kept = [tree.base.root]
    while kept:
        node = kept.pop()
        assert not [v for v in (node.id, node.tag) if v is not None and "<" in v]
        kept.extend(node.kids)


def test_a_tree_read_after_another_shares_the_elements_they_hold_alike() -> None:
    before = Tree(board("Ann", "Ben", "Cat"))
    after = Tree(board("Ann", "Bea", "Cat"), after=before.base)
    (old_status,), (new_status,) = before.base.root.kids, after.base.root.kids
    (old_grid, old_turn), (new_grid, new_turn) = old_status.kids, new_status.kids
    assert new_turn is old_turn
    assert [a is b for a, b in zip(old_grid.kids, new_grid.kids, strict=True)] == [
        True, False, True]
    assert swaps(before.base, after) == swaps(before, after) == [
        f'<div{OOB} class="tile" id="tile-1"><b>Bea</b></div>']
    assert after.base.digest != before.base.digest
    assert Tree(board("Ann", "Ben", "Cat")).base.digest == before.base.digest


def read_after(old: str, new: str, *, kept: bool = False) -> Tree:
    """The tree of `new` read after `old`'s, with the tests' check of it against a fresh
    reading off: the test compares the two itself. `kept`: `old`'s tree kept meanwhile (as
    the process's trees keep it), so that the reading compares with its HTML."""
    checking = swaps_module.CHECK_TREES
    swaps_module.CHECK_TREES = False
    try:
        if not kept:
            return Tree(new, after=Tree(old).base)  # the old tree let go: no HTML to compare
        old_tree = Tree(old)
        assert old_tree.base.html() == old
        return Tree(new, after=old_tree.base)
    finally:
        swaps_module.CHECK_TREES = checking


def test_a_base_has_its_html_while_its_tree_is_kept_and_not_after() -> None:
    # A base refers to its tree weakly: what a socket keeps holds no HTML, and a reading
    # after a base whose tree is gone hashes where it compared.
    kept = Trees()
    tree = kept.of(board("Ann", "Ben"), like=("status",))
    base = tree.base
    assert base.html() == board("Ann", "Ben")
    del tree, kept
    assert base.html() is None


def test_markup_without_an_id_put_after_a_changed_element_is_not_read_as_part_of_it() -> None:
    # The changed tile is followed by new markup ending in the same end tag as the tile's,
    # and what follows in the grid is as it was: the tile still ends at its own end tag.
    old = (f'<section id="status"{OOB}><div id="grid"><div id="tile-0"><b>Ann</b></div>'
           '</div><p id="turn">turn 1</p></section>')
    new = old.replace("<b>Ann</b></div>", "<b>Bea</b></div><div>a note</div>")
    after = read_after(old, new)
    assert shape(after) == shape(Tree(new))
    assert after.base.digest == Tree(new).base.digest
    page = Page(old)
    found = swaps(Tree(old), after)
    page.apply(new if found is None else "\n".join(found))
    assert page.element("status") == fresh(new, "status")


def random_element(rng: random.Random, ids: Iterator[int], depth: int) -> str:
    tag = rng.choice(("div", "div", "p", "span", "section"))
    id_part = f' id="e{next(ids)}"' if rng.random() < 0.7 else ""
    inner = "".join(random_element(rng, ids, depth + 1) if depth < 3 and rng.random() < 0.6
                    else rng.choice(("x", "y", "<b>z</b>", ""))
                    for _ in range(rng.randrange(4)))
    return f'<{tag}{id_part} class="c{rng.randrange(3)}">{inner}</{tag}>'


def random_edit(rng: random.Random, html: str, ids: Iterator[int]) -> str:
    """`html` with one element's text, class, tag or markup changed, or an element put
    in or taken out (with or without an id), the HTML staying well formed."""
    tree = Tree(html)
    elements = [e for e in _all(tree.root) if e.id is not None]
    e = rng.choice(elements)
    kind = rng.randrange(6)
    inner_start, inner_end = e.open_end, e.end - len(e.tag) - 3
    if kind == 0:  # what it holds
        return html[:inner_start] + random_element(rng, ids, 2) + html[inner_end:]
    if kind == 1:  # its class
        return html[:e.start] + html[e.start:e.open_end].replace(
            'class="c', f'class="d{rng.randrange(3)}') + html[e.open_end:]
    if kind == 2:  # markup put right after it
        return html[:e.end] + random_element(rng, ids, 3) + html[e.end:]
    if kind == 3:  # markup put right before it
        return html[:e.start] + random_element(rng, ids, 3) + html[e.start:]
    if kind == 4 and e.start > 0:  # taken out
        return html[:e.start] + html[e.end:]
    # changed inside and followed by markup without an id
    return (html[:inner_end] + "w" + html[inner_end:e.end]
            + f"<{e.tag}>v</{e.tag}>" + html[e.end:])


def _all(e: Element) -> list[Element]:
    return [e, *(d for c in e.children for d in _all(c))]


def test_an_element_now_inside_a_template_is_no_element_of_a_tree_read_after_the_last_one(
        ) -> None:
    old = (f'<section id="top"{OOB}><p id="a">one</p>\n<p id="b">two</p>\n'
           '<p id="c">three</p></section>')
    new = old.replace('<p id="b">two</p>\n', '<template><p id="b">two</p></template>')
    after = read_after(old, new)
    assert after.ids == Tree(new).ids == {"top", "a", "c"}
    assert shape(after) == shape(Tree(new))


def alone(tree: Tree) -> bool:
    """Whether the partial's top element is all its HTML."""
    return [(e.id, e.start, e.end) for e in tree.root.children] == [("top", 0, len(tree.html))]


@pytest.mark.parametrize("kept", [False, True], ids=["hashed", "compared"])
def test_a_tree_read_after_a_random_edit_of_its_html_is_the_tree_read_afresh_and_its_swaps_make_it(
        kept: bool) -> None:
    rng = random.Random(20261205)
    ids = itertools.count()
    for _ in range(300):
        html = f'<section id="top"{OOB}>{random_element(rng, ids, 0)}</section>'
        for _ in range(4):
            new = random_edit(rng, html, ids)
            after = read_after(html, new, kept=kept)
            fresh_tree = Tree(new)
            assert (after.ok, after.ids, shape(after), after.base.digest) == (
                fresh_tree.ok, fresh_tree.ids, shape(fresh_tree), fresh_tree.base.digest), (
                html, new)
            if alone(Tree(html)) and alone(fresh_tree):  # nothing put around the partial
                page = Page(html)
                found = swaps(Tree(html), after)
                page.apply(new if found is None else "\n".join(found))
                assert page.element("top") == fresh(new, "top"), (html, new)
            html = new


def test_an_element_ends_at_the_end_tag_of_its_own_name_whatever_tags_begin_alike() -> None:
    html = (f'<section id="top"{OOB}><div id="a"><divider>x</divider><div>y</div >'
            '<divx></divx></div>\n<p id="b">z</p></section>')
    tree = Tree(html)
    a = tree.root.children[0].children[0]
    assert (a.id, html[a.start:a.end]) == (
        "a", '<div id="a"><divider>x</divider><div>y</div ><divx></divx></div>')
    assert shape(read_after(html.replace(">y<", ">w<"), html)) == shape(tree)


def test_a_large_element_changed_in_its_tail_or_inside_is_read_after_the_last_one_as_afresh(
        ) -> None:
    # Elements of _LARGE characters or more are hashed where they would sit only when their
    # tail is there: a board whose tiles changed, whose tail changed, or that moved.
    tiles = [f"tile {n} " + "x" * 60 for n in range(40)]
    old = board(*tiles)
    assert len(old) > 2 * swaps_module._LARGE
    changed_tile = board(*tiles[:5], "moved", *tiles[6:])
    changed_tail = old.replace("\n</div>\n<p", "\n<i>new</i></div>\n<p")
    pushed_down = old.replace('<div id="grid">', '<p>above</p><div id="grid">')
    for new, kept in itertools.product(
            (old, changed_tile, changed_tail, pushed_down), (False, True)):
        after = read_after(old, new, kept=kept)
        assert (after.ok, after.ids, shape(after), after.base.digest) == (
            Tree(new).ok, Tree(new).ids, shape(Tree(new)), Tree(new).base.digest)
    # Unchanged, it is the base's own node (found through its children, all as they were).
    base = Tree(old).base
    assert Tree(old, after=base).base.root.kids[0] is base.root.kids[0]


def nodes(tree: Tree) -> list[tuple[object, ...]]:
    """Every node of a tree as the tests' check compares them: ids, places and digests."""
    out: list[tuple[object, ...]] = []

    def walk(n: object) -> None:
        out.append((n.id, n.tag, n.size, n.open, n.offsets, n.markup,  # type: ignore[attr-defined]
                    n.start_tag, n.between, n.tail))  # type: ignore[attr-defined]
        for kid in n.kids:  # type: ignore[attr-defined]
            walk(kid)

    walk(tree.base.root)
    return out


def test_a_large_element_is_read_after_the_last_one_through_its_children() -> None:
    # A board of _LARGE characters or more is found where it would sit by its start tag, its
    # children (each unchanged one the base's own node) and its tail, not by hashing it whole;
    # its digest, made of its parts', is the one a fresh reading of the same HTML gives.
    tiles = [f"tile {n} " + "x" * 60 for n in range(40)]
    old = board(*tiles)
    base = Tree(old).base
    (old_status,) = base.root.kids
    old_grid = old_status.kids[0]
    for new in (board(*tiles[:5], "moved", *tiles[6:]),
                board(*tiles[:5], "moved", *tiles[6:], cls="board turn-2"),
                board(*tiles[:39], note="turn 2"),
                "<p>above</p>" + old):
        after = Tree(new, after=base)
        assert nodes(after) == nodes(Tree(new))
        (status,) = [n for n in after.base.root.kids if n.id == "status"]
        grid = status.kids[0]
        kept = [a is b for a, b in zip(old_grid.kids, grid.kids, strict=False)]
        assert kept.count(False) <= 1, new
        assert (grid is old_grid) == (kept.count(False) == 0 and len(grid.kids) == 40)
    changed = Tree(board(*tiles[:5], "moved", *tiles[6:]), after=base).base.root.kids[0]
    assert changed.markup != old_status.markup
    assert changed.kids[0].markup != old_grid.markup
    assert Tree(old).base.root.kids[0].markup == old_status.markup


@pytest.mark.skipif(speedups.in_use(), reason="a compiled module calls `hash` directly")
def test_a_changed_board_read_after_the_last_one_hashes_less_than_its_html_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The board and the partial around it are neither hashed where they would sit nor once
    # read: only the tiles where they sit, the changed one read again, and the gaps and tails.
    tiles = [f"tile {n} " + "x" * 60 for n in range(40)]
    base = Tree(board(*tiles)).base
    new = board(*tiles[:5], "moved", *tiles[6:])
    hashed: list[int] = []

    def counted(value: object) -> int:
        hashed.append(len(value) if isinstance(value, str) else 0)
        return hash(value)

    monkeypatch.setattr(swaps_module, "hash", counted, raising=False)
    monkeypatch.setattr(swaps_module, "CHECK_TREES", False)
    Tree(new, after=base, digest=hash(new))
    assert 0 < sum(hashed) < 1.5 * len(new)


def test_a_changed_child_that_leaves_its_large_parents_tag_open_is_read_as_counting_finds_it(
        ) -> None:
    # A child that opens an element of its parent's tag and does not close it (its own tag is
    # another) moves its parent's end: the parent is not taken to end where its tail was.
    items = "".join(f'<span id="s{n}">item {n} {"x" * 60}</span>\n' for n in range(40))
    old = f'<section id="top"{OOB}><div id="list">{items}</div>\n</div></section>'
    unclosed = old.replace('<span id="s7">item 7', '<span id="s7"><div>item 7')
    closed = old.replace('<span id="s7">item 7', '<span id="s7"><div>item 7</div>')
    for new in (unclosed, closed):
        after = Tree(new, after=Tree(old).base)
        assert (after.ok, shape(after), nodes(after)) == (
            Tree(new).ok, shape(Tree(new)), nodes(Tree(new)))


@pytest.mark.parametrize("kept", [False, True], ids=["hashed", "compared"])
def test_a_tree_read_after_a_random_edit_has_the_digests_of_the_tree_read_afresh(
        kept: bool) -> None:
    # Elements large enough to be read through their children, edited at random: every
    # node's digests are a fresh reading's, and the swaps from the last screen make the page.
    rng = random.Random(20261206)
    ids = itertools.count()
    for _ in range(60):
        html = f'<section id="top"{OOB}>{random_element(rng, ids, 0)}</section>'
        html = html.replace("x", "x" * 400)
        for _ in range(4):
            new = random_edit(rng, html, ids).replace("vw", "v" * 300)
            after = read_after(html, new, kept=kept)
            fresh_tree = Tree(new)
            assert (after.ok, after.ids, nodes(after)) == (
                fresh_tree.ok, fresh_tree.ids, nodes(fresh_tree)), (html, new)
            if alone(Tree(html)) and alone(fresh_tree):
                page = Page(html)
                found = swaps(Tree(html), after)
                page.apply(new if found is None else "\n".join(found))
                assert page.element("top") == fresh(new, "top"), (html, new)
            html = new
            if not fresh_tree.ids:  # the partial's element taken out: nothing left to edit
                break


@pytest.mark.parametrize("kept", [False, True], ids=["hashed", "compared"])
def test_a_tree_read_after_a_random_edit_is_the_tree_read_afresh_when_every_element_is_large(
        kept: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every element then takes the path of a large one (its tail looked for first).
    monkeypatch.setattr(swaps_module, "_LARGE", 0)
    rng = random.Random(20261205)
    ids = itertools.count()
    for _ in range(200):
        html = f'<section id="top"{OOB}>{random_element(rng, ids, 0)}</section>'
        for _ in range(4):
            new = random_edit(rng, html, ids)
            after = read_after(html, new, kept=kept)
            fresh_tree = Tree(new)
            assert (after.ok, after.ids, shape(after), after.base.digest) == (
                fresh_tree.ok, fresh_tree.ids, shape(fresh_tree), fresh_tree.base.digest), (
                html, new)
            html = new


def test_a_safe_strings_tree_is_kept_as_plain_text_with_its_htmls_digest() -> None:
    html = SafeString(board("Ann", "Ben"))
    kept = Trees()
    first = kept.of(html, like=("status",))
    after = kept.of(SafeString(board("Ann", "Bea")), like=("status",))
    assert type(first.html) is str and type(after.html) is str
    assert first.base.digest == hash(str.__str__(html)) == Tree(str(html)).base.digest
    assert after.base.digest == Tree(board("Ann", "Bea")).base.digest


def _end_by_counting(html: str, tag: str, at: int) -> int:
    """Where an element of `tag` whose start tag ends at `at` ends, by counting every tag of
    its name in order: the meaning `swaps._end_of` keeps, however it looks."""
    depth = 1
    for found in re.finditer(rf"<(/?){tag}(?=[\s/>])", html[at:]):
        depth += -1 if found[1] else 1
        if depth == 0:
            return html.find(">", at + found.end()) + 1
    return -1


def test_an_elements_end_looked_for_from_the_end_or_by_pattern_is_where_counting_finds_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A partial's long top element is looked for from its HTML's end first, and an element
    # with many of its name inside by a pattern: both on every element here.
    monkeypatch.setattr(swaps_module, "_TOP", 10**9)
    monkeypatch.setattr(swaps_module, "_FAR", 0)
    rng = random.Random(20261206)
    pieces = ["<div>", "</div>", "<div ", "</div ", "<divx>", "</divx>", "div", "<p>", "x",
              " ", "/", ">", "<div/>", "</div\n", "<", "</", "<section>", "</section>"]
    for dense in (0, 2, 6, 12):
        monkeypatch.setattr(swaps_module, "_DENSE", dense)
        for _ in range(3000):
            inside = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
            html = "<div>" + inside + rng.choice(["", "</div>", "</div>\n", "</divx>"]) + (
                rng.choice(["", "</div>", "<div>a</div>"]))
            assert swaps_module._end_of(html, "div", 5) == _end_by_counting(html, "div", 5), html
    # A board: its top element's end from the end, its grid's by the pattern, as counted.
    html = board(*(f"tile {n}" for n in range(40)))
    for tag, at in (("section", html.find(">") + 1), ("div", html.find('id="grid">') + 10)):
        assert swaps_module._end_of(html, tag, at) == _end_by_counting(html, tag, at) > at


def test_a_changed_child_of_its_large_parents_own_tag_is_read_as_counting_finds_it() -> None:
    # A child of its parent's tag ends where counting that tag finds (so opens and closes it
    # alike) and is not scanned again; one that is its start tag alone opens one.
    items = "".join(f'<div id="d{n}">item {n} {"x" * 60}</div>\n' for n in range(40))
    old = f'<section id="top"{OOB}><div id="list">{items}</div>\n</section>'
    for edit in ('<div id="d7"><div>item 7</div>', '<div id="d7"><div>item 7',
                 '<div id="d7"/><div>item 7', '<div id="d7"><b>item 7</b>'):
        new = old.replace('<div id="d7">item 7', edit)
        after = Tree(new, after=Tree(old).base)
        assert (after.ok, shape(after), nodes(after)) == (
            Tree(new).ok, shape(Tree(new)), nodes(Tree(new))), edit


def test_children_kept_in_another_order_need_no_scan_for_their_parents_tag() -> None:
    from games.platform.swaps import Node, _kids_balanced

    def node(element_id: str, tag: str, size: int, kids: tuple[Node, ...] = (),
             offsets: tuple[int, ...] = ()) -> Node:
        return Node(element_id, tag, size, 3, kids, offsets, (0, 0, 0, 0))

    # Their HTML closes a <div> they never opened: read anew, that would not balance.
    html = '<div id="a"><p id="x"></div></p><p id="y"></div></p></div>'
    x, y = node("x", "p", 19), node("y", "p", 19)
    was = node("a", "div", len(html), (x, y), (12, 31))
    assert _kids_balanced(was, node("a", "div", len(html), (y, x), (12, 31)), html, 0)
    z = node("z", "p", 19)
    assert not _kids_balanced(was, node("a", "div", len(html), (y, z), (12, 31)), html, 0)


def test_tag_names_are_read_with_digits_and_hyphens_and_nothing_else_opens_one() -> None:
    # The names a start tag's "<" opens, read character by character (swaps._tag_at), are
    # what the pattern `<[A-Za-z][A-Za-z0-9-]*` matched, interned; "<2" and "< " open none.
    html = (f'<section id="top"{OOB}><h2 id="h">Hi</h2><my-el id="m"><h3 id="n">x</h3>'
            '</my-el><p>1 <2 id="x"> < id="y"></p></section>')
    tree = Tree(html)
    (top,) = tree.root.children
    assert [(c.id, c.tag) for c in top.children] == [("h", "h2"), ("m", "my-el")]
    assert [(c.id, c.tag) for c in top.children[1].children] == [("n", "h3")]
    assert top.children[0].tag is sys.intern("h2")
    assert shape(read_after(html.replace(">x<", ">w<"), html)) == shape(tree)
    assert pushed(html, html.replace(">Hi<", ">Ho<")) == [f'<h2{OOB} id="h">Ho</h2>']


def test_an_element_without_children_with_ids_is_compared_by_its_markup_alone() -> None:
    # Its start tag's, gaps' and tail's digests are not worked out (they compare an element's
    # own markup around its children): a changed one still goes whole, by its id.
    tree = Tree(board("Ann", "Ben"))
    tile = tree.base.root.kids[0].kids[0].kids[1]
    assert (tile.id, tile.kids, tile.start_tag, tile.between, tile.tail) == (
        "tile-1", (), 0, 0, 0)
    assert tile.markup == hash('<div class="tile" id="tile-1"><b>Ben</b></div>')
    assert pushed(board("Ann", "Ben"), board("Ann", "Ben", note="turn 2")) == [
        f'<p{OOB} id="turn">turn 2</p>']
    assert applied(board("Ann", "Ben"), board("Ann", "Cat", note="turn 2"), "status") == (
        fresh(board("Ann", "Cat", note="turn 2"), "status"))
