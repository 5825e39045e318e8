"""How the game moves: payments, the Fund, chips, the dice's consequences and the agenda.

`apply` validates an action against the one generator (legal.py) and then calls a resolver
here on a private copy of the state. Resolvers change the copy, append events and leave the
next decision in `state["step"]`; `advance` then runs the turn's agenda (moves, landings,
draws, the end of the turn) until a seat owes a decision or the game ends.

Agenda tasks are plain dicts: {"t": "move", "n": steps}, {"t": "land"}, {"t": "draw", "n": k},
{"t": "chip", "p": project}, {"t": "jail"}.
"""

from __future__ import annotations

from typing import Any

from . import data
from .state import (
    chips_placed,
    holds_both,
    next_seat,
    open_slots,
    others_in_order,
    roll_both,
    roll_standard,
)
from .targets import card_plays

State = dict[str, Any]
Events = list[dict[str, Any]]


# --- money ------------------------------------------------------------------------------------
def _credit(st: State, to: int | str, amount: int) -> None:
    if to == "bank":
        st["bank"] += amount
    else:
        st["players"][to]["cash"] += amount


def fund_pays(st: State, ev: Events, amount: int, reason: str, to: int | str = "bank") -> int:
    """The Fund pays up to `amount`; emptying it ends the game (the community is ruined).
    Returns what it paid: it is never driven below zero."""
    take = min(amount, st["fund"])
    st["fund"] -= take
    _credit(st, to, take)
    ev.append({"type": "fund", "delta": -take, "reason": reason, "fund": st["fund"],
               "seat": st["turn"]})
    if st["fund"] <= 0:
        finish(st, ev, "fund_dry", None)
    return take


def fund_receives(st: State, ev: Events, amount: int, reason: str, seat: int | None) -> None:
    st["fund"] += amount
    ev.append({"type": "fund", "delta": amount, "reason": reason, "fund": st["fund"],
               "seat": seat})


def fund_may_cover(st: State, seat: int) -> bool:
    """Whether the Fund may pay what `seat` cannot. Not while the seat has handed more cash
    to other players in deals than it got back, since its last turn ended and until this
    (or its next) turn ends: the seed lets nobody take the Fund's money in a deal, and money
    given away and then made up by the Fund is just that (docs/commonwealth.md, 23).
    Works on a view as on the state: a view carries each seat's answer (`fund_covers`, public
    as the deals' terms are), not the cash it dealt away, and without that answer a view
    would read as "the Fund covers" (engine/view.py)."""
    p = st["players"][seat]
    if "fund_covers" in p:  # a seat's view
        return p["fund_covers"]
    return p.get("dealt_away", 0) <= 0  # a state stored before: no key


def can_pay(st: State, seat: int, amount: int) -> bool:
    """Whether `seat` may spend `amount` on a purchase, a fee, a chip or a winning bid now:
    with its own money alone, or with the Fund's help when the Fund may cover it."""
    return st["players"][seat]["cash"] >= amount or fund_may_cover(st, seat)


def pay(st: State, ev: Events, seat: int, amount: int, to: int | str, reason: str) -> None:
    """The seed's rule for every purchase: own money first, the Fund covers the rest (the
    generator offers a spending the Fund would help with only when `can_pay`)."""
    p = st["players"][seat]
    own = min(p["cash"], amount)
    p["cash"] -= own
    _credit(st, to, own)
    ev.append({"type": "payment", "seat": seat, "to": to, "amount": amount, "own": own,
               "from_fund": amount - own, "reason": reason})
    if amount > own:
        fund_pays(st, ev, amount - own, reason, to)


# --- endings ----------------------------------------------------------------------------------
def placements(st: State, winner: int | None) -> list[int]:
    """The winner first, then by chips placed (most first), ties in turn order."""
    rest = [s for s in st["order"] if s != winner]
    rest.sort(key=lambda s: -chips_placed(st, s))
    return ([winner] if winner is not None else []) + rest


