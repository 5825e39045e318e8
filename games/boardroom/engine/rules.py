"""The mechanics every action resolves through, on a working copy (`s`) with an event list.

Money moves only through `pay` (seat or bank on each side) and `charge` (pay now, or a debt
for the full sum); tiles and buildings only through the helpers here, so the invariants
(money conserved, the 32/12 stock, one owner per tile) hold by construction and are checked
by invariants.py after every action of the playouts.
"""

from __future__ import annotations

from typing import Any

from .board import (
    AUDIT_BAIL,
    AUDIT_TILE,
    BRANCH_COST,
    BUYBACK,
    EXCISE_DUTY,
    GROUP,
    INDUSTRY,
    IS_OWNABLE,
    KIND,
    LOGISTICS,
    LOGISTICS_RENT,
    PRICE,
    RENTS,
    SALARY,
    UTILITIES,
    UTILITY_FACTOR,
)
from .cards import CARDS
from .state import BID_STEP, rivals, rng_below

State = dict[str, Any]
Events = list[dict[str, Any]]


# --- money ------------------------------------------------------------------------------------
def pay(s: State, ev: Events, payer: int | None, payee: int | None, amount: int,
        reason: str, tile: int | None = None) -> None:
    """Move `amount` from payer to payee (None: the bank). The one place cash changes."""
    if amount <= 0:
        return
    cash = s["cash"]
    if payer is None:
        s["bank"] += amount
    else:
        cash[payer] -= amount
    if payee is None:
        s["bank"] -= amount
    else:
        cash[payee] += amount
    e = {"type": "payment", "from": payer, "to": payee, "amount": amount, "reason": reason}
    if tile is not None:
        e["tile"] = tile
    ev.append(e)


def charge(s: State, ev: Events, seat: int, to: list[list], reason: str,
           tile: int | None = None) -> None:
    """`seat` owes `to` = [[payee or None, amount], ...]: paid at once when the cash is there
    (and no earlier debt of the seat waits), otherwise one debt for the full sum."""
    to = [[p, a] for p, a in to if a > 0]
    total = sum(a for _, a in to)
    if total <= 0:
        return
    if s["cash"][seat] >= total and not any(d["seat"] == seat for d in s["debts"]):
        for payee, amount in to:
            pay(s, ev, seat, payee, amount, reason, tile)
        return
    s["debts"].append({"seat": seat, "amount": total, "to": to, "reason": reason,
                       "tile": tile, "auctioned": [], "unsold": []})
    ev.append({"type": "debt", "seat": seat, "amount": total, "reason": reason,
               "to": [p for p, _ in to], "tile": tile})


def settle(s: State, ev: Events) -> None:
    """Pay every debt whose debtor now has the cash (in order; a debtor's later debts wait
    for the earlier ones)."""
    if not s["debts"]:
        return
    waiting: set[int] = set()
    kept = []
    for d in s["debts"]:
        seat = d["seat"]
        if seat not in waiting and s["cash"][seat] >= d["amount"]:
            for payee, amount in d["to"]:
                if payee is not None and not s["active"][payee]:
                    payee = None  # a creditor gone bankrupt since: the bank takes it
                pay(s, ev, seat, payee, amount, d["reason"], d["tile"])
            ev.append({"type": "debt_paid", "seat": seat, "amount": d["amount"]})
        else:
            waiting.add(seat)
            kept.append(d)
    s["debts"] = kept


# --- tiles ------------------------------------------------------------------------------------
def owns_industry(s: State, seat: int, pos: int) -> bool:
    owner = s["owner"]
    return all(owner[t] == seat for t in GROUP[pos])


def rent(s: State, pos: int, dice_total: int) -> int:
    owner = s["owner"][pos]
    kind = KIND[pos]
    if kind == "business":
        lvl = s["level"][pos]
        if lvl:
            return RENTS[pos][lvl]
        base = RENTS[pos][0]
        return base * 2 if owns_industry(s, owner, pos) else base
    if kind == "logistics":
        n = sum(1 for t in LOGISTICS if s["owner"][t] == owner)
        return LOGISTICS_RENT[n]
    n = sum(1 for t in UTILITIES if s["owner"][t] == owner)
    return UTILITY_FACTOR[n] * dice_total


def building_value(s: State, pos: int) -> int:
    return s["level"][pos] * BRANCH_COST[pos]


def bank_price(s: State, pos: int) -> int:
    """What the bank pays for a tile: half its price plus half its buildings."""
    return BUYBACK[pos] + building_value(s, pos) // 2


