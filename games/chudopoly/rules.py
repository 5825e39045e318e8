"""Chudopoly's rules page data (/rules/chudopoly): every number on it comes out of the engine
(`describe_rules`); the platform adds its clock limits (games/platform/rules_page.py)."""

from __future__ import annotations

from typing import Any

from games.chudopoly.engine.describe import describe_rules

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