def finish(st: State, ev: Events, reason: str, winner: int | None) -> None:
    if st["result"] is not None:
        return
    if st["step"] and st["step"]["kind"] == "chance":
        st["deck"].extend(st["step"]["cards"])  # drawn cards in hand go back under the deck
    st["result"] = {"winner": winner, "end_reason": reason,
                    "placements": placements(st, winner),
                    "chips": [chips_placed(st, s) for s in range(st["seats"])],
                    "fund": st["fund"], "turn_number": st["turn_number"],
                    "round": st["round"]}
    st["step"] = None
    st["agenda"] = []
    st["deal"] = None
    ev.append({"type": "game_over", "winner": winner, "end_reason": reason,
               "placements": list(st["result"]["placements"]), "fund": st["fund"]})


# --- chips ------------------------------------------------------------------------------------
def place_chip(st: State, ev: Events, seat: int, pid: int, how: str) -> None:
    st["players"][seat]["supply"] -= 1
    st["projects"][pid]["chips"].append(seat)
    ev.append({"type": "chip", "seat": seat, "project": pid, "how": how,
               "placed": chips_placed(st, seat), "full": open_slots(st, pid) == 0})
    if st["players"][seat]["supply"] == 0:
        finish(st, ev, "chips", seat)


def may_place_on_landing(st: State, seat: int, pid: int) -> bool:
    """Landing lets a seat place one chip for 10 on a managed project with room; on its own
    project only if it self-developed nothing else this turn (the self-develop exception lets
    the same project take a second chip)."""
    pr = st["projects"][pid]
    if pr["manager"] is None or open_slots(st, pid) <= 0 or st["players"][seat]["supply"] <= 0:
        return False
    return pr["manager"] != seat or st["flags"]["developed"] in (None, pid)


# --- turns ------------------------------------------------------------------------------------
def start_turn(st: State, ev: Events, seat: int) -> None:
    if st["turn_number"] >= st["ruleset"]["turnCap"]:
        finish(st, ev, "cap", None)
        return
    if seat != st["turn"]:
        st["doubles"] = 0
        # The last holder's go is over: cash it handed away in deals is forgotten.
        st["players"][st["turn"]]["dealt_away"] = 0
        if st["order"].index(seat) == 0:
            st["round"] += 1
    st["turn"] = seat
    st["turn_number"] += 1
    st["again"] = False
    st["flags"] = {"developed": None, "played": False}
    for p in st["players"]:
        p["offers"] = 0
    st["declined"] = None
    st["step"] = {"kind": "pre_roll"}
    ev.append({"type": "turn_start", "seat": seat, "turn_number": st["turn_number"],
               "in_jail": st["players"][seat]["in_jail"]})


def end_turn(st: State, ev: Events) -> None:
    seat = st["turn"]
    again = st["again"] and not st["players"][seat]["in_jail"]
    ev.append({"type": "turn_end", "seat": seat, "again": again})
    start_turn(st, ev, seat if again else next_seat(st, seat))


def advance(st: State, ev: Events) -> None:
    """Run the agenda until a decision is owed or the game is over."""
    while st["result"] is None and st["step"] is None:
        if st["agenda"]:
            _run(st, ev, st["agenda"].pop(0))
        else:
            end_turn(st, ev)


def _run(st: State, ev: Events, task: dict[str, Any]) -> None:
    t = task["t"]
    if t == "move":
        move(st, ev, task["n"])
    elif t == "land":
        land(st, ev)
    elif t == "draw":
        draw(st, ev, task["n"])
    elif t == "chip":
        if may_place_on_landing(st, st["turn"], task["p"]):
            st["step"] = {"kind": "chip", "project": task["p"]}
    elif t == "jail":
        send_to_jail(st, ev, st["turn"], "card")


def roll(st: State, ev: Events) -> None:
    seat = st["turn"]
    std, face = roll_both(st)
    double = face == "x2" or (face in ("2", "3", "4") and int(face) == std)
    ev.append({"type": "roll", "seat": seat, "die": std, "face": face, "double": double})
    st["last_roll"] = [std, face]  # public: the table shows both dice
    st["step"] = None
    if double:
        st["doubles"] += 1
        if st["doubles"] >= 3:
            send_to_jail(st, ev, seat, "three_doubles")
            return
    st["again"] = double
    if face in ("+1", "+2"):
        st["step"] = {"kind": "order", "draws": int(face[1]), "steps": std}
        return
    steps = std * 2 if face == "x2" else std + int(face)
    st["agenda"] = [{"t": "move", "n": steps}]


