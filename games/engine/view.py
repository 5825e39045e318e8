"""The one door for hidden information: a per-seat view of a state, and the same redaction for
events. Nothing here reveals another player's hand or the order of the deck."""

from __future__ import annotations

from .board import complete_colours, net_worth, rent_for
from .cards import COLOUR_KEYS, Catalogue
from .legal import legal_actions, to_decide
from .state import CONTEST_LAP_CAP, DECK_CYCLE_LIMIT, HAND_LIMIT, catalogue_for
from .winning import checkpoint_forecast, contest_bar, contest_laps

# Events that carry hand cards: only the seat whose hand it is sees the ids.
_PRIVATE_EVENTS = frozenset(("draw", "deal"))


def view(state: dict, seat: int | None) -> dict:
    """What `seat` may see (None: a spectator). The only thing a browser is ever sent."""
    cat = catalogue_for(state)
    card, cards = cat.card, cat.card_dicts
    pure = state["ruleset"]["pureSetRequired"]
    players = []
    for s, p in enumerate(state["players"]):
        bank_total, worth, sets, rows = _board(cat, p, pure)
        forecast = checkpoint_forecast(state, s)
        players.append({
            "seat": s,
            "active": p["active"],
            "hand_count": len(p["hand"]),
            "bank": cards(p["bank"]),
            "bank_total": bank_total,
            "zones": [{"colour": colour, "cards": cards(zone, colour),
                       "upgrades": cards(ups, colour) if ups else [], "complete": complete,
                       "rent": rent}
                      for colour, zone, ups, complete, rent in rows],
            "sets": sets,
            "net_worth": worth,
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
        "discard": cards(reversed(discard)),
        "shuffle_count": state["shuffle_count"],
        "deck_cycle_limit": DECK_CYCLE_LIMIT,
        "players": players,
        "hand": cards(state["players"][seat]["hand"]) if own else [],
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


# What a board shows (bank total, net worth, sets, and per zone in colour-table order: colour,
# cards, upgrades, complete, rent), by the board's content: most boards are the same from
# seat to seat and from move to move, so views rebuild only the card dicts.
_BOARDS: dict[tuple, tuple[int, int, int, list[tuple]]] = {}


def _board(cat: Catalogue, p: dict, pure: bool) -> tuple[int, int, int, list[tuple]]:
    zones, ups = p["zones"], p["upgrades"]
    key = (cat, pure, tuple(p["bank"]), tuple(zones), tuple(map(tuple, zones.values())),
           tuple(ups), tuple(map(tuple, ups.values())))
    hit = _BOARDS.get(key)
    if hit is None:
        sets = complete_colours(cat, p, pure)
        rows = [(colour, tuple(zones[colour]), tuple(ups.get(colour, ())), colour in sets,
                 rent_for(cat, p, colour))
                for colour in COLOUR_KEYS if zones.get(colour)]
        hit = (sum(cat.value[c] for c in p["bank"]), net_worth(cat, p), len(sets), rows)
        if len(_BOARDS) >= 4096:
            _BOARDS.clear()
        _BOARDS[key] = hit
    return hit


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
