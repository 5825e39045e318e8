"""The card catalogue: colours, property/wild/money/rent/action tables and the deck builder.

Everything here is data. A game stores only card ids (ints); the meaning of an id comes from
`build_deck(counts)`, whose id order is pinned (REFERENCE §1.6) so that a seed plus an action
log replays identically for ever.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

__all__ = [
    "ACTIONS",
    "COLOURS",
    "COLOUR_KEYS",
    "DECK_KINDS",
    "MONEY",
    "PAIR_WILDS",
    "PROPERTIES",
    "RENTS",
    "STOCK_COUNTS",
    "ActionKind",
    "Card",
    "Catalogue",
    "Colour",
    "build_deck",
    "card_dict",
    "catalogue",
    "deck_size",
]


@dataclass(frozen=True, slots=True)
class Colour:
    key: str
    name: str
    set_size: int
    rents: tuple[int, ...]
    bg: str


@dataclass(frozen=True, slots=True)
class ActionKind:
    key: str
    name: str
    value: int
    stock: int
    text: str


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    kind: str  # property | wild | money | rent | action
    key: str  # property | wild_any | wild_pair | money | rent_pair | rent_any | <action key>
    name: str
    value: int
    colours: tuple[str, ...]
    text: str


COLOURS: dict[str, Colour] = {
    c.key: c
    for c in (
        Colour("brown", "Drone Ops", 2, (1, 2), "#8B4513"),
        Colour("lightblue", "Training", 3, (1, 2, 3), "#87CEEB"),
        Colour("pink", "Space Force", 3, (1, 2, 4), "#FF69B4"),
        Colour("orange", "Test & Eval", 3, (1, 3, 5), "#FF8C00"),
        Colour("red", "Fighters", 3, (2, 3, 6), "#DC143C"),
        Colour("yellow", "Mobility", 3, (2, 4, 6), "#FFD700"),
        Colour("green", "Elite Programs", 3, (2, 4, 7), "#228B22"),
        Colour("darkblue", "Command", 2, (3, 8), "#00308F"),
        Colour("base", "Overseas Bases", 4, (1, 2, 3, 4), "#2F4F4F"),
        Colour("intel", "Intelligence", 2, (1, 2), "#708090"),
    )
}
COLOUR_KEYS: tuple[str, ...] = tuple(COLOURS)

# The 28 fixed property cards (colour, name, bank value). Not editable: a colour's card count
# IS its set size, its zone cap and its completion count.
PROPERTIES: tuple[tuple[str, str, int], ...] = (
    ("brown", "Creech AFB", 1),
    ("brown", "Cannon AFB", 1),
    ("lightblue", "Lackland AFB (BMT)", 1),
    ("lightblue", "Keesler AFB", 1),
    ("lightblue", "Goodfellow AFB", 1),
    ("pink", "Peterson SFB", 2),
    ("pink", "Schriever SFB", 2),
    ("pink", "Buckley SFB", 2),
    ("orange", "Nellis AFB", 2),
    ("orange", "Eglin AFB", 2),
    ("orange", "Edwards AFB", 2),
    ("red", "F-22 Raptor", 3),
    ("red", "F-35 Lightning II", 3),
    ("red", "F-15 Eagle", 3),
    ("yellow", "KC-135 Stratotanker", 3),
    ("yellow", "C-17 Globemaster III", 3),
    ("yellow", "C-130 Hercules", 3),
    ("green", "Thunderbirds", 4),
    ("green", "Weapons School", 4),
    ("green", "Red Flag", 4),
    ("darkblue", "The Pentagon", 4),
    ("darkblue", "Air Force One", 4),
    ("base", "Ramstein AB", 2),
    ("base", "Kadena AB", 2),
    ("base", "Osan AB", 2),
    ("base", "Thule AB", 2),
    ("intel", "PAVE PAWS Radar", 1),
    ("intel", "GPS Constellation", 1),
)

RAINBOW_WILD_NAME = "Wild Property"
RAINBOW_WILD_TEXT = "Place in any colour. No cash value."

# `wildPairs: n` takes the first n entries, in this order (the stock deck uses 7).
PAIR_WILDS: tuple[tuple[tuple[str, str], str, int], ...] = (
    (("brown", "lightblue"), "Wild: Drone/Training", 1),
    (("pink", "orange"), "Wild: Space/Test", 2),
    (("red", "yellow"), "Wild: Fighter/Mobility", 3),
    (("green", "darkblue"), "Wild: Elite/Command", 4),
    (("base", "intel"), "Wild: Bases/Intel", 2),
    (("base", "green"), "Wild: Bases/Elite", 4),
    (("lightblue", "brown"), "Wild: Training/Drone", 1),
    (("pink", "orange"), "Wild: Space/Test", 2),
    (("red", "yellow"), "Wild: Fighter/Mobility", 3),
)

# Money: (value, copies) — 20 cards, 57M.
MONEY: tuple[tuple[int, int], ...] = ((1, 6), (2, 5), (3, 3), (4, 3), (5, 2), (10, 1))

# Rent: (colours, face value, copies). An empty colour tuple is the any-colour rent.
RENTS: tuple[tuple[tuple[str, ...], int, int], ...] = (
    (("brown", "lightblue"), 1, 2),
    (("pink", "orange"), 1, 2),
    (("red", "yellow"), 1, 2),
    (("green", "darkblue"), 1, 2),
    (("base", "intel"), 1, 2),
    ((), 3, 3),
)
RENT_PAIR_TEXT = "Charge every other player rent on one of these two colours."
RENT_ANY_TEXT = "Charge one player rent on any colour you hold."

ACTIONS: dict[str, ActionKind] = {
    a.key: a
    for a in (
        ActionKind(
            "inspector_general", "Inspector General", 5, 2,
            "Steal a complete property set from any player. OPSEC can block it.",
        ),
        ActionKind(
            "opsec", "OPSEC", 4, 3,
            "Counter any action card played against you. Can itself be countered by another"
            " OPSEC.",
        ),
        ActionKind(
            "midnight_requisition", "Midnight Requisition", 3, 3,
            "Steal a single property from any player. Cannot touch a complete set.",
        ),
        ActionKind(
            "tdy_orders", "TDY Orders", 3, 3,
            "Swap one of your properties for one of another player's. Neither card may come"
            " from a complete set.",
        ),
        ActionKind("finance_office", "Finance Office", 3, 3, "Collect 5M from any one player"),
        ActionKind("roll_call", "Roll Call", 2, 3, "All other players pay you 2M each"),
        ActionKind("pcs_orders", "PCS Orders", 1, 10, "Draw 2 extra cards from the deck"),
        ActionKind("upgrade", "Upgrade (House)", 3, 3, "Add to a complete set: +3M rent"),
        ActionKind(
            "foc", "Full Operational Capability (Hotel)", 4, 2,
            "Add to a complete set with Upgrade: +4M rent",
        ),
        ActionKind(
            "surge_ops", "Surge Operations", 1, 2,
            "Double your next RENT this turn — rent only, never a demand. Stacks.",
        ),
        ActionKind(
            "chud", "THE CHUD CARD", 4, 2,
            "Commandeer Hardware Under Directive — Steal ANY property from any player, even"
            " out of a complete set. OPSEC can block it.",
        ),
    )
}

# The 13 editable counts, in the order the lobby shows them.
DECK_KINDS: tuple[str, ...] = (*ACTIONS, "wildAny", "wildPairs")
STOCK_COUNTS: dict[str, int] = {**{k: a.stock for k, a in ACTIONS.items()}, "wildAny": 2,
                                "wildPairs": 7}
FIXED_CARDS = len(PROPERTIES) + sum(n for _, n in MONEY) + sum(n for _, _, n in RENTS)  # 61


def deck_size(counts: Mapping[str, int]) -> int:
    return FIXED_CARDS + sum(counts[k] for k in DECK_KINDS)


def _counts_key(counts: Mapping[str, int]) -> tuple[int, ...]:
    return tuple(int(counts.get(k, STOCK_COUNTS[k])) for k in DECK_KINDS)


def _colour_names(colours: tuple[str, ...]) -> str:
    return "/".join(COLOURS[c].name for c in colours)


@lru_cache(maxsize=64)
def _build(key: tuple[int, ...]) -> tuple[Card, ...]:
    counts = dict(zip(DECK_KINDS, key, strict=True))
    cards: list[Card] = []

    def add(kind: str, ckey: str, name: str, value: int, colours: tuple[str, ...],
            text: str) -> None:
        cards.append(Card(len(cards), kind, ckey, name, value, colours, text))

    for colour, name, value in PROPERTIES:
        add("property", "property", name, value, (colour,), f"{COLOURS[colour].name} property")
    for _ in range(counts["wildAny"]):
        add("wild", "wild_any", RAINBOW_WILD_NAME, 0, COLOUR_KEYS, RAINBOW_WILD_TEXT)
    for colours, name, value in PAIR_WILDS[: counts["wildPairs"]]:
        add("wild", "wild_pair", name, value, colours,
            f"Place in {_colour_names(colours).replace('/', ' or ')}.")
    for value, copies in MONEY:
        for _ in range(copies):
            add("money", "money", f"{value}M", value, (), "Money")
    # Actions in table order, CHUD excepted: it is emitted after the rents (pinned ids).
    for akey, kind in ACTIONS.items():
        if akey == "chud":
            continue
        for _ in range(counts[akey]):
            add("action", akey, kind.name, kind.value, (), kind.text)
    for colours, value, copies in RENTS:
        for _ in range(copies):
            if colours:
                add("rent", "rent_pair", f"Rent: {_colour_names(colours)}", value, colours,
                    RENT_PAIR_TEXT)
            else:
                add("rent", "rent_any", "Rent: Any Colour", value, COLOUR_KEYS, RENT_ANY_TEXT)
    chud = ACTIONS["chud"]
    for _ in range(counts["chud"]):
        add("action", "chud", chud.name, chud.value, (), chud.text)
    return tuple(cards)


def build_deck(counts: Mapping[str, int] | None = None) -> tuple[Card, ...]:
    """The deck for the 13 editable counts (missing counts take the stock value); ids 0..n-1."""
    return _build(_counts_key(counts or STOCK_COUNTS))


def card_dict(card: Card, colour: str | None = None) -> dict:
    """A card as views and events show it. `colour` is the zone a board card sits in."""
    return {
        "id": card.id,
        "kind": card.kind,
        "key": card.key,
        "name": card.name,
        "value": card.value,
        "colours": list(card.colours),
        "colour": colour,
    }


class Catalogue:
    """Parallel per-id lookups for one deck, built once and shared by every state using it."""

    __slots__ = ("_dicts", "_shared", "cards", "colours", "is_property", "is_wild", "key", "kind",
                 "rainbow", "size", "value")

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        self.size = len(cards)
        self.kind = [c.kind for c in cards]
        self.key = [c.key for c in cards]
        self.value = [c.value for c in cards]
        self.colours = [c.colours for c in cards]
        self.is_wild = [c.kind == "wild" for c in cards]
        self.is_property = [c.kind in ("property", "wild") for c in cards]
        self.rainbow = [c.key == "wild_any" for c in cards]
        self._dicts = [card_dict(c) for c in cards]
        self._shared: dict[str | None, list[dict]] = {}

    def card(self, cid: int, colour: str | None = None) -> dict:
        """A fresh `card_dict` for id `cid` (events and views)."""
        base = self._dicts[cid]
        return {**base, "colours": base["colours"][:], "colour": colour}

    def card_dicts(self, ids: Iterable[int], colour: str | None = None) -> list[dict]:
        """`[self.card(c, colour) for c in ids]`, in bulk (views show every card in play)."""
        out = list(map(dict.copy, map(self._dicts.__getitem__, ids)))
        for d in out:
            d["colours"] = d["colours"][:]
        if colour is not None:
            for d in out:
                d["colour"] = colour
        return out

    def shared_card_dicts(self, ids: Iterable[int], colour: str | None = None) -> list[dict]:
        """`card_dicts(ids, colour)` for readers that never change a card: one dict per card
        and zone colour, the same object in every list. Shared views show every card in play
        at every decision; building fresh dicts for them was most of what the garbage
        collector had to walk."""
        table = self._shared.get(colour)
        if table is None:
            table = self._shared[colour] = self.card_dicts(range(self.size), colour)
        return list(map(table.__getitem__, ids))


@lru_cache(maxsize=64)
def _catalogue(key: tuple[int, ...]) -> Catalogue:
    return Catalogue(_build(key))


_counts_in_order = itemgetter(*DECK_KINDS)
_INT_ONLY = {int}


def catalogue(counts: Mapping[str, int]) -> Catalogue:
    try:
        # A resolved ruleset's deck holds all 13 counts as ints: one C call, not a generator.
        key = _counts_in_order(counts)
    except (KeyError, TypeError):
        key = None
    if key is None or set(map(type, key)) != _INT_ONLY:
        key = _counts_key(counts)
    return _catalogue(key)
