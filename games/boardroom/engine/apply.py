"""`apply`: validate an action with the generator (legal.py), then resolve it on a copy."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .board import AUDIT_BAIL, BRANCH_COST, GROUP, INDUSTRY, PRICE
from .legal import ask_key, offer_key, problem
from .rules import (
    advance_auction,
    audit_bail,
    bank_price,
    bankrupt,
    charge,
    close_one,
    finish_auction,
    free_tile,
    land,
    move_to,
    pass_turn,
    pay,
    roll_dice,
    send_to_audit,
    set_owner,
    settle,
    start_auction,
)
from .state import ASK_PAUSE_ROUNDS, AUDIT_TRIES, copy_state, new_game

State = dict[str, Any]
Events = list[dict[str, Any]]


class IllegalAction(ValueError):
    """The action is not legal now; `reason` is a sentence a player can read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Applied:
    state: State
    events: Events = field(default_factory=list)


def apply(state: State, seat: int, action: dict[str, Any], *, clock: bool = False) -> Applied:
    """The new state and the events, or IllegalAction(reason) with `state` untouched.
    `clock=True` is for the site's clocks only (forfeit, lot_expired: see timeouts.py)."""
    reason = problem(state, seat, action, clock=clock)
    if reason is not None:
        raise IllegalAction(reason)
    s = copy_state(state)
    ev: Events = []
    _HANDLERS[action["type"]](s, ev, seat, action)
    settle(s, ev)
    s["version"] += 1
    return Applied(s, ev)


def step(s: State, seat: int, action: dict[str, Any]) -> Events:
    """`apply` writing into `s` itself (for simulations that own their state): the same
    checks and resolution without the copy."""
    reason = problem(s, seat, action)
    if reason is not None:
        raise IllegalAction(reason)
    ev: Events = []
    _HANDLERS[action["type"]](s, ev, seat, action)
    settle(s, ev)
    s["version"] += 1
    return ev


def replay(*, seats: int, seed: int, actions: list, bots: list[bool] | None = None,
           human_first: int | None = None, turn_cap: int | None = None,
           cap_people: bool = False, start: State | None = None) -> State:
    """The state after `actions` ([[seat, action], ...] or [[seat, action, clock]]) from a new
    game with these settings (or from the given `start` position)."""
    if start is not None:
        st = start
    else:
        kw: dict[str, Any] = {}
        if turn_cap is not None:
            kw["turn_cap"] = turn_cap
        st = new_game(seats=seats, seed=seed, bots=bots, human_first=human_first,
                      cap_people=cap_people, **kw)
    for entry in actions:
        seat, action = entry[0], entry[1]
        clock = bool(entry[2]) if len(entry) > 2 else False
        st = apply(st, seat, action, clock=clock).state
    return st


# --- handlers (the action is legal) -----------------------------------------------------------
def _roll(s: State, ev: Events, seat: int, a: dict) -> None:
    d1, d2 = roll_dice(s)
    s["dice"] = [d1, d2]
    s["random_used"] = False
    double = d1 == d2
    ev.append({"type": "roll", "seat": seat, "dice": [d1, d2]})
    pos = s["pos"][seat]
    if s["audit"][seat] is not None:
        if double:
            s["audit"][seat] = None
            s["again"] = False  # out by doubles: a move but no extra roll
            ev.append({"type": "audit_out", "seat": seat, "how": "doubles"})
        else:
            s["audit"][seat] += 1
            if s["audit"][seat] < AUDIT_TRIES:
                s["phase"] = "act"
                return
            s["audit"][seat] = None
            ev.append({"type": "audit_out", "seat": seat, "how": "third_try"})
            charge(s, ev, seat, [[None, AUDIT_BAIL]], "bail")
        s["again"] = False
    else:
        if double:
            s["doubles"] += 1
            if s["doubles"] >= 3:
                send_to_audit(s, ev, seat, "third_double")
                s["phase"] = "act"
                return
            s["again"] = True
        else:
            s["again"] = False
    move_to(s, ev, seat, (pos + d1 + d2) % 40, salary=True, how="dice")
    land(s, ev, seat)


def _pay_bail(s: State, ev: Events, seat: int, a: dict) -> None:
    audit_bail(s, ev, seat)
    ev.append({"type": "audit_out", "seat": seat, "how": "bail"})


def _use_release(s: State, ev: Events, seat: int, a: dict) -> None:
    cid = s["releases"][seat].pop(0)
    s["audit"][seat] = None
    ev.append({"type": "audit_out", "seat": seat, "how": "release", "card": cid})


def _buy(s: State, ev: Events, seat: int, a: dict) -> None:
    pos = a["tile"]
    pay(s, ev, seat, None, PRICE[pos], "buy", pos)
    set_owner(s, ev, pos, seat, "buy")
    s["phase"] = "act"


