"""What happens when a seat's clock runs out (RULINGS): an automatic accept — never an OPSEC —
with the automatic payment, or an automatic discard and end of turn."""

from __future__ import annotations

from .legal import auto_discard
from .payment import auto_payment, owed_entry
from .state import HAND_LIMIT, catalogue_for, in_colour_order


def timeout_actions(state: dict, seat: int) -> list[dict]:
    """The actions to apply, in order, for `seat` whose clock expired ([] if it owes nothing).

    Each action is legal when its turn comes: apply them one by one (an accept of a charge is
    followed by that charge's payment)."""
    players = state["players"]
    if state["phase"] == "finished" or type(seat) is not int or not 0 <= seat < len(players) \
            or not players[seat]["active"]:
        return []
    state = in_colour_order(state)  # the same choice whatever key order storage handed back
    cat = catalogue_for(state)
    pending = state["pending"]
    if state["phase"] == "respond":
        out: list[dict] = []
        for t in pending["targets"]:
            if t["responder"] == seat and t["state"] == "respond":
                out.append({"type": "respond", "answer": "accept", "target": t["seat"]})
        owes = owed_entry(state, seat) is not None or any(
            a["target"] == seat and _entry_depth(pending, seat) % 2 == 0 for a in out)
        if owes and pending["kind"] in ("rent", "finance_office", "roll_call"):
            p = state["players"][seat]
            if p["bank"] or p["zones"] or p["upgrades"]:
                out.append({"type": "pay",
                            "cards": auto_payment(state, cat, seat, pending["amount"])})
        return out
    if state["turn"] != seat:
        return []
    if state["phase"] == "discard":
        return [{"type": "discard", "cards": auto_discard(state)}]
    out = [{"type": "end_turn"}]
    if len(state["players"][seat]["hand"]) > HAND_LIMIT:
        out.append({"type": "discard", "cards": auto_discard(state)})
    return out


def _entry_depth(pending: dict, seat: int) -> int:
    return next(t["depth"] for t in pending["targets"] if t["seat"] == seat)
