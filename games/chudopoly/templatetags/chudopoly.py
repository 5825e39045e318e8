"""Display helpers for the Chudopoly templates, and the one card component.

Every card on every page (hand, sets, bank, discard, payments, log peeks, the replay and the rules
page) is drawn by `{% card_face card %}` (through `chudopoly/_card.html`): plain HTML, CSS
classes for colours (no inline styles) and a small inline SVG glyph per set. A card's markup
depends only on the card dict a view or event carries, so it is rendered once per distinct card
and cached.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from functools import lru_cache
from html import escape as html_escape
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.chudopoly.board import colour_name as _colour_name
from games.chudopoly.engine.cards import (
    ACTIONS,
    COLOURS,
    RAINBOW_WILD_TEXT,
    RENT_ANY_TEXT,
    RENT_PAIR_TEXT,
    build_deck,
    card_dict,
)
from games.platform.bounded_cache import BoundedCache
from games.platform.one_byte import one_byte
from games.platform.rendering import SharedList, content_key, kept, render_plain

register = template.Library()

# --- colours ------------------------------------------------------------------------------------


def _luminance(hex_colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours."""
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def ink_for(bg: str) -> str:
    """Black or white, whichever reads better on `bg` (every set colour reaches 4.5:1)."""
    return "#ffffff" if contrast(bg, "#ffffff") >= contrast(bg, "#000000") else "#000000"


def colour_css() -> str:
    """The colour classes static/css/site.css must define (a test keeps them in step)."""
    rules = []
    for key, c in COLOURS.items():
        ink = ink_for(c.bg)
        rules.append(f".c1-{key}{{--c1:{c.bg};--t1:{ink}}}")
        rules.append(f".c2-{key}{{--c2:{c.bg};--t2:{ink}}}")
    return "\n".join(rules)


@register.filter
def colour_name(key: str | None) -> str:
    return _colour_name(key)


@register.filter
def colour_bg(key: str | None) -> str:
    colour = COLOURS.get(key or "")
    return colour.bg if colour else "#777777"


@register.filter
def card_colours(card: Mapping[str, Any]) -> list[str]:
    """The colours a card shows: its zone if placed, else every colour it can go in."""
    if card.get("colour"):
        return [card["colour"]]
    return list(card.get("colours") or [])[:2]


# --- glyphs -------------------------------------------------------------------------------------

# 24×24 glyphs: (path, filled). Stroked glyphs use currentColor at width 2.
GLYPHS: dict[str, tuple[str, bool]] = {
    "brown": ("M8 8l8 8M16 8l-8 8M3 6a3 3 0 1 0 6 0a3 3 0 1 0-6 0M15 6a3 3 0 1 0 6 0a3 3 0 1 0"
              "-6 0M3 18a3 3 0 1 0 6 0a3 3 0 1 0-6 0M15 18a3 3 0 1 0 6 0a3 3 0 1 0-6 0", False),
    "lightblue": ("M2 9l10-5 10 5-10 5zM6 11v5c0 1 3 3 6 3s6-2 6-3v-5M22 9v6", False),
    "pink": ("M12 2l8 19-8-5-8 5z", True),
    "orange": ("M9 3h6M10 3v6l-5 10a1.5 1.5 0 0 0 1.3 2h11.4a1.5 1.5 0 0 0 1.3-2L14 9V3M7 15h10",
               False),
    "red": ("M12 2l2 6 7 5v2l-7-2v5l3 2v2l-5-1-5 1v-2l3-2v-5l-7 2v-2l7-5z", True),
    "yellow": ("M12 3v18M3 12l9-3 9 3M8 20l4-2 4 2", False),
    "green": ("M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z", True),
    "darkblue": ("M12 2l10 7.3-3.8 11.7H5.8L2 9.3zM12 7l5 3.6-1.9 5.9H8.9L7 10.6z", False),
    "base": ("M5 21V3M5 4h13l-3 4 3 4H5", False),
    "intel": ("M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM9 12a3 3 0 1 0 6 0a3 3 0 1 0-6 0",
              False),
    "wild": ("M12 2l2.5 7.5L22 12l-7.5 2.5L12 22l-2.5-7.5L2 12l7.5-2.5z", True),
    "action": ("M13 2L4 14h7l-1 8 9-12h-7z", True),
    "opsec": ("M12 2l8 3v6c0 5-3.5 9-8 11-4.5-2-8-6-8-11V5z", True),
    "upgrade": ("M3 21h18M5 21V10l7-6 7 6v11M10 21v-5h4v5", False),
    "foc": ("M4 21h16M6 21V4h12v17M9 8h2M13 8h2M9 12h2M13 12h2M10 21v-4h4v4", False),
    "rent": ("M3 21h18M5 21V10l7-6 7 6v11M12 11v6M10 13h4", False),
    "money": ("M4 7h16v10H4zM9 12a3 3 0 1 0 6 0a3 3 0 1 0-6 0", False),
}


