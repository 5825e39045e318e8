"""`view(state, seat)`: the only door for hidden information.

Hidden: the seed, the generator, the order of both decks, injected dice, and the terms of a
trade offer (and the offer memories) between other seats. Everything else on the table is
public: cash, positions, owners, buildings, the stock, release cards held, debts, auctions.
"""

from __future__ import annotations

from typing import Any

from .cards import AID, DECK_IDS, MARKET
from .legal import legal_actions, to_decide
from .rules import cap_in_force

_PUBLIC = ("version", "seats", "bots", "order", "cash", "pos", "active", "audit", "owner",
           "level", "stock", "turn", "turn_number", "round", "phase", "dice", "doubles",
           "again", "built", "trade_used", "random_used", "last_random", "bankrupt",
           "turn_cap", "uneven")


def view(st: dict[str, Any], seat: int | None, *, copy: bool = True,
         legal: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What `seat` (None: a spectator) may see, with its legal actions (`legal`: already
    generated for this state and seat). With `copy=False` the public lists are shared with
    the state (read-only: for a bot deciding at once)."""
    if not copy:
        return _shared_view(st, seat, legal)
    v: dict[str, Any] = {k: _copy(st[k]) for k in _PUBLIC}
    v["turn_cap"] = st["turn_cap"] if cap_in_force(st) else None  # None: no cap applies now
    v["viewer"] = seat
    v["releases"] = [len(r) for r in st["releases"]]
    v["release_cards"] = [r[:] for r in st["releases"]]
    v["decks"] = {k: {"count": len(d["order"])} for k, d in st["decks"].items()}
    a = st["auction"]
    v["auction"] = None if a is None else {**a, "order": a["order"][:], "out": a["out"][:]}
    v["debts"] = [{**d, "to": [c[:] for c in d["to"]], "auctioned": d["auctioned"][:],
                   "unsold": d["unsold"][:]} for d in st["debts"]]
    o = st["offer"]
    if o is None:
        v["offer"] = None
    elif seat in (o["from"], o["to"]):
        v["offer"] = dict(o)
    else:
        v["offer"] = {"from": o["from"], "to": o["to"], "private": True}
    mine = (f"{seat}>", f">{seat}:") if st["refused"] or st["asks"] else ("", "")
    v["refused"] = {k: c for k, c in st["refused"].items()
                    if seat is not None and (k.startswith(mine[0]) or mine[1] in k)} \
        if st["refused"] else {}
    v["asks"] = {k: r for k, r in st["asks"].items()
                 if seat is not None and (k.startswith(mine[0]) or mine[1] in k)} \
        if st["asks"] else {}
    v["to_decide"] = to_decide(st)
    if legal is None:
        legal = legal_actions(st, seat) if seat is not None else []
    v["legal"] = legal
    v["result"] = _copy(st["result"])
    return v


# The decks never change size, so shared views share one read-only {"deck": {"count"}} dict.
_FULL = {name: len(ids) for name, ids in DECK_IDS.items()}
_FULL_DECKS = {MARKET: {"count": _FULL[MARKET]}, AID: {"count": _FULL[AID]}}


def _shared_view(st: dict[str, Any], seat: int | None,
                 legal: list[dict[str, Any]] | None) -> dict[str, Any]:
    """`view(copy=False)`: the same keys and values, built for a bot deciding at once (this
    runs before most decisions of a simulation, so it avoids every copy it can)."""
    a = st["auction"]
    o = st["offer"]
    debts = st["debts"]
    if o is None:
        offer = None
    elif seat in (o["from"], o["to"]):
        offer = dict(o)
    else:
        offer = {"from": o["from"], "to": o["to"], "private": True}
    refused, asks = st["refused"], st["asks"]
    if refused or asks:
        mine = (f"{seat}>", f">{seat}:")
        refused = {k: c for k, c in refused.items()
                   if seat is not None and (k.startswith(mine[0]) or mine[1] in k)}
        asks = {k: r for k, r in asks.items()
                if seat is not None and (k.startswith(mine[0]) or mine[1] in k)}
    else:
        refused, asks = {}, {}
    decks = st["decks"]
    if len(decks) == 2 and len(decks[MARKET]["order"]) == _FULL[MARKET] \
            and len(decks[AID]["order"]) == _FULL[AID]:
        counts = _FULL_DECKS
    else:
        counts = {k: {"count": len(d["order"])} for k, d in decks.items()}
    # to_decide, inline: the same order of overlays.
    if st["phase"] == "finished":
        deciding = []
    elif a is not None:
        deciding = [a["at"]]
    elif o is not None:
        deciding = [o["to"]]
    elif debts:
        deciding = [debts[0]["seat"]]
    else:
        deciding = [st["turn"]]
    if legal is None:
        legal = legal_actions(st, seat) if seat is not None else []
    rel = st["releases"]
    # One dict display (the keys of _PUBLIC, then the rest, in `view`'s order): quicker to
    # build than key by key.
    v: dict[str, Any] = {
        "version": st["version"], "seats": st["seats"], "bots": st["bots"],
        "order": st["order"], "cash": st["cash"], "pos": st["pos"], "active": st["active"],
        "audit": st["audit"], "owner": st["owner"], "level": st["level"],
        "stock": st["stock"], "turn": st["turn"], "turn_number": st["turn_number"],
        "round": st["round"], "phase": st["phase"], "dice": st["dice"],
        "doubles": st["doubles"], "again": st["again"], "built": st["built"],
        "trade_used": st["trade_used"], "random_used": st["random_used"],
        "last_random": st["last_random"], "bankrupt": st["bankrupt"],
        "turn_cap": st["turn_cap"] if cap_in_force(st) else None, "uneven": st["uneven"],
        "viewer": seat, "releases": list(map(len, rel)), "release_cards": rel,
        "decks": counts, "auction": a, "debts": debts, "offer": offer, "refused": refused,
        "asks": asks, "to_decide": deciding, "legal": legal,
    }
    r = st["result"]
    v["result"] = None if r is None else _copy(r)
    return v


def _copy(x: Any) -> Any:
    if isinstance(x, list):
        return [_copy(i) for i in x]
    if isinstance(x, dict):
        return {k: _copy(i) for k, i in x.items()}
    return x


def events_for(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events one seat may see: the terms of other seats' offers are left out."""
    out = []
    for e in events:
        if e["type"] == "offer" and seat not in (e["from"], e["to"]):
            out.append({"type": "offer", "from": e["from"], "to": e["to"], "private": True})
        elif e["type"] == "answer" and seat not in (e["seat"], e["from"]):
            out.append({"type": "answer", "seat": e["seat"], "from": e["from"],
                        "accept": e["accept"]})
        else:
            out.append(e)
    return out
