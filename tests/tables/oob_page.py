"""A page as htmx's websocket extension keeps it: pushed frames applied by their out-of-band
swaps, so a test can compare what a run of pushes left with what a fresh render shows.

Only what the table's pushes use: `hx-swap-oob="true"` (by id), `attrs` (an element's new
attributes, static/js/table.js), and `afterbegin`, `outerHTML` and `delete` on a selector
made of descendant steps such as `#log ol.game-log` or `#log li[data-k="3.0"]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
_STEP = re.compile(r'^(?P<tag>[a-z][a-z0-9-]*)?(?:#(?P<id>[\w-]+))?(?P<classes>(?:\.[\w-]+)*)'
                   r'(?:\[(?P<attr>[\w-]+)="(?P<value>[^"]*)"\])?$')


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    def html(self) -> str:
        # In a fixed order: a swap of attributes alone ("attrs") lists them in its own.
        attrs = "".join(f' {k}="{escape(v)}"' for k, v in sorted(self.attrs.items()))
        if self.tag in VOID:
            return f"<{self.tag}{attrs}>"
        inner = "".join(c.html() if isinstance(c, Node) else escape(c, quote=False)
                        for c in self.children)
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"

    def elements(self) -> list[Node]:
        """Every element under this one, in document order."""
        out: list[Node] = []
        for child in self.children:
            if isinstance(child, Node):
                out.append(child)
                out.extend(child.elements())
        return out


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.open: list[Node] = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.open[-1].children.append(node)
        if tag not in VOID:
            self.open.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for at in range(len(self.open) - 1, 0, -1):
            if self.open[at].tag == tag:
                del self.open[at:]
                return

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def _matches(node: Node, step: str) -> bool:
    m = _STEP.match(step)
    assert m is not None, f"selector step not understood: {step}"
    classes = node.attrs.get("class", "").split()
    return ((m["tag"] is None or node.tag == m["tag"])
            and (m["id"] is None or node.attrs.get("id") == m["id"])
            and all(c in classes for c in m["classes"].split(".") if c)
            and (m["attr"] is None or node.attrs.get(m["attr"]) == m["value"]))


def select(root: Node, selector: str) -> list[Node]:
    """The elements a descendant selector finds under `root`."""
    found = [root]
    for step in selector.split():
        found = [n for base in found for n in base.elements() if _matches(n, step)]
    return found


def _parent_of(root: Node, target: Node) -> Node:
    for node in [root, *root.elements()]:
        if any(child is target for child in node.children):
            return node
    raise AssertionError(f"no parent for <{target.tag}>")


class Page:
    """The partials of a first push, kept as htmx would keep them."""

    def __init__(self, first_frame: str) -> None:
        self.root = parse(first_frame)
        for node in self.root.elements():
            node.attrs.pop("hx-swap-oob", None)

    def apply(self, frame: str) -> None:
        for swap in [c for c in parse(frame).children if isinstance(c, Node)]:
            how = swap.attrs.pop("hx-swap-oob", "true")
            style, _, selector = how.partition(":") if how != "true" else (
                "outerHTML", "", "#" + swap.attrs["id"])
            targets = select(self.root, selector)
            assert targets, f"nothing on the page for {how}"
            for target in targets:
                parent = _parent_of(self.root, target)
                at = next(i for i, c in enumerate(parent.children) if c is target)
                if style == "outerHTML":
                    parent.children[at] = swap
                elif style == "delete":
                    del parent.children[at]
                elif style == "afterbegin":
                    target.children[:0] = swap.children
                elif style == "attrs":
                    target.attrs = {"id": target.attrs["id"], **swap.attrs}
                else:
                    raise AssertionError(f"swap style not emulated: {style}")

    def element(self, element_id: str) -> str:
        (found,) = select(self.root, "#" + element_id)
        return found.html()


def fresh(html: str, element_id: str) -> str:
    """An element of freshly rendered HTML, as the page would hold it after a whole swap."""
    page = Page(html)
    return page.element(element_id)