def glyph(name: str) -> str:
    path, filled = GLYPHS.get(name, GLYPHS["action"])
    kind = "glyph" if filled else "glyph s"  # site.css paints filled and stroked glyphs
    return (f'<svg class="{kind}" viewBox="0 0 24 24" aria-hidden="true">'
            f'<path d="{path}"/></svg>')


# --- the card component -------------------------------------------------------------------------


def _ladder(colour: str, cls: str = "") -> str:
    c = COLOURS[colour]
    last = len(c.rents)
    rungs = "".join(
        f'<span class="rung{" full" if n == last else ""}"><b>{n}</b>{amount}M</span>'
        for n, amount in enumerate(c.rents, start=1))
    spoken = ", ".join(f"{n} card{'s' if n != 1 else ''} {amount}M"
                       for n, amount in enumerate(c.rents, start=1))
    return (f'<span class="card-rent{cls}"><span class="vh">{escape(c.name)} rent: '
            f'{spoken}.</span><span class="rungs" aria-hidden="true">{rungs}</span></span>')


# The band's set label is short room on a narrow card: its words never break inside (a word
# that will not fit is set smaller, by the length of its longest word), and the one set whose
# name is a single long word shows its short form (the full name stays in the title and the
# spoken rent line).
BAND_LABELS = {"Intelligence": "Intel"}


def _fit_class(label: str) -> str:
    longest = max((len(w) for w in label.split()), default=0)
    return " fit-s" if longest >= 8 else " fit-m" if longest >= 6 else ""


def _band(colour: str | None, label: str, *, cls: str = "", icon: str | None = None,
          mini: bool = False) -> str:
    if mini:  # a mini card's band shows its symbol alone (site.css: "Mini cards")
        return f'<span class="card-band{cls}">{glyph(icon or colour or "action")}</span>'
    label = BAND_LABELS.get(label, label)
    return (f'<span class="card-band{cls}">{glyph(icon or colour or "action")}'
            f'<span class="card-set{_fit_class(label)}">{escape(label)}</span></span>')


def _breakable(name: str) -> str:
    """A card name, escaped, that may wrap after a slash ("Wild: Drone/<wbr>Training")."""
    return str(escape(name)).replace("/", "/<wbr>")


def _coin(value: int) -> str:
    return f'<span class="card-coin"><span class="vh">worth </span>{value}M</span>'


