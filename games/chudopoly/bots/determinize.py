"""Sampling full game states ("worlds") that agree with everything one seat can see.

The engine has no way to build a state from a view, and needs none: a state is plain data
(games/chudopoly/engine/state.py documents its shape), so this module writes one. What the seat sees
is copied as is — its own hand, every board, bank and upgrade, the discard pile in order, hand
counts, the turn, plays and rearranges left, the pending action, armed seats. What it cannot see
is dealt at random: the cards it has never seen (the ruleset's full deck minus every visible
card) are shuffled and dealt into the other players' hands, each to its known count, and the
rest become the deck, in random order.

A sampled world never uses anything the seat could not know: `sample_world` takes the view and
nothing else, so the true hands and deck order cannot leak into it.

Three counters a view does not show are approximated, all of which only matter for rare points
endings: `hand_snapshot` (hand total at the last turn start, taken as now), `idle_turns` (0) and
the exact turn a contest opened (worked back from the whole laps the view shows).
"""

from __future__ import annotations

import random
from typing import Any

from games.chudopoly.engine.cards import catalogue
from games.chudopoly.engine.state import seed_rng


def visible_cards(view: dict[str, Any]) -> set[int]:
    """Every card id the seat can see placed: own hand, boards, upgrades, banks, discard."""
    seen = {c["id"] for c in view["hand"]}
    for p in view["players"]:
        seen.update(c["id"] for c in p["bank"])
        for z in p["zones"]:
            seen.update(c["id"] for c in z["cards"])
            seen.update(c["id"] for c in z["upgrades"])
    seen.update(c["id"] for c in view["discard"])
    return seen


def unseen_cards(view: dict[str, Any]) -> list[int]:
    """The cards the seat has not seen placed: other hands and the deck, together."""
    size = catalogue(view["ruleset"]["deck"]).size
    seen = visible_cards(view)
    return [c for c in range(size) if c not in seen]


def hidden_slots(view: dict[str, Any]) -> dict[int, int]:
    """How many unseen cards each other seat holds (the rest are the deck)."""
    me = view["viewer"]
    return {p["seat"]: p["hand_count"] for p in view["players"] if p["seat"] != me}


def _pending(view: dict[str, Any]) -> dict[str, Any] | None:
    pending = view.get("pending")
    if pending is None:
        return None
    out = dict(pending)
    for k in ("card", "take", "give"):
        if isinstance(out.get(k), dict):
            out[k] = out[k]["id"]
    out["targets"] = [dict(t) for t in pending["targets"]]
    return out


BREAKERS = frozenset({"inspector_general", "chud"})


def turn_seats(view: dict[str, Any], first: int) -> dict[int, int]:
    """The seat that played each whole turn from turn number `first` up to (not including) the
    current one, worked back through the active seats' rotation. A seat that left the game in
    between would shift the mapping; the callers only use it as a prior."""
    players = view["players"]
    order = [s for s in (view.get("order") or range(len(players))) if players[s]["active"]]
    if view["turn"] not in order:
        return {}
    cur = order.index(view["turn"])
    now = view["turn_number"]
    return {t: order[(cur - (now - t)) % len(order)] for t in range(max(1, first), now)}


def inferred_absent(view: dict[str, Any]) -> dict[int, frozenset[str]]:
    """Card kinds that public play says another seat does not hold, {seat: card keys}.

    While an opponent is armed on exactly the winning set count, any Inspector General or
    CHUD landed on one of its sets breaks its approach, and a player who holds one shoots it
    (the medium bot scores that play above every other, REFERENCE §8; so would most people).
    So a seat that played a whole turn after the arming, with the armed player still armed
    now, ended that turn without a breaker; its hand has not changed since (cards only enter a
    hand on its owner's turn). The inference can be wrong (three shots blocked by OPSEC, a
    breaker drawn with the last play): `sample_world` uses it only while it can be met."""
    me = view["viewer"]
    players = view["players"]
    target = view["ruleset"]["setsToWin"]
    out: dict[int, frozenset[str]] = {}
    for x in players:
        if not x["active"] or x.get("armed_at") is None or x.get("sets") != target:
            continue
        for seat in turn_seats(view, x["armed_at"] + 1).values():
            if seat != me and seat != x["seat"] and players[seat]["active"]:
                out[seat] = BREAKERS
    return out


