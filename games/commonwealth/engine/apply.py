"""`apply`: validate with the one generator (legal.py), then resolve on a private copy.

A refused action raises IllegalAction(reason) and the input state is untouched; an applied
one returns a new state (version + 1) and the events it caused, in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import data, rules
from .legal import problem
from .state import new_game

State = dict[str, Any]


class IllegalAction(Exception):
    """The engine refused an action; `reason` is a sentence a player can read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Applied:
    state: State
    events: list[dict[str, Any]] = field(default_factory=list)


def _copy(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


def clone(st: State) -> State:
    """A copy `apply` may write: everything but the ruleset (never written)."""
    new = dict(st)
    new["players"] = [dict(p) for p in st["players"]]
    new["projects"] = [{"manager": p["manager"], "chips": list(p["chips"])}
                       for p in st["projects"]]
    new["deck"] = list(st["deck"])
    new["order"] = list(st["order"])
    new["flags"] = dict(st["flags"])
    new["agenda"] = [dict(t) for t in st["agenda"]]
    new["dice"] = [list(d) for d in st["dice"]]
    new["step"] = _copy(st["step"])
    new["deal"] = _copy(st["deal"])
    new["declined"] = _copy(st.get("declined"))
    new["result"] = _copy(st["result"])
    return new


def apply(state: State, seat: int, action: dict[str, Any]) -> Applied:
    reason = problem(state, seat, action)
    if reason is not None:
        raise IllegalAction(reason)
    st = clone(state)
    st["version"] += 1
    ev: list[dict[str, Any]] = []
    _resolve(st, ev, seat, action)
    rules.advance(st, ev)
    return Applied(state=st, events=ev)


def _resolve(st: State, ev: list[dict[str, Any]], seat: int, a: dict[str, Any]) -> None:
    t = a["type"]
    step = st["step"]
    p = st["players"][seat]
    if t == "offer":
        p["offers"] += 1
        st["declined"] = None  # the new offer replaces the refused one
        st["deal"] = {"from": seat, "to": a["to"],
                      "give": _side(a.get("give", {})), "get": _side(a.get("get", {}))}
        ev.append({"type": "offer", "seat": seat, **_copy(st["deal"])})
    elif t == "accept":
        _trade(st, ev)
        rules.resettle_after_deal(st, ev)
    elif t in ("decline", "withdraw"):
        deal = st["deal"]
        st["deal"] = None
        if t == "decline":
            # Kept for the proposer's screen (why, and what the next offer must beat) until
            # its next offer or the turn's end; only the proposer's view shows it.
            st["declined"] = _copy(deal)
        ev.append({"type": t, "seat": seat, "from": deal["from"], "to": deal["to"]})
    elif t == "roll":
        rules.roll(st, ev)
    elif t == "jail_roll":
        rules.jail_roll(st, ev)
    elif t == "pay_jail":
        p["cash"] -= data.JAIL_FEE
        st["bank"] += data.JAIL_FEE
        ev.append({"type": "payment", "seat": seat, "to": "bank", "amount": data.JAIL_FEE,
                   "own": data.JAIL_FEE, "from_fund": 0, "reason": "jail_fee"})
        rules.leave_jail(st, ev, seat, "paid")
    elif t == "jail_card":
        p["jail_card"] = False
        st["deck"].append(data.JAIL_FREE_CARD)
        rules.leave_jail(st, ev, seat, "card")
    elif t == "develop":
        pid = a["project"]
        st["flags"]["developed"] = pid
        ev.append({"type": "develop", "seat": seat, "project": pid,
                   "fee": data.PROJECTS[pid]["fee"]})
        rules.pay(st, ev, seat, data.PROJECTS[pid]["fee"], "bank", "develop")
        if st["result"] is None:
            rules.place_chip(st, ev, seat, pid, "develop")
    elif t == "play_card":
        rules.play_card(st, ev, seat, a)
    elif t == "skip":
        step["stage"] = "keep"
        rules.settle_chance(st, ev)
    elif t == "keep":
        rules.keep(st, ev, a["card"])
    elif t == "order":
        st["step"] = None
        move = {"t": "move", "n": step["steps"]}
        draw = {"t": "draw", "n": step["draws"]}
        st["agenda"] = [move, draw] if a["first"] == "move" else [draw, move]
        ev.append({"type": "order", "seat": seat, "first": a["first"]})
    elif t == "buy":
        rules.buy(st, ev, seat, step["project"])
    elif t == "auction":
        rules.open_auction(st, ev, step["project"])
    elif t == "bid":
        rules.bid(st, ev, seat, a["amount"])
    elif t == "pass":
        rules.bid(st, ev, seat, None)
    elif t == "chip":
        pid = step["project"]
        st["step"] = None
        manager = st["projects"][pid]["manager"]
        rules.pay(st, ev, seat, data.CHIP_COST, "bank" if manager == seat else manager, "chip")
        if st["result"] is None:
            rules.place_chip(st, ev, seat, pid, "landing")
    elif t == "no_chip":
        st["step"] = None
    elif t == "ride":
        rules.ride(st, ev, a["to"])
    elif t == "stay":
        st["step"] = None
    elif t == "donate":
        p["cash"] -= a["amount"]
        step["owed"].remove(seat)
        rules.fund_receives(st, ev, a["amount"], "donation", seat)
        if not step["owed"]:
            st["step"] = None
    elif t == "pledge":
        rules.pledge(st, ev, a["amount"])
        rules.settle_split(st, ev)


def _side(side: dict[str, Any]) -> dict[str, Any]:
    return {"projects": list(side.get("projects", [])), "cash": side.get("cash", 0),
            "jail_card": bool(side.get("jail_card", False))}


def _trade(st: State, ev: list[dict[str, Any]]) -> None:
    """Projects change managers with their chips on them; cash and the Jail card move."""
    deal = st["deal"]
    st["deal"] = None
    a, b = deal["from"], deal["to"]
    for giver, taker, side in ((a, b, deal["give"]), (b, a, deal["get"])):
        for pid in side["projects"]:
            st["projects"][pid]["manager"] = taker
        st["players"][giver]["cash"] -= side["cash"]
        st["players"][taker]["cash"] += side["cash"]
        # Net cash handed away this go: while above 0 the Fund pays nothing for the giver.
        st["players"][giver]["dealt_away"] = st["players"][giver].get("dealt_away", 0) \
            + side["cash"]
        st["players"][taker]["dealt_away"] = st["players"][taker].get("dealt_away", 0) \
            - side["cash"]
        if side["jail_card"]:
            st["players"][giver]["jail_card"] = False
            st["players"][taker]["jail_card"] = True
    ev.append({"type": "deal", "seat": b, **deal})


def replay(*, ruleset: dict[str, Any] | None, seats: int, seed: int,
           actions: Sequence[Sequence[Any]]) -> State:
    """The state after `actions` ([seat, action] pairs) from a fresh game."""
    st = new_game(ruleset=ruleset, seats=seats, seed=seed)
    for seat, action in actions:
        st = apply(st, seat, action).state
    return st
