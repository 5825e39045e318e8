"""Boardroom's rules page data (/rules/boardroom): the board table and both decks come out of
the engine (`board_table`, `card_table`) and its constants, so the page and the game agree."""

from __future__ import annotations

from typing import Any

from .engine.board import (
    AUDIT_BAIL,
    EXCISE_DUTY,
    INDUSTRY_NAMES,
    LOGISTICS_RENT,
    SALARY,
    UTILITY_FACTOR,
    board_table,
)
from .engine.cards import card_table
from .engine.state import (
    ASK_PAUSE_ROUNDS,
    AUDIT_TRIES,
    BETTER_BY,
    BID_STEP,
    BRANCH_STOCK,
    HOLDING_STOCK,
    MAX_SEATS,
    MIN_SEATS,
    START_CASH,
    TURN_CAP,
)


def rules_context() -> dict[str, Any]:
    tiles = board_table()
    for t in tiles:
        t["industry_name"] = INDUSTRY_NAMES.get(t.get("industry") or "", "")
        t["first_bid"] = -(-t["price"] * 3 // 4) if t.get("price") else None
    industries = []
    for key, name in INDUSTRY_NAMES.items():
        members = [t for t in tiles if t.get("industry") == key]
        industries.append({"key": key, "name": name, "tiles": members,
                           "branch_cost": members[0]["branch_cost"]})
    cards = card_table()
    return {
        "tiles": tiles, "industries": industries,
        "others": [t for t in tiles if t["kind"] != "business"],
        "market": [c for c in cards if c["deck"] == "market"],
        "aid": [c for c in cards if c["deck"] == "aid"],
        "n": {"start_cash": START_CASH, "salary": SALARY, "excise": EXCISE_DUTY,
              "bail": AUDIT_BAIL, "tries": AUDIT_TRIES, "bid_step": BID_STEP,
              "branches": BRANCH_STOCK, "holdings": HOLDING_STOCK,
              "min_seats": MIN_SEATS, "max_seats": MAX_SEATS, "better_by": BETTER_BY,
              "ask_pause": ASK_PAUSE_ROUNDS, "turn_cap": TURN_CAP,
              "logistics": " / ".join(str(x) for x in LOGISTICS_RENT[1:]),
              "utilities": " / ".join(f"{x} ×" for x in UTILITY_FACTOR[1:])},
    }