def _face(cid: Any, kind: str, key: str, name: str, value: int, colours: tuple[str, ...],
          colour: str | None, mini: bool = False) -> str:
    """A card's face. `mini`: as a mini card shows it (on a board, in a bank, a payment, the
    discard pile, a pending card, a log peek), without the parts site.css hides there (its
    set label, picture, rent ladder and text, none of them seen or read out there): the
    same card to the eye and to a screen reader, in about half the bytes."""
    classes = ["card", f"k-{kind}"]
    parts: list[str] = []
    title = name
    colours = tuple(c for c in colours if c in COLOURS)
    if kind == "property" and colours:
        col = colours[0]
        classes.append(f"c1-{col}")
        parts += [_band(col, COLOURS[col].name, mini=mini),
                  f'<span class="card-name">{_breakable(name)}</span>']
        if not mini:
            parts += [f'<span class="card-art">{glyph(col)}</span>', _ladder(col)]
        parts.append(_coin(value))
        title = f"{name} ({COLOURS[col].name}), {value}M"
    elif kind == "wild" and key == "wild_pair" and len(colours) >= 2:
        a, b = colours[:2]
        classes += [f"c1-{a}", f"c2-{b}"]
        if colour in (a, b):
            classes.append("on-1" if colour == a else "on-2")
        name_part = f'<span class="card-name">{_breakable(name)}</span>'
        if mini:
            parts += [_band(a, COLOURS[a].name, cls=" b1", mini=True), name_part,
                      _band(b, COLOURS[b].name, cls=" b2", mini=True), _coin(value)]
        else:
            parts += [_band(a, COLOURS[a].name, cls=" b1"), _ladder(a, " r1"), name_part,
                      _ladder(b, " r2"), _band(b, COLOURS[b].name, cls=" b2"), _coin(value)]
        title = f"Two-colour wild: {COLOURS[a].name} or {COLOURS[b].name}, {value}M"
    elif kind == "wild":
        classes.append("rainbow")
        if colour in COLOURS:
            classes.append(f"c1-{colour}")
        where = COLOURS[colour].name if colour in COLOURS else "Any colour"
        parts += [_band(None, where, icon="wild", mini=mini),
                  f'<span class="card-name">{_breakable(name)}</span>']
        if not mini:
            parts.append(f'<span class="card-text">{escape(RAINBOW_WILD_TEXT)}</span>')
        title = f"{name}: any colour, no cash value"
    elif kind == "money":
        classes.append(f"m-{value}")
        parts += [_band(None, "Money", icon="money", mini=mini),
                  f'<span class="card-big" aria-hidden="true">{value}M</span>', _coin(value)]
        title = f"Money, {value}M"
    elif kind == "rent":
        if key == "rent_pair" and len(colours) >= 2:
            a, b = colours[:2]
            classes += [f"c1-{a}", f"c2-{b}", "rent-pair"]
            label = f"Rent: {COLOURS[a].name} or {COLOURS[b].name}"
            text = RENT_PAIR_TEXT
        else:
            classes.append("rainbow")
            label = "Rent: any colour"
            text = RENT_ANY_TEXT
        parts += [_band(None, "Rent", icon="rent", mini=mini),
                  f'<span class="card-name">{escape(label)}</span>']
        if not mini:
            parts.append(f'<span class="card-text">{escape(text)}</span>')
        parts.append(_coin(value))
        title = f"{label}, {value}M"
    else:  # action (upgrades on a set included)
        action = ACTIONS.get(key)
        text = action.text if action else ""
        if colour in COLOURS:
            classes.append(f"c1-{colour}")
        icon = key if key in ("opsec", "upgrade", "foc") else "action"
        parts += [_band(None, "Action", icon=icon, mini=mini),
                  f'<span class="card-name">{_breakable(name)}</span>']
        if not mini:
            parts.append(f'<span class="card-text">{escape(text)}</span>')
        parts.append(_coin(value))
        title = f"{name}, {value}M: {text}" if text else f"{name}, {value}M"
    cid_attr = f' data-card-id="{int(cid)}"' if isinstance(cid, int) else ""
    # One byte a character, as the platform's HTML is (games/platform/one_byte.py): a card's
    # text carries — and ’.
    return one_byte(f'<span class="{" ".join(classes)}"{cid_attr} data-key="{escape(key)}" '
                    f'title="{escape(title)}">{"".join(parts)}</span>')


