"""Every way a kept Chance card can be played right now (its targets), as actions."""

from __future__ import annotations

from typing import Any

from . import data
from .state import open_slots


def card_plays(state: dict[str, Any], seat: int, cid: int) -> list[dict[str, Any]]:
    kind = data.CARD_KIND[cid]
    projects = state["projects"]
    out: list[dict[str, Any]] = []
    if kind == "free_chip":
        if state["players"][seat]["supply"] > 0:
            out = [{"type": "play_card", "card": cid, "project": pid}
                   for pid, pr in enumerate(projects)
                   if pr["manager"] is not None and open_slots(state, pid) > 0]
    elif kind == "remove_chip":
        for pid, pr in enumerate(projects):
            for rival in sorted(set(pr["chips"])):
                if rival != seat:
                    out.append({"type": "play_card", "card": cid, "project": pid,
                                "seat": rival})
    elif kind == "swap":
        mine = [pid for pid, pr in enumerate(projects) if pr["manager"] == seat]
        theirs = [pid for pid, pr in enumerate(projects)
                  if pr["manager"] is not None and pr["manager"] != seat]
        out = [{"type": "play_card", "card": cid, "mine": a, "theirs": b}
               for a in mine for b in theirs]
    return out