def net_worth(s: State, seat: int) -> int:
    worth = s["cash"][seat]
    for pos, o in enumerate(s["owner"]):
        if o == seat:
            worth += PRICE[pos] + building_value(s, pos)
    return worth


def set_owner(s: State, ev: Events, pos: int, seat: int | None, how: str) -> None:
    s["owner"][pos] = seat
    ev.append({"type": "owner", "tile": pos, "seat": seat, "how": how})


def free_tile(s: State, pos: int) -> None:
    """Back to the bank with its buildings back in the stock."""
    lvl = s["level"][pos]
    if lvl == 5:
        s["stock"][1] += 1
    else:
        s["stock"][0] += lvl
    s["level"][pos] = 0
    s["owner"][pos] = None


def close_one(s: State, ev: Events, seat: int, pos: int) -> None:
    """Close the top building of `pos` (legality checked by legal.py): half its cost back."""
    level, stock = s["level"], s["stock"]
    if level[pos] == 5:
        stock[1] += 1
        stock[0] -= 4
    else:
        stock[0] += 1
    level[pos] -= 1
    ev.append({"type": "close", "seat": seat, "tile": pos, "level": level[pos]})
    pay(s, ev, None, seat, BRANCH_COST[pos] // 2, "close", pos)
    check_even(s, pos)


def check_even(s: State, pos: int) -> None:
    """Drop an industry from `uneven` (broken up by the holding exception) once it has no
    building left."""
    ind = INDUSTRY[pos]
    if ind in s["uneven"] and not any(s["level"][t] for t in GROUP[pos]):
        s["uneven"].remove(ind)


# --- moving -----------------------------------------------------------------------------------
def move_to(s: State, ev: Events, seat: int, dest: int, *, salary: bool, how: str) -> None:
    """Put the token on `dest`; forward moves that pass or reach start pay the salary when
    `salary`. Every arrival is a new visit."""
    old = s["pos"][seat]
    s["pos"][seat] = dest
    s["built"] = False
    ev.append({"type": "move", "seat": seat, "from": old, "to": dest, "how": how})
    if (salary and dest < old) or (dest == 0 and how == "random"):
        pay(s, ev, None, seat, SALARY, "salary")


def send_to_audit(s: State, ev: Events, seat: int, why: str) -> None:
    old = s["pos"][seat]
    s["pos"][seat] = AUDIT_TILE
    s["audit"][seat] = 0
    s["built"] = False
    if seat == s["turn"]:
        s["again"] = False  # being sent under audit ends the doubles run
    ev.append({"type": "to_audit", "seat": seat, "from": old, "why": why})


def land(s: State, ev: Events, seat: int) -> None:
    """Resolve the tile the token stands on; leaves phase "buy" or "act"."""
    pos = s["pos"][seat]
    kind = KIND[pos]
    s["phase"] = "act"
    if IS_OWNABLE[pos]:
        owner = s["owner"][pos]
        if owner is None:
            if seat == s["turn"]:
                s["phase"] = "buy"
            return
        if owner != seat:
            d = s["dice"] or [0, 0]
            charge(s, ev, seat, [[owner, rent(s, pos, d[0] + d[1])]], "rent", pos)
        return
    if kind in ("market", "aid"):
        draw(s, ev, seat, kind)
    elif kind == "tax_office":
        send_to_audit(s, ev, seat, "tax_office")
    elif kind == "excise":
        charge(s, ev, seat, [[None, EXCISE_DUTY]], "excise", pos)


def draw(s: State, ev: Events, seat: int, deck_name: str) -> None:
    deck = s["decks"][deck_name]
    held = {c for r in s["releases"] for c in r}
    order = deck["order"]
    at = deck["at"]
    while True:
        cid = order[at]
        at = (at + 1) % len(order)
        if cid in held:
            continue  # a kept release card is out of the loop until it is used
        if CARDS[cid]["effect"] == "random_transfer" and s["random_used"]:
            ev.append({"type": "card_skipped", "seat": seat, "card": cid})
            continue
        break
    deck["at"] = at
    ev.append({"type": "card", "seat": seat, "card": cid, "deck": deck_name})
    card_effect(s, ev, seat, cid)


def card_effect(s: State, ev: Events, seat: int, cid: int) -> None:
    card = CARDS[cid]
    eff = card["effect"]
    pos = s["pos"][seat]
    if eff == "to_start":
        move_to(s, ev, seat, 0, salary=True, how="card")
        land(s, ev, seat)
    elif eff == "random_transfer":
        s["random_used"] = True
        banned = {pos, s["last_random"]}
        choices = [t for t in range(40) if t not in banned]
        s["rng"], i = rng_below(s["rng"], len(choices))
        dest = choices[i]
        s["last_random"] = dest
        move_to(s, ev, seat, dest, salary=False, how="random")
        land(s, ev, seat)
    elif eff == "nearest_logistics":
        dest = next(t for t in (*LOGISTICS, LOGISTICS[0] + 40) if t > pos) % 40
        move_to(s, ev, seat, dest, salary=True, how="card")
        land(s, ev, seat)
    elif eff == "to_audit":
        send_to_audit(s, ev, seat, "card")
        s["phase"] = "act"
    elif eff == "release":
        s["releases"][seat].append(cid)
    elif eff == "back_three":
        move_to(s, ev, seat, (pos - 3) % 40, salary=False, how="back")
        land(s, ev, seat)
    elif eff == "gain":
        pay(s, ev, None, seat, card["amount"], "card")
    elif eff == "fee":
        charge(s, ev, seat, [[None, card["amount"]]], "card")
    elif eff == "pay_each":
        charge(s, ev, seat, [[r, card["amount"]] for r in rivals(s, seat)], "card")
    elif eff == "collect_each":
        for r in rivals(s, seat):
            charge(s, ev, r, [[seat, card["amount"]]], "card")
    elif eff == "repairs":
        branches = holdings = 0
        for t, o in enumerate(s["owner"]):
            if o == seat:
                lvl = s["level"][t]
                if lvl == 5:
                    holdings += 1
                else:
                    branches += lvl
        total = branches * card["per_branch"] + holdings * card["per_holding"]
        charge(s, ev, seat, [[None, total]], "card")


def roll_dice(s: State) -> tuple[int, int]:
    if s["dice_queue"]:
        a, b = s["dice_queue"].pop(0)
        return a, b
    r, a = rng_below(s["rng"], 6)
    s["rng"], b = rng_below(r, 6)
    return a + 1, b + 1


def audit_bail(s: State, ev: Events, seat: int) -> None:
    s["audit"][seat] = None
    pay(s, ev, seat, None, AUDIT_BAIL, "bail")


# --- auctions ---------------------------------------------------------------------------------
def next_bid(a: dict[str, Any]) -> int:
    return a["start"] if a["high"] is None else a["high"] + BID_STEP


def advance_auction(s: State, ev: Events, after: int | None) -> None:
    """Give the bid to the next seat still in (after `after`, or `a["at"]` itself when None),
    passing for anyone who lacks the money or is in debt; close the auction when nobody but
    the leader is left."""
    a = s["auction"]
    order, out = a["order"], a["out"]
    n = len(order)
    i = order.index(a["at"]) if after is None else (order.index(after) + 1) % n
    amount = next_bid(a)
    debtors = {d["seat"] for d in s["debts"]} if s["debts"] else ()
    for k in range(n):
        seat = order[(i + k) % n]
        if seat in out or seat == a["leader"]:
            continue
        if s["cash"][seat] < amount or seat in debtors or not s["active"][seat]:
            out.append(seat)
            ev.append({"type": "auction_pass", "seat": seat, "tile": a["tile"],
                       "why": "money"})
            continue
        a["at"] = seat
        return
    finish_auction(s, ev)


def finish_auction(s: State, ev: Events, *, cancelled: bool = False) -> None:
    a = s["auction"]
    s["auction"] = None
    tile, seller = a["tile"], a["seller"]
    if a["leader"] is not None and not cancelled:
        winner, price = a["leader"], a["high"]
        pay(s, ev, winner, seller, price, "auction", tile)
        set_owner(s, ev, tile, winner, "auction")
        ev.append({"type": "auction_won", "seat": winner, "tile": tile, "amount": price,
                   "seller": seller})
        return
    ev.append({"type": "auction_unsold", "tile": tile, "seller": seller,
               "cancelled": cancelled})
    if seller is not None:
        for d in s["debts"]:
            if d["seat"] == seller:
                d["unsold"].append(tile)
                break


def start_auction(s: State, ev: Events, tile: int, seller: int | None, first: int,
                  start: int) -> None:
    """Bank auction (seller None; every seat, `first` bids first) or a seat's own lot (only
    rivals, in turn order after the seller)."""
    if seller is None:
        order = s["order"]
        i = order.index(first)
        seats = [x for x in order[i:] + order[:i] if s["active"][x]]
    else:
        seats = rivals(s, seller)
    s["auction"] = {"tile": tile, "seller": seller, "order": seats, "out": [], "high": None,
                    "leader": None, "start": start, "at": seats[0]}
    ev.append({"type": "auction", "tile": tile, "seller": seller, "start": start})
    advance_auction(s, ev, None)


# --- the end of a seat and of the game ---------------------------------------------------------
def bankrupt(s: State, ev: Events, seat: int, creditors: list[int | None], why: str) -> None:
    """The seat is out: its tiles go back to the bank free, buildings to the stock, its cash
    to the creditors (split evenly, the remainder to the first; None = the bank)."""
    s["active"][seat] = False
    cash = s["cash"][seat]
    live = [c for c in creditors if c is None or s["active"][c]] or [None]
    share, rest = divmod(cash, len(live))
    for k, c in enumerate(live):
        pay(s, ev, seat, c, share + (rest if k == 0 else 0), "bankruptcy")
    for pos, o in enumerate(s["owner"]):
        if o == seat:
            free_tile(s, pos)
    for ind in s["uneven"][:]:
        if not any(s["level"][t] for t in _INDUSTRY_TILES[ind]):
            s["uneven"].remove(ind)
    s["releases"][seat] = []
    s["audit"][seat] = None
    s["debts"] = [d for d in s["debts"] if d["seat"] != seat]
    s["bankrupt"].append(seat)
    ev.append({"type": "bankrupt", "seat": seat, "to": live, "why": why})
    a = s["auction"]
    if a is not None:
        if seat in (a["seller"], a["leader"]):
            finish_auction(s, ev, cancelled=True)
        elif seat not in a["out"]:
            a["out"].append(seat)
            if a["at"] == seat:
                advance_auction(s, ev, seat)
    o = s["offer"]
    if o is not None and seat in (o["from"], o["to"]):
        s["offer"] = None
        ev.append({"type": "offer_dropped", "from": o["from"], "to": o["to"]})
    left = [x for x in s["order"] if s["active"][x]]
    if len(left) < 2:
        finish(s, ev, "last_standing")
        return
    if s["turn"] == seat:
        pass_turn(s, ev)


def pass_turn(s: State, ev: Events) -> None:
    """The next active seat's turn (also after the turn holder went bankrupt)."""
    order = s["order"]
    i = order.index(s["turn"])
    n = len(order)
    for k in range(1, n + 1):
        nxt = order[(i + k) % n]
        if s["active"][nxt]:
            break
    if order.index(nxt) <= i:
        s["round"] += 1
        if s["asks"]:  # forget the declined offers whose 5 rounds are over
            s["asks"] = {k: r for k, r in s["asks"].items() if r > s["round"]}
    ev.append({"type": "turn_end", "seat": s["turn"], "turn_number": s["turn_number"]})
    s["turn"] = nxt
    s["turn_number"] += 1
    if s["turn_number"] > s["turn_cap"] and cap_in_force(s):
        # Before the next turn's fresh start: the board keeps showing the last roll, as it
        # does after a game that ends by bankruptcy.
        finish(s, ev, "turn_cap")
        return
    s["phase"] = "roll"
    s["dice"] = None
    s["doubles"] = 0
    s["again"] = False
    s["built"] = False
    s["trade_used"] = False
    s["random_used"] = False
    ev.append({"type": "turn_start", "seat": nxt, "turn_number": s["turn_number"]})


def cap_in_force(s: State) -> bool:
    """Whether the turn cap may end this game now: only a game of programs alone (every seat
    still in is our bot or a bot account's program over the API: the simulator, a bench, a
    game whose people went bankrupt or left). The guide has no limit on laps or time for
    people; programs may play on for ever. `cap_people` is for tests only."""
    bots = s["bots"]
    if all(bots) or s.get("cap_people"):  # a state stored before the option has no key
        return True
    programs = s.get("programs") or [False] * len(bots)  # likewise
    active = s["active"]
    return not any(active[x] and not bots[x] and not programs[x] for x in range(len(bots)))


def finish(s: State, ev: Events, reason: str) -> None:
    left = [x for x in s["order"] if s["active"][x]]
    # On the turn cap the seats still in are placed by net worth (ties: turn order).
    left.sort(key=lambda x: -net_worth(s, x))
    placements = left + s["bankrupt"][::-1]
    s["phase"] = "finished"
    s["auction"] = None
    s["offer"] = None
    s["result"] = {"winner": placements[0], "placements": placements, "end_reason": reason,
                   "turn_number": s["turn_number"],
                   "net_worth": {str(x): net_worth(s, x) for x in left}}
    ev.append({"type": "game_over", "winner": placements[0], "placements": placements,
               "end_reason": reason})


_INDUSTRY_TILES: dict[str, tuple[int, ...]] = {}
for _pos, _ind in enumerate(INDUSTRY):
    if _ind is not None:
        _INDUSTRY_TILES[_ind] = (*_INDUSTRY_TILES.get(_ind, ()), _pos)
