"""Commonwealth's rules page data (/rules/commonwealth): everything comes out of the engine's
data table (`engine.data.describe()`) and its clocks, so the page and the game agree."""

from __future__ import annotations

from typing import Any

from .engine import CLOCKS, data
from .engine.legal import DEAL_NEEDS_GOODS
from .engine.state import OFFERS_PER_TURN

KIND_WORDS = {"go": "Corner", "jail": "Corner", "parking": "Corner", "go_to_jail": "Corner",
              "chance": "Chance", "shuttle": "Community Shuttle", "project": "Project"}


def rules_context() -> dict[str, Any]:
    table = data.describe()
    colours = {c["key"]: c for c in table["colours"]}
    projects = [{**p, "colour_name": colours[p["colour"]]["name"]} for p in table["projects"]]
    by_project = {p["id"]: p for p in projects}
    spaces = []
    for s in table["spaces"]:
        row = {**s, "kind_words": KIND_WORDS.get(s["kind"], s["kind"])}
        if s["kind"] == "project":
            row["detail"] = by_project[s["project"]]
        spaces.append(row)
    # The deck grouped by title, with how many of each (44 cards, the seed's split).
    groups: dict[str, dict[str, Any]] = {}
    for card in table["cards"]:
        g = groups.setdefault(card["title"], {**card, "count": 0})
        g["count"] += 1
    cards = list(groups.values())
    keep = [c for c in cards if c["category"] == "keep"]
    immediate = [c for c in cards if c["category"] == "immediate"]
    return {
        "n": table, "projects": projects, "spaces": spaces,
        "keep_cards": keep, "immediate_cards": immediate,
        "jail_free": [c for c in cards if c["category"] == "jail_free"],
        "counts": {"keep": sum(c["count"] for c in keep),
                   "immediate": sum(c["count"] for c in immediate),
                   "all": len(table["cards"]),
                   "fund_losses": sum(c.get("amount", 0) for c in immediate)},
        "faces": [f.replace("x", "×") for f in table["action_faces"]],
        "offers_per_turn": OFFERS_PER_TURN, "deal_rule": DEAL_NEEDS_GOODS,
        "own_seconds": CLOCKS["own"], "answer_seconds": CLOCKS["answer"],
    }