_cached_face = lru_cache(maxsize=4096)(_face)


def render_card(card: Mapping[str, Any], *, mini: bool = False) -> SafeString:
    """One card's HTML from a card dict ({"id", "kind", "key", "name", "value", "colours",
    "colour"}), as views, events and `card_dict` give it; `mini` as _face says."""
    args = (card.get("id"), str(card.get("kind") or "action"), str(card.get("key") or ""),
            str(card.get("name") or "Card"), int(card.get("value") or 0),
            tuple(card.get("colours") or ()), card.get("colour"), mini)
    return SafeString(_cached_face(*args))


@register.simple_tag
def card_face(card: Mapping[str, Any] | None) -> SafeString:
    if not card:
        return mark_safe("")
    return render_card(card)


def mini_card(card: Mapping[str, Any] | None) -> SafeString:
    """A card as the mini cards of a board, a bank, a payment, the piles, a pending card and
    the log's peeks show it (the Jinja2 partials' `{{ mini_card(card) }}`)."""
    if not card:
        return mark_safe("")
    return render_card(card, mini=True)


BACK = ('<span class="card card-back" aria-hidden="true"><span class="back-mark">'
        'C</span></span>')


@register.simple_tag
def card_back() -> SafeString:
    """The back of a card: hands you cannot see, and the draw pile."""
    return SafeString(BACK)


# --- smaller helpers for the board --------------------------------------------------------------


@register.filter
def pips(left: Any, total: Any = 3) -> list[bool]:
    """[True]*left + [False]*(total-left): the plays-left dots."""
    try:
        left_n, total_n = max(0, int(left)), max(0, int(total))
    except (TypeError, ValueError):
        return []
    total_n = max(total_n, left_n)
    return [i < left_n for i in range(total_n)]


@register.filter
def fan(count: Any, limit: int = 7) -> range:
    """How many card backs to draw for a hand of `count` (at most `limit`)."""
    try:
        return range(min(max(0, int(count)), int(limit)))
    except (TypeError, ValueError):
        return range(0)


LOG_CARD_KEYS = ("card", "take", "give", "took", "gave")


@register.filter
def event_cards(events: Iterable[Mapping[str, Any]] | None) -> list[Mapping[str, Any]]:
    """The cards a (redacted) log line's events show, for the log's card peeks."""
    out: list[Mapping[str, Any]] = []
    seen: set[Any] = set()

    def add(c: Any) -> None:
        if isinstance(c, Mapping) and "kind" in c and c.get("id") not in seen:
            seen.add(c.get("id"))
            out.append(c)

    for ev in events or []:
        for k in LOG_CARD_KEYS:
            add(ev.get(k))
        for c in ev.get("cards") or []:
            add(c)
    return out[:6]


def gallery_cards() -> list[tuple[str, list[dict[str, Any]]]]:
    """One card of each face in the stock deck, grouped for the rules page."""
    groups: dict[str, list[dict[str, Any]]] = {
        "Properties": [], "Wilds": [], "Money": [], "Rent": [], "Actions": []}
    seen: set[tuple[Any, ...]] = set()
    by_colour: set[str] = set()
    for c in build_deck():
        if c.kind == "property":
            if c.colours[0] in by_colour:
                continue
            by_colour.add(c.colours[0])
        face = (c.kind, c.key, c.name, c.value, frozenset(c.colours))
        if face in seen:
            continue
        seen.add(face)
        group = {"property": "Properties", "wild": "Wilds", "money": "Money", "rent": "Rent",
                 "action": "Actions"}[c.kind]
        d = card_dict(c)
        d["id"] = None  # gallery cards are not table cards
        groups[group].append(d)
    return list(groups.items())


@register.inclusion_tag("chudopoly/_card_gallery.html")
def card_gallery() -> dict[str, Any]:
    return {"groups": gallery_cards()}


