"""The 20 cards of the two decks, exactly as the game guide lists them (10 per deck).

A card is an int id: 0–9 the market deck, 10–19 the state-aid deck. `effect` names what the
engine does (apply.py `_card_effect`); `amount` / `per_branch` / `per_holding` are its numbers.
Each deck is shuffled once at the start and then goes round in a loop (state["decks"]).
"""

from __future__ import annotations

from typing import Any

MARKET = "market"
AID = "aid"

CARDS: tuple[dict[str, Any], ...] = (
    {"id": 0, "deck": MARKET, "title": "New contracts",
     "text": "Go to start and collect your salary", "effect": "to_start"},
    {"id": 1, "deck": MARKET, "title": "Unexpected trip",
     "text": "Transfer to a random tile, excluding your current tile and the last random "
             "destination; no salary for passing start, only for landing on it",
     "effect": "random_transfer"},
    {"id": 2, "deck": MARKET, "title": "Urgent shipment", "text": "Go to the nearest logistics",
     "effect": "nearest_logistics"},
    {"id": 3, "deck": MARKET, "title": "A surprise audit", "text": "Off to the tax office",
     "effect": "to_audit"},
    {"id": 4, "deck": MARKET, "title": "Your lawyer won the case", "text": "A release card",
     "effect": "release"},
    {"id": 5, "deck": MARKET, "title": "A contract fell through", "text": "Go back three steps",
     "effect": "back_three"},
    {"id": 6, "deck": MARKET, "title": "Dividends on deposits", "text": "+150",
     "effect": "gain", "amount": 150},
    {"id": 7, "deck": MARKET, "title": "Fine for a late report", "text": "−100",
     "effect": "fee", "amount": 100},
    {"id": 8, "deck": MARKET, "title": "The office party is on you", "text": "50 to each rival",
     "effect": "pay_each", "amount": 50},
    {"id": 9, "deck": MARKET, "title": "Equipment repairs",
     "text": "25 per branch, 100 per holding", "effect": "repairs",
     "per_branch": 25, "per_holding": 100},
    {"id": 10, "deck": AID, "title": "VAT refund", "text": "+200", "effect": "gain",
     "amount": 200},
    {"id": 11, "deck": AID, "title": "State subsidy", "text": "+100", "effect": "gain",
     "amount": 100},
    {"id": 12, "deck": AID, "title": "Sold your old equipment", "text": "+50", "effect": "gain",
     "amount": 50},
    {"id": 13, "deck": AID, "title": "A supplier sues you", "text": "−150", "effect": "fee",
     "amount": 150},
    {"id": 14, "deck": AID, "title": "Audit fees", "text": "−50", "effect": "fee", "amount": 50},
    {"id": 15, "deck": AID, "title": "You won the tender", "text": "Each rival pays you 50",
     "effect": "collect_each", "amount": 50},
    {"id": 16, "deck": AID, "title": "A friend at the city council", "text": "A release card",
     "effect": "release"},
    {"id": 17, "deck": AID, "title": "A rival files a complaint", "text": "Off to the tax office",
     "effect": "to_audit"},
    {"id": 18, "deck": AID, "title": "The annual report is filed",
     "text": "Go to start and collect your salary", "effect": "to_start"},
    {"id": 19, "deck": AID, "title": "Modernisation", "text": "40 per branch, 115 per holding",
     "effect": "repairs", "per_branch": 40, "per_holding": 115},
)

DECK_IDS: dict[str, tuple[int, ...]] = {
    MARKET: tuple(c["id"] for c in CARDS if c["deck"] == MARKET),
    AID: tuple(c["id"] for c in CARDS if c["deck"] == AID),
}
RELEASE_CARDS = frozenset(c["id"] for c in CARDS if c["effect"] == "release")


def card_table() -> list[dict[str, Any]]:
    """Both decks as JSON-able data, for the rules page."""
    return [dict(c) for c in CARDS]