def move(st: State, ev: Events, steps: int) -> None:
    p = st["players"][st["turn"]]
    old = p["pos"]
    p["pos"] = (old + steps) % data.BOARD_SIZE
    passed = old + steps >= data.BOARD_SIZE
    ev.append({"type": "move", "seat": st["turn"], "from": old, "to": p["pos"],
               "steps": steps, "passed_go": passed})
    st["agenda"].insert(0, {"t": "land"})
    if passed:
        collect_wages(st, ev)


def collect_wages(st: State, ev: Events) -> None:
    """Reaching GO: everyone collects 50 from the Bank, then owes the Fund at least 5."""
    for p in st["players"]:
        p["cash"] += data.WAGE
    st["bank"] -= data.WAGE * st["seats"]
    ev.append({"type": "wages", "seat": st["turn"], "amount": data.WAGE})
    st["step"] = {"kind": "donate", "owed": list(st["order"])}


def land(st: State, ev: Events) -> None:
    seat = st["turn"]
    space = data.SPACES[st["players"][seat]["pos"]]
    kind = space["kind"]
    ev.append({"type": "land", "seat": seat, "space": space["index"], "kind": kind})
    if kind == "project":
        pid = space["project"]
        pr = st["projects"][pid]
        if pr["manager"] is None:
            st["agenda"].insert(0, {"t": "chip", "p": pid})
            st["step"] = {"kind": "buy", "project": pid}
        elif open_slots(st, pid) == 0:
            payout(st, ev, pid)
        else:
            st["agenda"].insert(0, {"t": "chip", "p": pid})
    elif kind == "chance":
        st["agenda"].insert(0, {"t": "draw", "n": 1})
    elif kind == "shuttle":
        st["step"] = {"kind": "shuttle", "from": space["index"]}
    elif kind == "go_to_jail":
        send_to_jail(st, ev, seat, "space")


def payout(st: State, ev: Events, pid: int) -> None:
    """A fully developed project: the Bank pays its manager and the Fund the same amount,
    twice the base when the manager holds both projects of the colour."""
    manager = st["projects"][pid]["manager"]
    amount = data.PROJECTS[pid]["payout"] * (2 if holds_both(st, manager, pid) else 1)
    st["players"][manager]["cash"] += amount
    st["bank"] -= 2 * amount
    ev.append({"type": "payout", "seat": st["turn"], "manager": manager, "project": pid,
               "amount": amount})
    fund_receives(st, ev, amount, "payout", manager)


def shuttle_stops(start: int) -> list[int]:
    """Where a ride from the Shuttle at `start` may stop: every project up to the next Shuttle,
    and that Shuttle itself (to ride on). Never a Chance or corner space."""
    out = []
    i = start
    while True:
        i = (i + 1) % data.BOARD_SIZE
        kind = data.SPACES[i]["kind"]
        if kind == "project":
            out.append(i)
        elif kind == "shuttle":
            out.append(i)
            return out


def ride(st: State, ev: Events, to: int) -> None:
    seat = st["turn"]
    ev.append({"type": "ride", "seat": seat, "from": st["players"][seat]["pos"], "to": to})
    st["step"] = None
    fund_pays(st, ev, data.SHUTTLE_FARE, "shuttle")
    if st["result"] is not None:
        return
    st["players"][seat]["pos"] = to  # a ride never collects GO money
    st["agenda"].insert(0, {"t": "land"})


# --- Jail -------------------------------------------------------------------------------------
def send_to_jail(st: State, ev: Events, seat: int, why: str) -> None:
    p = st["players"][seat]
    p["pos"] = data.JAIL
    p["in_jail"] = True
    p["jail_turns"] = 0
    st["again"] = False
    st["agenda"] = []
    st["step"] = None
    ev.append({"type": "jail", "seat": seat, "why": why})
    fund_pays(st, ev, data.JAIL_PENALTY, "jail")