def _deal(pool: list[int], slots: dict[int, int], absent: dict[int, frozenset[str]],
          key: list[str]) -> tuple[dict[int, list[int]], list[int]] | None:
    """Hands for `slots` and the deck from the shuffled `pool`, each seat in `absent` dealt
    only cards of other kinds (None if that cannot be met). The constrained seats take the
    first allowed cards of the shuffled pool: with one forbidden set for all of them, every
    deal that meets the constraints is then equally likely."""
    rest = pool[:]
    hands: dict[int, list[int]] = {}
    for seat in sorted(absent):
        n = slots.get(seat, 0)
        allowed = [i for i, c in enumerate(rest) if key[c] not in absent[seat]][:n]
        if len(allowed) < n:
            return None
        taken = set(allowed)
        hands[seat] = [rest[i] for i in allowed]
        rest = [c for i, c in enumerate(rest) if i not in taken]
    for seat in sorted(slots):
        if seat not in hands:
            hands[seat] = rest[:slots[seat]]
            rest = rest[slots[seat]:]
    return hands, rest


def card_sort(cat: Any, cid: int) -> str:
    """The card's sort for a hand prior: its kind, or for an action card its key."""
    kind = cat.kind[cid]
    return cat.key[cid] if kind == "action" else kind


def _weighted_order(pool: list[int], hand_cards: int, prior: dict[str, float], cat: Any,
                    rng: random.Random) -> list[int]:
    """`pool` reordered so that its first `hand_cards` cards (the hands') are a sample without
    replacement weighted by `prior` (exponential keys: Efraimidis and Spirakis), in random
    order, and the rest (the deck) in random order too."""
    keyed = sorted(pool, key=lambda c: rng.expovariate(1.0) / prior.get(card_sort(cat, c), 1.0))
    hands, deck = keyed[:hand_cards], keyed[hand_cards:]
    rng.shuffle(hands)
    rng.shuffle(deck)
    return hands + deck


def sample_world(view: dict[str, Any], rng: random.Random, infer: bool = False,
                 prior: dict[str, float] | None = None) -> dict[str, Any]:
    """One full state consistent with `view`, its hidden cards dealt at random by `rng`. With
    `infer` the other hands also respect `inferred_absent` (when the unseen cards allow it);
    with `prior` ({card sort: weight}) hands are dealt each sort in proportion to its weight
    (what players keep in hand is not a uniform draw from the cards unseen)."""
    me = view["viewer"]
    pool = unseen_cards(view)
    slots = hidden_slots(view)
    if sum(slots.values()) + view["deck_count"] != len(pool):
        raise ValueError("the view's card counts do not add up to its unseen cards")
    cat = catalogue(view["ruleset"]["deck"])
    if prior:
        pool = _weighted_order(pool, sum(slots.values()), prior, cat, rng)
    else:
        rng.shuffle(pool)
    absent = inferred_absent(view) if infer else {}
    dealt = _deal(pool, slots, absent, cat.key) if absent else None
    if dealt is None:
        dealt = _deal(pool, slots, {}, [])  # no constraint reads the card kinds
    assert dealt is not None
    hands, deck = dealt
    players = []
    for p in view["players"]:
        seat = p["seat"]
        hand = [c["id"] for c in view["hand"]] if seat == me else hands[seat]
        players.append({
            "hand": hand,
            "bank": [c["id"] for c in p["bank"]],
            "zones": {z["colour"]: [c["id"] for c in z["cards"]] for z in p["zones"]},
            "upgrades": {z["colour"]: [c["id"] for c in z["upgrades"]]
                         for z in p["zones"] if z["upgrades"]},
            "active": p["active"],
            "armed_at": p.get("armed_at"),
        })
    active = sum(1 for p in players if p["active"])
    contested_since = None
    if view.get("contested"):
        contested_since = view["turn_number"] - view.get("contest_laps", 0) * max(1, active)
    return {
        "version": view["version"],
        "ruleset": view["ruleset"],
        "seed": 0,
        "rng": seed_rng(rng.getrandbits(63)),
        "order": list(view.get("order") or range(len(players))),
        "players": players,
        "deck": deck,
        "discard": [c["id"] for c in reversed(view["discard"])],
        "turn": view["turn"],
        "turn_number": view["turn_number"],
        "phase": view["phase"],
        "plays_left": view["plays_left"],
        "rearranges_left": view["rearranges_left"],
        "surge": view["surge"],
        "pending": _pending(view),
        "shuffle_count": view["shuffle_count"],
        "hand_snapshot": sum(len(p["hand"]) for p in players),
        "idle_turns": 0,
        "contested_since": contested_since,
        "scooped": [p["seat"] for p in view["players"] if not p["active"]],
        "result": view.get("result"),
    }
