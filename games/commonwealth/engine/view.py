"""The per-seat view: the only door for hidden information.

Hidden: the deck's order (a view has its count), the seed and generator state, injected dice,
and every kept Chance card but the viewer's own (the seed keeps them face down; others see that
a card is held). The Pardon card is face up, so who holds it is public. Cards
drawn in a Chance decision are shown only to the drawer. An open deal's terms are the two
parties' business: the other seats see that one is open, between whom; a declined deal's terms
stay on its proposer's view for the rest of the turn (why it was declined is told from them).
"""

from __future__ import annotations

import contextlib
from typing import Any

from . import data
from .legal import can_offer, legal_actions, to_decide
from .rules import fund_may_cover
from .state import chips_placed


def _deal(deal: dict[str, Any] | None, me: int | None) -> dict[str, Any] | None:
    """An open offer: its terms for the two seats in it; the others see only who offered whom
    (they learn the terms from the board if it is accepted)."""
    if deal is None:
        return None
    if me not in (deal["from"], deal["to"]):
        return {"from": deal["from"], "to": deal["to"], "private": True}
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in deal.items()}


def _declined(deal: dict[str, Any] | None, me: int | None) -> dict[str, Any] | None:
    """The deal declined this turn, for its proposer alone (the others saw only that a deal
    was declined, as the log says)."""
    if deal is None or me != deal["from"]:
        return None
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in deal.items()}


def _card(cid: int | None) -> dict[str, Any] | None:
    return None if cid is None else dict(data.CARDS[cid])


def view(st: dict[str, Any], seat: int | None) -> dict[str, Any]:
    me = seat if type(seat) is int and 0 <= seat < st["seats"] else None
    players = []
    for s, p in enumerate(st["players"]):
        players.append({
            "seat": s, "cash": p["cash"], "pos": p["pos"], "supply": p["supply"],
            "placed": chips_placed(st, s), "holds_card": p["kept"] is not None,
            "kept": _card(p["kept"]) if s == me else None,
            "jail_card": p["jail_card"], "in_jail": p["in_jail"],
            "jail_turns": p["jail_turns"], "offers": p["offers"],
            # False after handing cash away in a deal (public: the deal's terms are).
            "fund_covers": fund_may_cover(st, s),
        })
    step = st["step"]
    shown_step = None
    if step is not None:
        shown_step = {k: (list(v) if isinstance(v, list) else v) for k, v in step.items()}
        if step["kind"] == "chance":
            shown_step["cards"] = ([_card(c) for c in step["cards"]] if me == st["turn"]
                                   else [])
            shown_step["count"] = len(step["cards"])
    return {
        "game": "commonwealth", "version": st["version"], "viewer": me, "seats": st["seats"],
        "order": list(st["order"]), "turn": st["turn"], "turn_number": st["turn_number"],
        "round": st["round"], "doubles": st["doubles"], "flags": dict(st["flags"]),
        "fund": st["fund"], "bank": st["bank"],
        "last_roll": list(st.get("last_roll") or []) or None, "deck_count": len(st["deck"]),
        "players": players,
        "projects": [{"id": pid, "manager": pr["manager"], "chips": list(pr["chips"]),
                      "open": data.PROJECTS[pid]["slots"] - len(pr["chips"])}
                     for pid, pr in enumerate(st["projects"])],
        "step": shown_step,
        "deal": _deal(st["deal"], me),
        "declined": _declined(st.get("declined"), me),
        "to_decide": to_decide(st),
        "legal": legal_actions(st, me) if me is not None else [],
        "can_offer": me is not None and can_offer(st, me),
        "ruleset": dict(st["ruleset"]),
        "result": None if st["result"] is None else {
            k: (list(v) if isinstance(v, list) else v) for k, v in st["result"].items()},
    }


def screen_view(st: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """`view`'s content for a caller that only reads it (the table's screens): every view of
    one state has the same public part, built once (a spectator's view) and shared, and only
    what is the seat's own is made for it: its kept card, the Chance cards it draws, an open
    or declined deal it is party to, its legal actions. Read only: its parts are the very
    objects other views of the state show."""
    hit = _PUBLIC_VIEWS.get(id(st))
    if hit is None or hit[0] is not st:
        hit = (st, view(st, None))  # the state held: its id is not reused while here
        _PUBLIC_VIEWS[id(st)] = hit
        if len(_PUBLIC_VIEWS) > _PUBLIC_VIEWS_KEPT:  # the oldest out (another thread's may be)
            with contextlib.suppress(StopIteration, RuntimeError):
                _PUBLIC_VIEWS.pop(next(iter(_PUBLIC_VIEWS)), None)
    v = dict(hit[1])
    me = seat if type(seat) is int and 0 <= seat < st["seats"] else None
    if me is None:
        return v
    v["viewer"] = me
    kept = st["players"][me]["kept"]
    if kept is not None:
        players = v["players"] = list(v["players"])
        players[me] = {**players[me], "kept": _card(kept)}
    step = st["step"]
    if step is not None and step["kind"] == "chance" and me == st["turn"]:
        v["step"] = {**v["step"], "cards": [_card(c) for c in step["cards"]]}
    v["deal"] = _deal(st["deal"], me)
    v["declined"] = _declined(st.get("declined"), me)
    v["legal"] = legal_actions(st, me)
    v["can_offer"] = can_offer(st, me)
    return v


# id(state) -> (state, a spectator's view of it): the few latest states' (`screen_view`).
_PUBLIC_VIEWS: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
_PUBLIC_VIEWS_KEPT = 16


_SECRET_CARDS = ("draw", "return", "keep")


def events_for(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events redacted for one seat: the cards a seat drew, kept or put back stay its own
    (immediate and played cards are shown to everyone by their own events), and an offer's
    terms reach only its two parties."""
    out = []
    for e in events:
        if e["type"] in _SECRET_CARDS and e.get("seat") != seat:
            e = {k: v for k, v in e.items() if k not in ("cards", "card")}
        elif e["type"] == "offer" and seat not in (e.get("seat"), e.get("to")):
            e = {k: v for k, v in e.items() if k not in ("give", "get")}
        out.append(e)
    return out
