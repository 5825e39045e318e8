"""Build a state from a compact description, so a test reads like the ruling it checks.

    st = scenario(
        seats=3,
        hands={0: ["midnight_requisition"], 1: ["opsec"]},
        boards={1: {"red": ["F-22 Raptor", "wild:red/yellow"]}},
        turn=0,
    )
    take = card(st, "F-22 Raptor")

Card descriptors: a property's name ("F-22 Raptor"), "property:red" (any red property),
"wild_any", "wild:red/yellow" (a two-colour wild), "money:5", "rent:red/yellow", "rent_any",
an action key ("opsec", "chud", "upgrade", ...), or an int card id. Each descriptor takes the
first unused matching card. Cards not placed anywhere go below `deck_top` in the deck (or to
`rest`: "discard", "hand:N", "bank:N").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .cards import Catalogue
from .invariants import check_invariants
from .rulesets import resolve_ruleset
from .state import (
    PLAYS_PER_TURN,
    REARRANGE_BUDGET,
    catalogue_for,
    rng_shuffle,
    seed_rng,
    zone_of,
)

Descriptor = str | int


def matches(cat: Catalogue, cid: int, d: Descriptor) -> bool:
    if isinstance(d, int):
        return cid == d
    card = cat.cards[cid]
    if d == card.name and card.kind == "property":
        return True
    head, _, tail = d.partition(":")
    if head == "property":
        return card.kind == "property" and card.colours == (tail,)
    if d in ("wild_any", "wild"):
        return card.key == "wild_any"
    if head == "wild" and tail:
        return card.key == "wild_pair" and set(card.colours) == set(tail.split("/"))
    if head == "money":
        return card.kind == "money" and card.value == int(tail)
    if head == "rent" and tail:
        return card.key == "rent_pair" and set(card.colours) == set(tail.split("/"))
    if d == "rent_any":
        return card.key == "rent_any"
    return card.kind == "action" and card.key == d


def scenario(
    *,
    ruleset: Mapping[str, Any] | None = None,
    seats: int = 2,
    hands: Mapping[int, Iterable[Descriptor]] | None = None,
    banks: Mapping[int, Iterable[Descriptor]] | None = None,
    boards: Mapping[int, Mapping[str, Iterable[Descriptor]]] | None = None,
    upgrades: Mapping[int, Mapping[str, Iterable[Descriptor]]] | None = None,
    deck_top: Iterable[Descriptor] = (),
    discard: Iterable[Descriptor] = (),
    rest: str = "deck",
    turn: int = 0,
    turn_number: int = 1,
    plays_left: int = PLAYS_PER_TURN,
    rearranges_left: int = REARRANGE_BUDGET,
    surge: int = 0,
    armed: Mapping[int, int] | None = None,
    scooped: Iterable[int] = (),
    order: Iterable[int] | None = None,
    seed: int = 0,
    **extra: Any,
) -> dict:
    """A play-phase state (after the turn's draw) for `turn`, as described."""
    rules = resolve_ruleset(ruleset)
    state: dict[str, Any] = {"ruleset": rules}
    cat = catalogue_for(state)
    free = list(range(cat.size))

    def take(d: Descriptor) -> int:
        for i, cid in enumerate(free):
            if matches(cat, cid, d):
                del free[i]
                return cid
        raise ValueError(f"no unused card matches {d!r}")

    players = [{"hand": [], "bank": [], "zones": {}, "upgrades": {}, "active": True,
                "armed_at": None} for _ in range(seats)]
    for seat, ds in (boards or {}).items():
        for colour, cards in ds.items():
            zone_of(players[seat]["zones"], colour).extend(take(d) for d in cards)
    for seat, ds in (upgrades or {}).items():
        for colour, cards in ds.items():
            zone_of(players[seat]["upgrades"], colour).extend(take(d) for d in cards)
    for seat, cards in (hands or {}).items():
        players[seat]["hand"] = [take(d) for d in cards]
    for seat, cards in (banks or {}).items():
        players[seat]["bank"] = [take(d) for d in cards]
    top = [take(d) for d in deck_top]
    pile = [take(d) for d in discard]
    rng = seed_rng(seed)
    rng = rng_shuffle(free, rng)
    deck: list[int] = []
    if rest == "deck":
        deck = free
    elif rest == "discard":
        pile = free + pile
    else:
        where, _, n = rest.partition(":")
        players[int(n)][where].extend(free)
    deck = deck + top[::-1]
    for seat, at in (armed or {}).items():
        players[seat]["armed_at"] = at
    scooped = list(scooped)
    for seat in scooped:
        players[seat]["active"] = False
    state.update({
        "version": 0,
        "seed": seed,
        "rng": rng,
        "order": list(order) if order is not None else list(range(seats)),
        "players": players,
        "deck": deck,
        "discard": pile,
        "turn": turn,
        "turn_number": turn_number,
        "phase": "play",
        "plays_left": plays_left,
        "rearranges_left": rearranges_left,
        "surge": surge,
        "pending": None,
        "shuffle_count": 0,
        "hand_snapshot": sum(len(p["hand"]) for p in players),
        "idle_turns": 0,
        "contested_since": None,
        "scooped": scooped,
        "result": None,
    })
    state.update(extra)
    problems = check_invariants(state)
    if problems:
        raise ValueError(f"scenario is not a sound state: {problems}")
    return state


def card(state: dict, d: Descriptor, seat: int | None = None) -> int:
    """The id of the first card matching `d`: in `seat`'s hand, bank, board and upgrades (or
    every seat's, then the deck and discard, when seat is None)."""
    cat = catalogue_for(state)
    seats = [seat] if seat is not None else range(len(state["players"]))
    places: list[list[int]] = []
    for s in seats:
        p = state["players"][s]
        places += [p["hand"], p["bank"], *p["zones"].values(), *p["upgrades"].values()]
    if seat is None:
        places += [state["deck"], state["discard"]]
    for ids in places:
        for cid in ids:
            if matches(cat, cid, d):
                return cid
    raise KeyError(f"no card matches {d!r}")