# A player's panel shows only public facts, so every viewer at the table gets the same HTML
# for it: rendered once per distinct content and process. Keyed by the content itself, so a
# stale panel cannot be served: any change makes a new key. Most moves change one panel of
# four, and the players partial that lists them renders the other three from here.
# Bounded by bytes too (games/platform/bounded_cache.py); plain str values: rendering.kept.
_PANEL_MEMO: BoundedCache[str] = BoundedCache(max_entries=2048, max_bytes=4 * 1024 * 1024)


def _memo_render(template: str, context: dict[str, Any],
                 key: Hashable | None = None) -> SafeString:
    """`template` rendered with `context`, once per distinct context. The context must be all
    the template reads, and plain data (it is the key, unless the caller gives `key`: then
    equal keys must mean equal contexts)."""
    if key is None:
        key = (template, content_key(context))
    html = _PANEL_MEMO.get(key)
    return SafeString(html if html is not None else _render_kept(template, context, key))


def _render_kept(template: str, context: dict[str, Any], key: Hashable) -> str:
    """`template` rendered and kept by `key`, as the plain string the render joined
    (render_plain): a safe string's render made plain again for the memo was copied twice."""
    html = kept(render_plain(template, context))
    _PANEL_MEMO.put(key, html)
    return html


@register.simple_tag
def seat_panel(player: Mapping[str, Any], result: Any) -> SafeString:
    """A player's panel (chudopoly/_seat.html) from its public entry (board.board_public),
    alike for every viewer: the page's CSS marks and opens the viewer's own."""
    if player.get("is_me"):
        raise ValueError("seat_panel renders public entries only: they name no viewer")
    template = "chudopoly/_seat.html"
    # The context is the player and the result's truth: its key is theirs.
    return _memo_render(template, {"p": player, "c": {"result": bool(result)}},
                        key=(template, content_key(player), bool(result)))


@register.simple_tag
def seat_panels(players: Iterable[Mapping[str, Any]], result: Any) -> SafeString:
    """Every player's panel, as _players.html lists them: seat_panel's for each entry. The
    board's shared list of entries (board.board_public's, a SharedList) has written each
    entry's content once a snapshot for the players partial's key (its digest is made of
    them); a panel is kept by that key too, not by its entry written again per render."""
    keys = players.item_keys() if isinstance(players, SharedList) else None
    if keys is None:
        return SafeString("".join([f"\n    {seat_panel(p, result)}\n  " for p in players]))
    template = "chudopoly/_seat.html"
    over = bool(result)
    # The kept panels themselves, joined once with what goes between them: each made a safe
    # string and formatted into its own piece first, a panel was copied twice more and its
    # safe string's __str__ called, most of the work of a players partial served whole.
    made = []
    for player, key in zip(players, keys, strict=True):
        if player.get("is_me"):
            raise ValueError("seat_panel renders public entries only: they name no viewer")
        # "item": the shared list's keys, written apart from content_key's.
        memo_key = (template, "item", key, over)
        html = _PANEL_MEMO.get(memo_key)
        if html is None:
            html = _render_kept(template, {"p": player, "c": {"result": over}}, memo_key)
        made += ("\n    ", html, "\n  ")
    return SafeString("".join(made))


@register.simple_tag
def zone_panel(seat: Any, zone: Mapping[str, Any]) -> SafeString:
    """One set on a player's board (chudopoly/_zone.html, which reads only the zone and the
    seat). A move changes one or two sets of the board it touches: the panels rendered again
    for it take the others as they were."""
    template = "chudopoly/_zone.html"
    context = {"p": {"seat": seat}, "z": zone}
    return _memo_render(template, context, key=(template, content_key((seat, zone))))


