"""Structural invariants of a state, checked by tests and by `simulate` after every action."""

from __future__ import annotations

from .board import SET_SIZE, zone_is_set
from .cards import COLOURS
from .state import catalogue_for


def check_invariants(state: dict) -> list[str]:
    """Every broken invariant, in words (empty when the state is sound). States the engine
    writes also key zones in colour order (a state reloaded from JSONB need not)."""
    problems: list[str] = []
    cat = catalogue_for(state)
    pure = state["ruleset"]["pureSetRequired"]
    seen: dict[int, str] = {}

    def place(ids: list[int], where: str) -> None:
        for c in ids:
            if not isinstance(c, int) or not 0 <= c < cat.size:
                problems.append(f"unknown card {c!r} in {where}")
            elif c in seen:
                problems.append(f"card {c} in both {seen[c]} and {where}")
            else:
                seen[c] = where

    place(state["deck"], "deck")
    place(state["discard"], "discard")
    for seat, p in enumerate(state["players"]):
        place(p["hand"], f"hand {seat}")
        place(p["bank"], f"bank {seat}")
        for colour, zone in p["zones"].items():
            if colour not in COLOURS:
                problems.append(f"seat {seat} has unknown zone {colour}")
                continue
            place(zone, f"zone {seat}/{colour}")
            if not zone:
                problems.append(f"seat {seat} keeps an empty {colour} zone")
            if len(zone) > SET_SIZE[colour]:
                problems.append(f"zone cap: seat {seat} {colour} holds {len(zone)}")
            for c in zone:
                if 0 <= c < cat.size and colour not in cat.colours[c]:
                    problems.append(f"card {c} is not legal in {colour}")
                if 0 <= c < cat.size and cat.kind[c] not in ("property", "wild"):
                    problems.append(f"card {c} ({cat.kind[c]}) sits in a property zone")
        for colour, ups in p["upgrades"].items():
            place(ups, f"upgrades {seat}/{colour}")
            kinds = [cat.key[u] for u in ups if 0 <= u < cat.size]
            if kinds not in (["upgrade"], ["upgrade", "foc"]):
                problems.append(f"seat {seat} {colour} upgrades are {kinds}")
            if not zone_is_set(cat, p["zones"].get(colour), colour, pure):
                problems.append(f"seat {seat} has upgrades on incomplete {colour}")
        for name in ("zones", "upgrades"):
            if list(p[name]) != [c for c in COLOURS if c in p[name]]:
                problems.append(f"seat {seat} {name} are not keyed in colour order")
        if not p["active"] and (p["hand"] or p["bank"] or p["zones"] or p["upgrades"]):
            problems.append(f"scooped seat {seat} still holds cards")
    if len(seen) != cat.size:
        problems.append(f"card count {len(seen)} != deck size {cat.size}")
    phase = state["phase"]
    if (phase == "respond") != (state["pending"] is not None):
        problems.append(f"phase {phase} with pending {state['pending'] is not None}")
    if phase == "finished" and state["result"] is None:
        problems.append("finished without a result")
    if not 0 <= state["plays_left"] <= 3 or state["rearranges_left"] < 0:
        problems.append("plays or rearranges out of range")
    if phase != "finished" and not state["players"][state["turn"]]["active"]:
        problems.append("the turn belongs to a scooped seat")
    return problems