def leave_jail(st: State, ev: Events, seat: int, how: str) -> None:
    p = st["players"][seat]
    p["in_jail"] = False
    p["jail_turns"] = 0
    ev.append({"type": "out_of_jail", "seat": seat, "how": how})


def jail_roll(st: State, ev: Events) -> None:
    seat = st["turn"]
    p = st["players"][seat]
    die = roll_standard(st)
    ev.append({"type": "jail_roll", "seat": seat, "die": die})
    st["last_roll"] = [die, None]  # no action die while trying to get out
    if die == 6:
        leave_jail(st, ev, seat, "six")  # then rolls both dice as usual (still pre_roll)
        return
    p["jail_turns"] += 1
    st["step"] = None
    if p["jail_turns"] < data.JAIL_TURNS:
        return  # the turn ends
    # The third miss: the fee is due and the seat moves by this roll (no action die, no
    # second turn). It pays what it can; the others cover the rest; the Fund pays last.
    leave_jail(st, ev, seat, "fee")
    paid = [0] * st["seats"]
    paid[seat] = min(p["cash"], data.JAIL_FEE)
    p["cash"] -= paid[seat]
    st["bank"] += paid[seat]
    st["agenda"] = [{"t": "move", "n": die}]
    st["step"] = {"kind": "jail_split", "jailed": seat, "needed": data.JAIL_FEE - paid[seat],
                  "pledgers": others_in_order(st, seat), "paid": paid}
    settle_split(st, ev)


def pledge_bounds(st: State, step: dict[str, Any]) -> tuple[int, int]:
    """What the first pledger may give: no more than it has or what is still needed, and no
    less than the later pledgers could not cover (the others pay together when they can).
    The bounds only shape the split: whatever the pledges leave unpaid is collected from
    what the players hold when the split settles (`settle_split`), so moving cash in a deal
    meanwhile never shifts any of the fee onto the Fund."""
    seat, later = step["pledgers"][0], step["pledgers"][1:]
    need = step["needed"]
    hi = min(st["players"][seat]["cash"], need)
    lo = max(0, need - sum(min(st["players"][s]["cash"], need) for s in later))
    return min(lo, hi), hi