@register.simple_tag
def bank_panel(player: Mapping[str, Any]) -> SafeString:
    """A player's bank (chudopoly/_bank.html, which reads only the player's seat, name, bank
    and its total). The seat panel around it is rendered again whenever the player's hand
    count, turn or clock changes, nearly every move; the bank, far less often, is taken as
    it was."""
    template = "chudopoly/_bank.html"
    seat, name, bank, total = (player.get("seat"), player.get("name"), player.get("bank"),
                               player.get("bank_total"))
    context = {"p": {"seat": seat, "name": name, "bank": bank, "bank_total": total}}
    return _memo_render(template, context, key=(template, content_key((seat, name, bank, total))))


LOG_PEEK_LINES = 12  # the newest lines show the cards they name; older ones are words only


@register.simple_tag
def log_items(lines: list[Any]) -> SafeString:
    """The log's list items, newest first (one tag for the whole list: the log is the largest
    loop of a push), the newest LOG_PEEK_LINES with their card peeks. Each line keeps its
    items (presenters.LogLine.rendered): a push lists forty lines and renders one or two."""
    newest_first = lines[::-1]
    made = [(line.rendered.get(True) or _log_piece(line, True))[1]
            for line in newest_first[:LOG_PEEK_LINES]]
    made += [(line.rendered.get(False) or _log_piece(line, False))[1]
             for line in newest_first[LOG_PEEK_LINES:]]
    return SafeString("".join(made))


@register.simple_tag
def log_item(line: Any, peek: bool) -> SafeString:
    """One log line as a list item; with `peek`, the cards its events show. A line never
    changes once written, and a socket keeps its lines from push to push
    (presenters.build_log), so each is rendered once and kept on the line."""
    return SafeString(_log_piece(line, peek)[1])


def _log_piece(line: Any, peek: bool) -> tuple[str, str]:
    """log_item's key and HTML, escaped, as the plain strs kept on the line (rendering.kept)."""
    rendered = getattr(line, "rendered", None)
    if rendered is not None and peek in rendered:
        return rendered[peek]
    cards = event_cards(line.events) if peek else []
    peek_html = ('<span class="log-peek" aria-hidden="true">'
                 + "".join(render_card(c, mini=True) for c in cards) + "</span>") if cards else ""
    # The standard library's escape is Django's `escape` without its lazy-string wrapper.
    key = line.key
    dom_id = getattr(line, "dom_id", None)
    id_attr = f' id="{html_escape(dom_id)}"' if dom_id else ""
    piece = (key, kept(f'<li data-k="{html_escape(key)}"{id_attr}>'
                       f'<span class="log-text">{_line_words(line)}</span>{peek_html}</li>'))
    if rendered is not None:
        rendered[peek] = piece
    return piece


def _line_words(line: Any) -> str:
    """A line's words as HTML: a table's (presenters.LogLine) with each seat's own words
    marked for it, escaped."""
    marked = getattr(line, "marked", None)
    return str(marked) if marked is not None else html_escape(str(line))


def single_quoted(value: Any) -> SafeString:
    """A value for an attribute written in single quotes (`value='{{ o.json|single_quoted }}'`):
    a move's JSON keeps its double quotes as they are instead of six bytes each (`&#34;`), about
    a fifth of a hand's forms."""
    text = str(value)
    if "&" in text:
        text = text.replace("&", "&amp;")
    return SafeString(text.replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;"))


def jinja_helpers(env: Any) -> None:
    """The tags and filters above as the Jinja2 partials call them (games/chudopoly/jinja2/,
    wired by the site's TEMPLATES): `{{ card_face(card) }}` for `{% card_face card %}`."""
    env.globals.update({
        "card_face": card_face, "mini_card": mini_card, "card_back": card_back,
        "seat_panel": seat_panel, "seat_panels": seat_panels, "zone_panel": zone_panel,
        "bank_panel": bank_panel,
        "log_items": log_items,
    })
    env.filters.update({
        "pips": pips, "fan": fan, "colour_name": colour_name,
        "single_quoted": single_quoted,
    })
