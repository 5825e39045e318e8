"""Engine data for the site's /rules page, so every number the page shows comes from here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .apply import FINANCE_OFFICE_AMOUNT, ROLL_CALL_AMOUNT
from .board import FOC_BONUS, HOUSE_BONUS
from .cards import ACTIONS, COLOURS, MONEY, PAIR_WILDS, RENTS, build_deck
from .rulesets import (
    DECK_MAX,
    DECK_MIN,
    EDITABLE_DECK_COUNTS,
    PRESET_NAMES,
    PRESETS,
    TOGGLES,
    resolve_ruleset,
)
from .state import (
    CONTEST_LAP_CAP,
    DECK_CYCLE_LIMIT,
    EMPTY_HAND_DRAW,
    HAND_LIMIT,
    MAX_SEATS,
    MIN_SEATS,
    OPENING_HAND,
    PCS_DRAW,
    PLAYS_PER_TURN,
    REARRANGE_BUDGET,
    SWAP_COST,
    TURN_DRAW,
)

WIN_LANDS: dict[str, str] = {
    "chudopoly": "Reaching the last set arms final approach: every other player gets one full"
                 " turn to break it before the win resolves at your own turn start.",
    "mdFaithful": "The rulebook. Completing on your own turn wins on the spot; a set handed to"
                  " you during someone else's turn waits for your next turn.",
    "blitz": "The last set wins the instant it lands, on anyone's turn.",
    "longGame": "Five sets, final approach, roughly twice the length.",
}

FAMILY_ORDER = ("property", "wild", "rent", "money", "action")
FAMILY_NAMES = {"property": "Properties", "wild": "Property wilds", "rent": "Rent",
                "money": "Money", "action": "Action"}


def deck_families(ruleset: Mapping[str, Any] | None = None) -> dict[str, int]:
    """Card counts per family for a ruleset's deck, plus "total"."""
    rules = resolve_ruleset(ruleset)
    counts = Counter(c.kind for c in build_deck(rules["deck"]))
    out = {family: counts[family] for family in FAMILY_ORDER}
    out["total"] = sum(out.values())
    return out


def describe_rules(ruleset: Mapping[str, Any] | None = None) -> dict:
    """Everything the rules page renders, for a ruleset (default: the Chudopoly preset)."""
    rules = resolve_ruleset(ruleset)
    return {
        "ruleset": rules,
        "colours": [
            {"key": c.key, "name": c.name, "set_size": c.set_size, "rents": list(c.rents),
             "bg": c.bg}
            for c in COLOURS.values()
        ],
        "actions": [
            {"key": a.key, "name": a.name, "count": rules["deck"][a.key], "value": a.value,
             "text": a.text}
            for a in ACTIONS.values()
        ],
        "families": deck_families(rules),
        "family_names": FAMILY_NAMES,
        "money": [{"value": v, "count": n} for v, n in MONEY],
        "money_total": sum(v * n for v, n in MONEY),
        "rents": [
            {"colours": list(cols), "value": value, "count": n, "targets":
             "every other player" if cols else "one chosen player"}
            for cols, value, n in RENTS
        ],
        "pair_wilds": [
            {"colours": list(cols), "name": name, "value": value, "in_deck":
             i < rules["deck"]["wildPairs"]}
            for i, (cols, name, value) in enumerate(PAIR_WILDS)
        ],
        "rainbow_wilds": rules["deck"]["wildAny"],
        "presets": [
            {"key": key, "name": PRESET_NAMES[key], "setsToWin": p["setsToWin"],
             "winRule": p["winRule"], "when": WIN_LANDS[key],
             "toggles": {k: p[k] for k in TOGGLES}, "deck_total": deck_families(p)["total"]}
            for key, p in PRESETS.items()
        ],
        "toggles": {k: list(v) for k, v in TOGGLES.items()},
        "editable_deck_counts": {k: list(v) for k, v in EDITABLE_DECK_COUNTS.items()},
        "constants": {
            "hand_limit": HAND_LIMIT,
            "plays_per_turn": PLAYS_PER_TURN,
            "rearranges_per_turn": REARRANGE_BUDGET,
            "swap_cost": SWAP_COST,
            "deck_cycle_limit": DECK_CYCLE_LIMIT,
            "contest_lap_cap": CONTEST_LAP_CAP,
            "opening_hand": OPENING_HAND,
            "turn_draw": TURN_DRAW,
            "empty_hand_draw": EMPTY_HAND_DRAW,
            "pcs_draw": PCS_DRAW,
            "upgrade_bonus": HOUSE_BONUS,
            "foc_bonus": FOC_BONUS,
            "finance_office_amount": FINANCE_OFFICE_AMOUNT,
            "roll_call_amount": ROLL_CALL_AMOUNT,
            "min_seats": MIN_SEATS,
            "max_seats": MAX_SEATS,
            "deck_min": DECK_MIN,
            "deck_max": DECK_MAX,
        },
    }
