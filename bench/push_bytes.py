"""What the bytes of a push are: `move_cost`'s moves, each frame split into its swaps.

    uv run python bench/push_bytes.py --game chudopoly --deals 7 --database x

Runs bench/move_cost.py's tables and moves (the real consumers, four sockets a table) and
splits every push after the first page into the swaps it carries: a whole partial, an element
swapped whole by its id, new attributes ("attrs"), new list items ("afterbegin") or a deletion.
It prints the bytes per push of each kind of swap, by the element's id with its numbers written
as N (`seat-N-bank`), largest first, and how often each went; then the bytes per push of a few
pieces of markup wherever they sit (a card's face, a card's back, an inline SVG, a form).
Bytes only: no clock is read, so the figures do not depend on the box's load.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import move_cost

_NUMBERS = re.compile(r"\d+")

# Pieces of markup counted wherever they are (a start tag's pattern: the bytes up to its end).
PIECES = {
    "card face (<span class=\"card k-...)": re.compile(r'<span class="card k-'),
    "card back": re.compile(r'<span class="card card-back"'),
    "svg": re.compile(r"<svg\b"),
    "form": re.compile(r"<form\b"),
    "title=\"...\"": re.compile(r'\stitle="[^"]*"'),
    "aria-label=\"...\"": re.compile(r'\saria-label="[^"]*"'),
    "class=\"...\"": re.compile(r'\sclass="[^"]*"'),
    "whitespace runs (2+)": re.compile(r"\s{2,}"),
}


class _TopLevel(HTMLParser):
    """The top-level elements of a frame, as (start offset, start tag text)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.depth = 0
        self.starts: list[tuple[int, str, dict[str, str | None]]] = []

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.starts.append((self._offset(), tag, dict(attrs)))
        if tag not in self.VOID:
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.starts.append((self._offset(), tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID:
            self.depth -= 1


def swaps_of(frame: str) -> list[tuple[str, str, int]]:
    """(kind, id, bytes) of each top-level swap of a frame."""
    parser = _TopLevel(frame)
    parser.feed(frame)
    parser.close()
    out = []
    starts = parser.starts
    for i, (at, _tag, attrs) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(frame)
        oob = attrs.get("hx-swap-oob") or ""
        if ":" in oob:
            kind, target = oob.split(":", 1)
            key = target.lstrip("#")
        else:
            kind, key = "whole", attrs.get("id") or "?"
        if key in move_cost_roots():
            kind = "partial"
        out.append((kind, _NUMBERS.sub("N", key), end - at))
    return out


def move_cost_roots() -> tuple[str, ...]:
    import liveplay

    return liveplay.ROOT_IDS


def piece_bytes(frame: str) -> Counter[str]:
    """Bytes of each of PIECES in a frame (a card's face or back: up to its closing tag)."""
    found: Counter[str] = Counter()
    for name, pattern in PIECES.items():
        for m in pattern.finditer(frame):
            if name.startswith("card") or name in ("svg", "form"):
                found[name] += _element_length(frame, m.start())
            else:
                found[name] += m.end() - m.start()
    return found


def _element_length(text: str, start: int) -> int:
    tag = re.match(r"<([a-z0-9]+)", text[start:]).group(1)  # type: ignore[union-attr]
    opening = re.compile(rf"<{tag}\b|</{tag}>")
    depth = 0
    for m in opening.finditer(text, start):
        depth += -1 if m.group(0).startswith("</") else 1
        if depth == 0:
            return m.end() - start
    return len(text) - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="chudopoly")
    parser.add_argument("--deals", type=int, default=7)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", default="chudopoly_movecost")
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    import instrument

    instrument.seed_secrets(args.deals)
    by_swap: Counter[tuple[str, str]] = Counter()
    times: Counter[tuple[str, str]] = Counter()
    pieces: Counter[str] = Counter()
    pushes = 0
    total = 0
    counting = False
    read = move_cost.Socket.read

    def tallied(self: move_cost.Socket) -> None:
        nonlocal pushes, total
        if counting and self.pushes_seen:
            for frame in self.inbox:
                pushes += 1
                total += len(frame)
                for kind, key, size in swaps_of(frame):
                    by_swap[(kind, key)] += size
                    times[(kind, key)] += 1
                pieces.update(piece_bytes(frame))
        self.pushes_seen = True
        read(self)

    move_cost.Socket.pushes_seen = False  # type: ignore[attr-defined]
    move_cost.Socket.read = tallied  # type: ignore[method-assign]
    counting = True
    move_cost.run(args.tables, args.moves, args.seed, sqlite=args.sqlite,
                  database=args.database, game=args.game)
    pushes = max(1, pushes)
    print(f"{pushes} pushes, {total / pushes:.0f} B per push (characters, as move_cost counts)")
    print(f"{'bytes/push':>10} {'share':>6} {'sent in':>8}  swap")
    for (kind, key), size in by_swap.most_common(args.top):
        print(f"{size / pushes:10.0f} {size / total:6.1%} {times[(kind, key)] / pushes:8.1%}  "
              f"{kind} #{key}")
    print("pieces of markup, wherever they are (they overlap):")
    for name, size in pieces.most_common():
        print(f"{size / pushes:10.0f} {size / total:6.1%}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