def even_share(st: State, step: dict[str, Any]) -> int:
    lo, hi = pledge_bounds(st, step)
    share = -(-step["needed"] // len(step["pledgers"]))
    return max(lo, min(hi, share))


def _give_toward_fee(st: State, step: dict[str, Any], seat: int, amount: int) -> None:
    st["players"][seat]["cash"] -= amount
    st["bank"] += amount
    step["needed"] -= amount
    paid = step.setdefault("paid", [0] * st["seats"])
    paid[seat] += amount


def pledge(st: State, ev: Events, amount: int) -> None:
    step = st["step"]
    seat = step["pledgers"].pop(0)
    _give_toward_fee(st, step, seat, amount)
    ev.append({"type": "pledge", "seat": seat, "jailed": step["jailed"], "amount": amount})


def settle_split(st: State, ev: Events) -> None:
    """Pledges with nothing to choose are made at once. When nobody is left to choose, the
    fee is settled from what the players hold at that moment: anything the pledges left
    unpaid is taken from the jailed seat, then from the others in order from its left, and
    only what all of them together cannot pay comes from the Fund (the seed's last resort).
    So the Fund's share is exactly max(0, what is still owed - every player's cash) now."""
    step = st["step"]
    while step["pledgers"] and step["needed"] > 0:
        lo, hi = pledge_bounds(st, step)
        if lo != hi:
            return
        if hi:
            pledge(st, ev, hi)
        else:
            step["pledgers"].pop(0)
    st["step"] = None
    jailed = step["jailed"]
    payers = (jailed, *others_in_order(st, jailed))
    paid = step.setdefault("paid", [0] * st["seats"])
    for seat in payers:
        take = min(st["players"][seat]["cash"], step["needed"])
        if take:
            _give_toward_fee(st, step, seat, take)
    ev.append({"type": "jail_fee", "seat": jailed, "amount": data.JAIL_FEE,
               "paid": [[s, paid[s]] for s in payers if paid[s]],
               "from_fund": min(step["needed"], st["fund"])})
    if step["needed"] > 0:
        fund_pays(st, ev, step["needed"], "jail_fee")


def resettle_after_deal(st: State, ev: Events) -> None:
    """A deal made during the Jail split changes what the pledgers hold: a pledger left with
    no choice pays at once, as when the split opened."""
    if st["step"] is not None and st["step"]["kind"] == "jail_split":
        settle_split(st, ev)


# --- Chance -----------------------------------------------------------------------------------
def draw(st: State, ev: Events, n: int) -> None:
    seat = st["turn"]
    p = st["players"][seat]
    drawn = [st["deck"].pop(0) for _ in range(min(n, len(st["deck"])))]
    ev.append({"type": "draw", "seat": seat, "count": len(drawn), "cards": list(drawn)})
    keeps: list[int] = []
    jail = False
    for i, cid in enumerate(drawn):
        card = data.CARDS[cid]
        kind = card["kind"]
        if kind == "fund_loss":
            st["deck"].append(cid)
            ev.append({"type": "immediate", "seat": seat, "card": cid})
            fund_pays(st, ev, card["amount"], "card")
            if st["result"] is not None:
                st["deck"].extend(keeps + drawn[i + 1:])  # the game ended with them in hand
                return
        elif kind == "go_to_jail":
            st["deck"].append(cid)
            ev.append({"type": "immediate", "seat": seat, "card": cid})
            jail = True
        elif kind == "jail_free":
            p["jail_card"] = True
            ev.append({"type": "jail_card", "seat": seat})
        else:
            keeps.append(cid)
    if jail:
        st["agenda"].insert(0, {"t": "jail"})
    if keeps:
        st["step"] = {"kind": "chance", "cards": keeps, "stage": "play"}
        settle_chance(st, ev)


def settle_chance(st: State, ev: Events) -> None:
    """Skip the stages with nothing to choose. After the play stage an unplayed held card stays
    in hand, so the drawn ones go back under the deck (the seed's three choices)."""
    step = st["step"]
    seat = st["turn"]
    p = st["players"][seat]
    if step["stage"] == "play":
        candidates = step["cards"] + ([p["kept"]] if p["kept"] is not None else [])
        if st["flags"]["played"] or not any(card_plays(st, seat, c) for c in candidates):
            step["stage"] = "keep"
    if step["stage"] == "keep" and (p["kept"] is not None or not step["cards"]):
        return_cards(st, ev, step["cards"])
        st["step"] = None


def return_cards(st: State, ev: Events, cards: list[int]) -> None:
    if cards:
        st["deck"].extend(cards)
        ev.append({"type": "return", "seat": st["turn"], "count": len(cards),
                   "cards": list(cards)})


def play_card(st: State, ev: Events, seat: int, action: dict[str, Any]) -> None:
    cid = action["card"]
    p = st["players"][seat]
    step = st["step"]
    if step and step["kind"] == "chance" and cid in step["cards"]:
        step["cards"].remove(cid)
    else:
        p["kept"] = None
    st["flags"]["played"] = True
    st["deck"].append(cid)
    kind = data.CARD_KIND[cid]
    line = {"type": "play_card", "seat": seat, "card": cid, "kind": kind}
    if kind == "free_chip":
        ev.append({**line, "project": action["project"]})
        place_chip(st, ev, seat, action["project"], "card")
    elif kind == "remove_chip":
        pid, rival = action["project"], action["seat"]
        ev.append({**line, "project": pid, "rival": rival})
        st["projects"][pid]["chips"].remove(rival)
        st["players"][rival]["supply"] += 1
    else:
        mine, theirs = action["mine"], action["theirs"]
        other = st["projects"][theirs]["manager"]
        ev.append({**line, "mine": mine, "theirs": theirs, "rival": other})
        st["projects"][mine]["manager"] = other
        st["projects"][theirs]["manager"] = seat
    if st["result"] is None and step and step["kind"] == "chance":
        step["stage"] = "keep"
        settle_chance(st, ev)


def keep(st: State, ev: Events, cid: int | None) -> None:
    step = st["step"]
    if cid is not None:
        step["cards"].remove(cid)
        st["players"][st["turn"]]["kept"] = cid
        ev.append({"type": "keep", "seat": st["turn"], "card": cid})
    return_cards(st, ev, step["cards"])
    st["step"] = None


# --- auctions ---------------------------------------------------------------------------------
def open_auction(st: State, ev: Events, pid: int) -> None:
    seat = st["turn"]
    bidders = others_in_order(st, seat)
    st["step"] = {"kind": "auction", "project": pid, "sender": seat, "high": 0, "leader": None,
                  "bidders": bidders, "to_act": bidders[0]}
    ev.append({"type": "auction", "seat": seat, "project": pid})


def cash_to_keep(st: State, seat: int) -> tuple[int, str | None]:
    """What a seat must keep of its own money through a deal now, and why ("auction",
    "donation" or None): the high bid while it leads an auction (the Fund pays nothing for a
    seat that hands its cash away in a deal, so the bid would be its own), the minimum GO
    donation while it still owes one (decision 22)."""
    step = st["step"] or {}
    if step.get("kind") == "auction" and step["leader"] == seat:
        return step["high"], "auction"
    if step.get("kind") == "donate" and seat in step["owed"]:
        return data.MIN_DONATION, "donation"
    return 0, None


def donation_bounds(st: State, seat: int) -> tuple[int, int]:
    """What `seat` may give the Fund at GO: the minimum up to all its own money (the Fund
    never pays into itself). Works on a view as on the state (the gift form, board.py)."""
    return data.MIN_DONATION, st["players"][seat]["cash"]


def deal_cash(st: State, seat: int) -> int:
    """The most cash `seat` may hand over in a deal now: legal.offer_problem refuses more, and
    the players panel shows it (a deal form's cash limit). Works on a view as on the state:
    both carry the step and every seat's cash, which are public."""
    return max(0, st["players"][seat]["cash"] - cash_to_keep(st, seat)[0])


def lowest_bid(step: dict[str, Any]) -> int:
    """The least the next bid in an auction step may be: the opening bid, then a step above
    the high bid."""
    return max(data.AUCTION_START, step["high"] + data.AUCTION_STEP)


def bid_cap(st: State, seat: int) -> int:
    """A bid may exceed the bidder's cash (the Fund covers the rest) but not what the bidder
    and the Fund together could pay; a bidder the Fund may not help bids its own money.
    Works on a view as on the state (the bid form's limit, board.py): it reads the seat's
    cash, the Fund and `fund_may_cover`, all public."""
    fund = st["fund"] if fund_may_cover(st, seat) else 0
    return (st["players"][seat]["cash"] + fund) // data.AUCTION_STEP * data.AUCTION_STEP


def bid(st: State, ev: Events, seat: int, amount: int | None) -> None:
    step = st["step"]
    bidders = step["bidders"]
    i = bidders.index(seat)
    if amount is None:
        bidders.pop(i)
        ev.append({"type": "pass", "seat": seat, "project": step["project"]})
    else:
        step["high"], step["leader"] = amount, seat
        ev.append({"type": "bid", "seat": seat, "project": step["project"], "amount": amount})
        i += 1
    rest = [b for b in bidders if b != step["leader"]]
    if rest:
        n = len(bidders)
        step["to_act"] = next(bidders[(i + k) % n] for k in range(n)
                              if bidders[(i + k) % n] != step["leader"])
        return
    pid, leader = step["project"], step["leader"]
    st["step"] = None
    if leader is None:
        ev.append({"type": "unsold", "project": pid})
        return
    ev.append({"type": "sold", "seat": leader, "project": pid, "amount": step["high"]})
    st["projects"][pid]["manager"] = leader
    pay(st, ev, leader, step["high"], "bank", "auction")


def buy(st: State, ev: Events, seat: int, pid: int) -> None:
    st["step"] = None
    st["projects"][pid]["manager"] = seat
    ev.append({"type": "buy", "seat": seat, "project": pid,
               "price": data.PROJECTS[pid]["price"]})
    pay(st, ev, seat, data.PROJECTS[pid]["price"], "bank", "buy")
