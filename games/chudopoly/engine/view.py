"""The one door for hidden information: a per-seat view of a state, and the same redaction for
events. Nothing here reveals another player's hand or the order of the deck."""

from __future__ import annotations

from .board import complete_colours, net_worth, rent_for
from .cards import COLOUR_KEYS
from .legal import legal_actions, to_decide
from .state import CONTEST_LAP_CAP, DECK_CYCLE_LIMIT, HAND_LIMIT, catalogue_for
from .winning import checkpoint_forecast, contest_bar, contest_laps

# Events that carry hand cards: only the seat whose hand it is sees the ids.
_PRIVATE_EVENTS = frozenset(("draw", "deal"))


def view(state: dict, seat: int | None) -> dict:
    """What `seat` may see (None: a spectator). The only thing a browser is ever sent."""
    cat = catalogue_for(state)
    card = cat.card
    pure = state["ruleset"]["pureSetRequired"]
    players = []
    for s, p in enumerate(state["players"]):
        sets = complete_colours(cat, p, pure)
        zones = []
        for colour in COLOUR_KEYS:
            zone = p["zones"].get(colour)
            if not zone:
                continue
            zones.append({
                "colour": colour,
                "cards": [card(c, colour) for c in zone],
                "upgrades": [card(u, colour) for u in p["upgrades"].get(colour, ())],
                "complete": colour in sets,
                "rent": rent_for(cat, p, colour),
            })
        forecast = checkpoint_forecast(state, s)
        players.append({
            "seat": s,
            "active": p["active"],
            "hand_count": len(p["hand"]),
            "bank": [card(c) for c in p["bank"]],
            "bank_total": sum(cat.value[c] for c in p["bank"]),
            "zones": zones,
            "sets": len(sets),
            "net_worth": net_worth(cat, p),
            "armed": p["armed_at"] is not None,
            "armed_at": p["armed_at"],
            "checkpoint_turn": forecast[0] if forecast else None,
            "opponent_turns_remaining": forecast[1] if forecast else None,
        })
    own = seat is not None and 0 <= seat < len(state["players"])
    discard = state["discard"]
    return {
        "version": state["version"],
        "viewer": seat,
        "turn": state["turn"],
        "order": state["order"][:],
        "turn_number": state["turn_number"],
        "phase": state["phase"],
        "plays_left": state["plays_left"],
        "rearranges_left": state["rearranges_left"],
        "surge": state["surge"],
        "surge_multiplier": 2 ** state["surge"],
        "hand_limit": HAND_LIMIT,
        "deck_count": len(state["deck"]),
        "discard_count": len(discard),
        "discard_top": card(discard[-1]) if discard else None,
        "discard": [card(c) for c in reversed(discard)],
        "shuffle_count": state["shuffle_count"],
        "deck_cycle_limit": DECK_CYCLE_LIMIT,
        "players": players,
        "hand": [card(c) for c in state["players"][seat]["hand"]] if own else [],
        "pending": _pending_view(state, cat),
        "to_decide": to_decide(state),
        "legal": legal_actions(state, seat) if own else [],
        "contested": state["contested_since"] is not None,
        "contest_laps": contest_laps(state),
        "contest_lap_cap": CONTEST_LAP_CAP,
        "contest_bar": contest_bar(state),
        "ruleset": {**state["ruleset"], "deck": dict(state["ruleset"]["deck"])},
        "result": copy_result(state["result"]),
    }


def copy_result(result: dict | None) -> dict | None:
    if result is None:
        return None
    return {**result, "placements": result["placements"][:], "sets": dict(result["sets"])}


def _pending_view(state: dict, cat) -> dict | None:
    pending = state["pending"]
    if pending is None:
        return None
    out = {k: v for k, v in pending.items() if k not in ("targets", "card", "take", "give")}
    out["card"] = cat.card(pending["card"])
    for k in ("take", "give"):
        if pending.get(k) is not None:
            out[k] = cat.card(pending[k])
    out["targets"] = [dict(t) for t in pending["targets"]]
    return out


def events_for(events: list[dict], seat: int | None) -> list[dict]:
    """Events as `seat` may see them: draw/deal card ids only for the drawer."""
    out = []
    for ev in events:
        if ev["type"] in _PRIVATE_EVENTS and ev.get("seat") != seat:
            ev = {k: v for k, v in ev.items() if k != "cards"}
        out.append(ev)
    return out
