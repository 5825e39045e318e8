"""Chudopoly's rules page data (/rules/chudopoly): every number on it comes out of the engine
(`describe_rules`); the platform adds its clock limits (games/platform/rules_page.py)."""

from __future__ import annotations

from typing import Any

from games.chudopoly.engine.cards import ACTIONS, PAIR_WILDS
from games.chudopoly.engine.describe import describe_rules
from games.chudopoly.engine.rulesets import (
    MD_EQUIVALENTS,
    MD_PRESET,
    PRESET_NAMES,
    PRESETS,
    TOGGLES,
)

WIN_RULE_NAMES = {
    "finalApproach": "Final approach",
    "mdFaithful": "MD Faithful",
    "instant": "Instant",
}


def _rent_ladder(rents: list[int]) -> str:
    return " · ".join(f"{count} → {amount}M" for count, amount in enumerate(rents, start=1))


def rules_context() -> dict[str, Any]:
    data = describe_rules()
    colour_names = {c["key"]: c["name"] for c in data["colours"]}
    sets = [{**c, "ladder": _rent_ladder(c["rents"])} for c in data["colours"]]
    rents = [
        {**r, "label": " / ".join(colour_names[k] for k in r["colours"]) or "Any colour"}
        for r in data["rents"]
    ]
    pair_wilds = [
        {**w, "label": " / ".join(colour_names[k] for k in w["colours"])}
        for w in data["pair_wilds"]
        if w["in_deck"]
    ]
    families = [
        {"name": data["family_names"][key], "count": data["families"][key]}
        for key in data["family_names"]
    ]
    presets = [
        {**p, "win_rule_name": WIN_RULE_NAMES[p["winRule"]]} for p in data["presets"]
    ]
    by_key = {a["key"]: a for a in data["actions"]}
    constants = data["constants"]
    return {
        **data,
        "sets": sets,
        "rent_cards": rents,
        "pair_wilds_in_deck": pair_wilds,
        "family_rows": families,
        "preset_rows": presets,
        "c": constants,
        "a": by_key,
        "largest_set": max(c["set_size"] for c in data["colours"]),
        "upgrade_example": 8 + constants["upgrade_bonus"] + constants["foc_bonus"],
    }


# --- How Chudopoly differs from Monopoly Deal ---------------------------------------------------
# Two kinds of departure. Those of the Chudopoly preset's rules, found by comparing it with the
# MD Faithful preset toggle by toggle and count by count (so a change to either preset shows
# here by itself), and those the engine makes in every preset, MD Faithful included.

SOURCES = [
    {"name": "Monopoly Deal card game rules (Hasbro), read aloud in full in a rules video",
     "what": "object, setup, the turn, the three ways to play a card, paying, wilds, rent, "
             "Double The Rent, houses and hotels, Just Say No, winning"},
    {"name": "Hasbro customer-service answers on Monopoly Deal",
     "what": "Sly Deal and Forced Deal never touch a complete set; wilds may be rearranged "
             "freely on your own turn"},
    {"name": "Monopoly Deal printings since 2017",
     "what": "a set made only of multicolour wilds does not count"},
]


def _toggle_departure(key: str, ours: Any, md: Any, c: dict[str, Any]) -> dict[str, str]:
    """The words for one toggle on which the Chudopoly preset leaves the rulebook."""
    if key == "winRule":
        return {
            "rule": "When the win lands",
            "original": "Completing your third set on your own turn wins at once; a set that "
                        "reaches you on someone else's turn waits for your next turn.",
            "ours": "Reaching the last set arms final approach: every other player gets one "
                    "full turn to break it, and the win lands at the start of your own turn.",
        }
    if key == "pureSetRequired":
        return {
            "rule": "Sets of multicolour wilds only",
            "original": "A set must hold at least one card that is not a multicolour wild.",
            "ours": "Rainbow wilds alone make a complete set.",
        }
    if key == "counterCostsPlay":
        return {
            "rule": "Just Say No on your own turn",
            "original": "Saying no on your own turn, to block a No against your action, is one "
                        f"of your {c['plays_per_turn']} plays.",
            "ours": "OPSEC never costs a play, on your turn or anyone's.",
        }
    if key == "passGoRestartsTurn":
        return {"rule": "Pass Go", "original": "Draws 2 cards; it is one of your plays.",
                "ours": f"PCS Orders draws {c['pcs_draw']} and restarts your plays."}
    if key == "setsToWin":
        return {"rule": "Sets to win", "original": f"{md} complete sets of different colours.",
                "ours": f"{ours} complete sets of different colours."}
    if key == "suddenDeath":
        return {"rule": "Two players on the brink at once",
                "original": "No such rule: whoever wins first wins.",
                "ours": f"Contested approach is {ours}."}
    return {"rule": key, "original": str(md), "ours": str(ours)}