def _decline(s: State, ev: Events, seat: int, a: dict) -> None:
    pos = a["tile"]
    s["phase"] = "act"
    start_auction(s, ev, pos, None, seat, -(-PRICE[pos] * 3 // 4))


def _bid(s: State, ev: Events, seat: int, a: dict) -> None:
    auc = s["auction"]
    auc["high"] = a["amount"]
    auc["leader"] = seat
    ev.append({"type": "bid", "seat": seat, "tile": auc["tile"], "amount": a["amount"]})
    advance_auction(s, ev, seat)


def _pass(s: State, ev: Events, seat: int, a: dict) -> None:
    auc = s["auction"]
    auc["out"].append(seat)
    ev.append({"type": "auction_pass", "seat": seat, "tile": auc["tile"], "why": "pass"})
    advance_auction(s, ev, seat)


def _lot_expired(s: State, ev: Events, seat: int, a: dict) -> None:
    finish_auction(s, ev, cancelled=True)


def _build(s: State, ev: Events, seat: int, a: dict) -> None:
    pos = a["tile"]
    lvl = s["level"][pos]
    if lvl == 4:
        s["stock"][1] -= 1
        s["stock"][0] += 4
    else:
        s["stock"][0] -= 1
    s["level"][pos] = lvl + 1
    s["built"] = True
    pay(s, ev, seat, None, BRANCH_COST[pos], "build", pos)
    ev.append({"type": "build", "seat": seat, "tile": pos, "level": lvl + 1})


def _close(s: State, ev: Events, seat: int, a: dict) -> None:
    close_one(s, ev, seat, a["tile"])


def _propose(s: State, ev: Events, seat: int, a: dict) -> None:
    offer = {"from": seat, "to": a["to"], "kind": a["kind"], "take": a.get("take"),
             "give": a.get("give"), "cash": a["cash"], "debt": bool(s["debts"])}
    s["offer"] = offer
    if s["refused"]:
        # A refusal is remembered until the next offer for the same tiles (the guide sets no
        # time limit); that offer's answer then replaces it (a refusal) or ends it.
        s["refused"].pop(offer_key(seat, a["to"], a["kind"], offer["take"], offer["give"]),
                         None)
    if not s["bots"][a["to"]] and not offer["debt"]:
        s["trade_used"] = True  # between people the trade is used up when made
    ev.append({"type": "offer", **offer})


def _answer(s: State, ev: Events, seat: int, a: dict) -> None:
    o = s["offer"]
    s["offer"] = None
    frm, to = o["from"], o["to"]
    ev.append({"type": "answer", "seat": seat, "accept": a["accept"], "from": frm})
    if a["accept"]:
        if o["kind"] == "swap":
            pay(s, ev, frm, to, o["cash"], "trade")
            set_owner(s, ev, o["take"], frm, "trade")
            if o["give"] is not None:
                set_owner(s, ev, o["give"], to, "trade")
        else:
            pay(s, ev, to, frm, o["cash"], "trade")
            set_owner(s, ev, o["give"], to, "trade")
        if not o["debt"]:
            s["trade_used"] = True
        return
    if s["bots"][to] or o["debt"]:
        s["refused"][offer_key(frm, to, o["kind"], o["take"], o["give"])] = o["cash"]
    if s["bots"][frm]:
        s["asks"][ask_key(frm, to, o["take"], o["give"])] = s["round"] + ASK_PAUSE_ROUNDS


def _auction_own(s: State, ev: Events, seat: int, a: dict) -> None:
    for d in s["debts"]:
        if d["seat"] == seat:
            d["auctioned"].append(a["tile"])
            break
    start_auction(s, ev, a["tile"], seat, seat, a["start"])


def _sell_bank(s: State, ev: Events, seat: int, a: dict) -> None:
    pos = a["tile"]
    price = bank_price(s, pos)
    free_tile(s, pos)
    # The holding exception leaves the rest of the industry built around a free tile: the
    # even-building and one-owner checks skip it until its last building is closed.
    ind = INDUSTRY[pos]
    if ind is not None and any(s["level"][t] for t in GROUP[pos]) and ind not in s["uneven"]:
        s["uneven"].append(ind)
    ev.append({"type": "owner", "tile": pos, "seat": None, "how": "bank"})
    pay(s, ev, None, seat, price, "bank_sale", pos)


def _give_up(s: State, ev: Events, seat: int, a: dict) -> None:
    debt = next(d for d in s["debts"] if d["seat"] == seat)
    bankrupt(s, ev, seat, [p for p, _ in debt["to"]], "give_up")


def _forfeit(s: State, ev: Events, seat: int, a: dict) -> None:
    bankrupt(s, ev, seat, [None], "forfeit")


def _end_turn(s: State, ev: Events, seat: int, a: dict) -> None:
    if s["again"] and s["audit"][seat] is None:
        s["again"] = False
        s["phase"] = "roll"
        s["built"] = False
        ev.append({"type": "roll_again", "seat": seat})
        return
    pass_turn(s, ev)


_HANDLERS: dict[str, Callable[[State, Events, int, dict], None]] = {
    "roll": _roll, "pay_bail": _pay_bail, "use_release": _use_release, "buy": _buy,
    "decline": _decline, "bid": _bid, "pass": _pass, "lot_expired": _lot_expired,
    "build": _build, "close": _close, "propose": _propose, "answer": _answer,
    "auction_own": _auction_own, "sell_bank": _sell_bank, "give_up": _give_up,
    "forfeit": _forfeit, "end_turn": _end_turn,
}

__all__ = ["Applied", "IllegalAction", "apply", "replay", "step"]
