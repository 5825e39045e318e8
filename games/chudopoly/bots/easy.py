"""The easy bot (level "easy", alias "basic"): legal and sensible, but naive.

It builds before it attacks, never scoops, never rearranges, pays with the cheapest listed
selection and answers charges by accepting (it spends OPSEC only on set-stealing cards). It
does not look at who is winning: targets, colours and cards inside a preference band are picked
at random, seeded from the view, so a rerun of the same position picks the same move.
"""

from __future__ import annotations

import random
from typing import Any

from .observe import draws_nothing, rng_for

# Higher is preferred. Moves and swaps are left out: they cost nothing and could loop.
_PLAY_ORDER = {
    "place": 60,
    "action": 50,
    "bank": 20,
    "end_turn": 0,
}
_BIG_ACTIONS = {"pcs_orders": 70, "inspector_general": 65, "chud": 64,
                "midnight_requisition": 55, "rent_pair": 52, "rent_any": 52,
                "finance_office": 54, "roll_call": 53, "upgrade": 58, "foc": 58,
                "tdy_orders": 30, "surge_ops": 10}


def _rng(view: dict[str, Any]) -> random.Random:
    return rng_for(view, "easy")


def _cards_by_id(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    cards: dict[int, dict[str, Any]] = {c["id"]: c for c in view.get("hand", [])}
    for player in view.get("players", []):
        for c in player.get("bank", []):
            cards[c["id"]] = c
        for zone in player.get("zones", []):
            for c in zone.get("cards", []) + zone.get("upgrades", []):
                cards[c["id"]] = c
    return cards


def choose_any(view: dict[str, Any]) -> dict[str, Any]:
    legal = [a for a in view["legal"] if a.get("type") != "scoop"] or view["legal"]
    return _rng(view).choice(legal)


def _score(action: dict[str, Any], cards: dict[int, dict[str, Any]], idle_pcs: bool) -> int:
    kind = action.get("type")
    if kind == "action":
        card = cards.get(action.get("card"), {})
        if idle_pcs and card.get("key") == "pcs_orders":
            return -100  # it would draw back only itself (observe.draws_nothing)
        return _BIG_ACTIONS.get(card.get("key"), 40)
    if kind == "bank":
        card = cards.get(action.get("card"), {})
        # Bank money before action cards.
        return 25 if card.get("kind") == "money" else 15
    return _PLAY_ORDER.get(kind, -100)


def choose_action(view: dict[str, Any]) -> dict[str, Any]:
    legal = [a for a in view["legal"] if a.get("type") != "scoop"]
    if not legal:
        return view["legal"][0]
    rng = _rng(view)
    cards = _cards_by_id(view)
    types = {a.get("type") for a in legal}

    if "respond" in types:
        pending = view.get("pending") or {}
        kind = pending.get("kind") or ""
        wants_block = kind in ("inspector_general", "chud")
        answers = {a.get("answer"): a for a in legal if a.get("type") == "respond"}
        if wants_block and "opsec" in answers:
            return answers["opsec"]
        if "accept" in answers:
            return answers["accept"]

    if "pay" in types:
        pays = [a for a in legal if a.get("type") == "pay"]
        return min(pays, key=lambda a: (sum(cards.get(c, {}).get("value", 0)
                                            for c in a.get("cards", [])), len(a["cards"])))

    if "discard" in types:
        discards = [a for a in legal if a.get("type") == "discard"]
        return min(discards, key=lambda a: sum(cards.get(c, {}).get("value", 0)
                                               for c in a.get("cards", [])))

    idle_pcs = draws_nothing(view.get("deck_count", 0), view.get("discard_count", 0))
    scored = [(_score(a, cards, idle_pcs), a) for a in legal]
    best = max(s for s, _ in scored)
    band = [a for s, a in scored if s == best]
    return rng.choice(band)