def _deck_departure(key: str, ours: int, md: int) -> dict[str, str]:
    if key == "chud":
        return {
            "rule": f"{ACTIONS['chud'].name} (no Monopoly Deal card)",
            "original": "No card steals a single property out of a complete set; only Deal "
                        "Breaker breaks into one, and it takes the whole set.",
            "ours": f"{ours} copies of {ACTIONS['chud'].name}, which take any one property, "
                    "even from a complete set. OPSEC can block it.",
        }
    if key == "wildPairs":
        extra = ", ".join(f"{name} ({value}M)" for _, name, value in PAIR_WILDS[ours:md])
        return {
            "rule": "Two-colour property wilds",
            "original": f"{md} two-colour wilds.",
            "ours": f"{ours} two-colour wilds: the deck leaves out {extra}.",
        }
    name = ACTIONS[key].name if key in ACTIONS else key
    equivalent = MD_EQUIVALENTS.get(key) or name
    return {"rule": f"How many {equivalent} cards", "original": f"{md} in the deck.",
            "ours": f"{ours} {name} in the deck."}


def _everywhere(c: dict[str, Any], a: dict[str, Any]) -> list[dict[str, str]]:
    """Departures the engine makes under every preset, MD Faithful included."""
    return [
        {"rule": "Names and faces",
         "original": "Streets, stations and utilities of the Monopoly board.",
         "ours": "Original names and artwork throughout; the Monopoly Deal rules page gives "
                 "each card's counterpart."},
        {"rule": "More properties than a set holds",
         "original": "Extra properties of a colour start a second set of that colour.",
         "ours": "A colour zone never holds more cards than its set size; a placement that "
                 "would overflow it is refused, and a card you receive without room goes to "
                 "another colour it can take, or to your bank as money."},
        {"rule": "Rearranging your wilds",
         "original": "Free and unlimited on your own turn.",
         "ours": f"Free on your own turn, up to {c['rearranges_per_turn']} moves a turn; "
                 f"swapping two of your own wilds in one step costs {c['swap_cost']} of them."},
        {"rule": "Paying with multicolour wilds",
         "original": "A multicolour wild has no value and is never handed over.",
         "ours": "A player who cannot cover a debt surrenders everything, zero-value rainbow "
                 "wilds included."},
        {"rule": "Houses and hotels on railroads and utilities",
         "original": "Houses and hotels never go on railroads or utilities.",
         "ours": f"{a['upgrade'].name} and {a['foc'].name} go on any complete set, Overseas "
                 "Bases and Intelligence included."},
        {"rule": "A set with a house that stops being complete",
         "original": "Its house and hotel are discarded.",
         "ours": f"Its {a['upgrade'].name} and {a['foc'].name} go to the owner's bank as "
                 "money."},
        {"rule": "A game that cannot finish",
         "original": "No ending but three sets: play goes on.",
         "ours": "If the draw and discard piles are both empty and a full round passes with "
                 f"no card played, or the discard has been shuffled back "
                 f"{c['deck_cycle_limit']} times, the game is decided on points."},
        {"rule": "Resigning and clocks",
         "original": "Not covered: a table game.",
         "ours": "You may scoop (resign) at any time, and each table has a turn clock and a "
                 "response clock; a bot keeps your seat warm if you leave."},
    ]


def differences_context() -> dict[str, Any]:
    """The departures of the Chudopoly preset from Monopoly Deal, from the engine's data."""
    data = describe_rules()
    c = data["constants"]
    a = {k: ACTIONS[k] for k in ACTIONS}
    ours, md = PRESETS["chudopoly"], PRESETS[MD_PRESET]
    by_preset = []
    for key in TOGGLES:
        if ours[key] != md[key]:
            by_preset.append({"key": key, **_toggle_departure(key, ours[key], md[key], c)})
    for key in md["deck"]:
        if ours["deck"][key] != md["deck"][key]:
            by_preset.append({"key": f"deck.{key}",
                              **_deck_departure(key, ours["deck"][key], md["deck"][key])})
    return {"by_preset": by_preset, "everywhere": _everywhere(c, a),
            "md_name": PRESET_NAMES[MD_PRESET], "default_name": PRESET_NAMES["chudopoly"]}


def monopoly_deal_context() -> dict[str, Any]:
    """The official rules as the MD Faithful preset plays them, with our card names."""
    md = describe_rules({"preset": MD_PRESET})
    actions = [{**row, "md_name": MD_EQUIVALENTS.get(row["key"])} for row in md["actions"]]
    return {
        **differences_context(),
        "md": md, "c": md["constants"], "sources": SOURCES,
        "md_actions": [row for row in actions if row["md_name"] and row["count"]],
        "md_cards": {row["key"]: row for row in actions},
        "md_families": md["families"],
    }

