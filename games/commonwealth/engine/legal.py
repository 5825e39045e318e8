"""THE legal-action generator: who decides now, what they may do, and why anything else is
refused. `apply` accepts an action only when `problem(...)` returns None.

Most decisions are listed in full. Four carry a number or a bundle, and for those the list
shows typical choices while the rule here accepts any value it allows: a bid (a multiple of 5
above the high bid, up to what the bidder and the Fund could pay), a GO donation (5 up to your
cash), a Jail pledge (between `pledge_bounds`), and a deal offer (`offer_problem`).
"""

from __future__ import annotations

from typing import Any

from . import data
from .rules import (
    bid_cap,
    can_pay,
    cash_to_keep,
    deal_cash,
    donation_bounds,
    even_share,
    fund_may_cover,
    lowest_bid,
    may_place_on_landing,
    pledge_bounds,
    shuttle_stops,
)
from .state import OFFERS_PER_TURN, open_slots
from .targets import card_plays

State = dict[str, Any]
Action = dict[str, Any]


def to_decide(st: State) -> list[int]:
    """Seats owed a decision now (the GO donations are owed by everyone at once)."""
    if st["result"] is not None:
        return []
    if st["deal"] is not None:
        return [st["deal"]["to"]]
    step = st["step"]
    if step is None:
        return []
    kind = step["kind"]
    if kind == "auction":
        return [step["to_act"]]
    if kind == "jail_split":
        return [step["pledgers"][0]]
    if kind == "donate":
        return list(step["owed"])
    return [st["turn"]]


def _is_int(v: object) -> bool:
    return type(v) is int


def legal_actions(st: State, seat: int) -> list[Action]:
    """Every listed action of `seat` now. Deal offers are not listed (there are too many);
    `can_offer` says whether one may be made and `offer_problem` judges it."""
    if st["result"] is not None or not _is_int(seat) or not 0 <= seat < st["seats"]:
        return []
    deal = st["deal"]
    if deal is not None:
        if seat == deal["to"]:
            return [{"type": "accept"}, {"type": "decline"}]
        if seat == deal["from"]:
            return [{"type": "withdraw"}]
        return []
    if seat not in to_decide(st):
        return []
    step = st["step"]
    kind = step["kind"]
    p = st["players"][seat]
    if kind == "pre_roll":
        out: list[Action] = []
        if p["in_jail"]:
            out.append({"type": "jail_roll"})
            if p["cash"] >= data.JAIL_FEE:
                out.append({"type": "pay_jail"})
            if p["jail_card"]:
                out.append({"type": "jail_card"})
        else:
            out.append({"type": "roll"})
        if st["flags"]["developed"] is None and p["supply"] > 0:
            out += [{"type": "develop", "project": pid}
                    for pid, pr in enumerate(st["projects"])
                    if pr["manager"] == seat and open_slots(st, pid) > 0
                    and can_pay(st, seat, data.PROJECTS[pid]["fee"])]
        if not st["flags"]["played"] and p["kept"] is not None:
            out += card_plays(st, seat, p["kept"])
        return out
    if kind == "order":
        return [{"type": "order", "first": "move"}, {"type": "order", "first": "draw"}]
    if kind == "buy":
        if not can_pay(st, seat, data.PROJECTS[step["project"]]["price"]):
            return [{"type": "auction"}]
        return [{"type": "buy"}, {"type": "auction"}]
    if kind == "auction":
        return [*({"type": "bid", "amount": a} for a in _bid_choices(st, seat)),
                {"type": "pass"}]
    if kind == "chip":
        # Asked again: a deal made while the question was open may have changed the manager.
        if not may_place_on_landing(st, seat, step["project"]) \
                or not can_pay(st, seat, data.CHIP_COST):
            return [{"type": "no_chip"}]
        return [{"type": "chip"}, {"type": "no_chip"}]
    if kind == "shuttle":
        return [*({"type": "ride", "to": i} for i in shuttle_stops(step["from"])),
                {"type": "stay"}]
    if kind == "chance":
        if step["stage"] == "play":
            cands = step["cards"] + ([p["kept"]] if p["kept"] is not None else [])
            out = [a for c in dict.fromkeys(cands) for a in card_plays(st, seat, c)]
            return [*out, {"type": "skip"}]
        return [*({"type": "keep", "card": c} for c in dict.fromkeys(step["cards"])),
                {"type": "keep", "card": None}]
    if kind == "donate":
        return [{"type": "donate", "amount": a} for a in _donation_choices(st, seat)]
    if kind == "jail_split":
        lo, hi = pledge_bounds(st, step)
        return [{"type": "pledge", "amount": a}
                for a in dict.fromkeys((even_share(st, step), lo, hi))]
    return []


def _bid_choices(st: State, seat: int) -> list[int]:
    low = lowest_bid(st["step"])
    cap = bid_cap(st, seat)
    return [a for a in dict.fromkeys((low, low + 5, low + 15, low + 45)) if a <= cap]


def _donation_choices(st: State, seat: int) -> list[int]:
    low, high = donation_bounds(st, seat)
    return [a for a in dict.fromkeys((5, 10, 20, 50, high)) if low <= a <= high]


def can_offer(st: State, seat: int) -> bool:
    return (st["result"] is None and st["deal"] is None and _is_int(seat)
            and 0 <= seat < st["seats"] and st["players"][seat]["offers"] < OFFERS_PER_TURN)


_SIDE_KEYS = {"projects", "cash", "jail_card"}

# The seed's deals buy, sell or swap projects (for projects, cash and/or the Pardon card):
# cash for nothing, or cash for cash, is no deal.
DEAL_NEEDS_GOODS = ("A deal hands over at least one project or the Pardon card; "
                    "cash alone is not a deal")


# The seed: "The players CANNOT take the money from the Community Fund ... in a deal (trade)".
# Cash handed to a player and then made up by the Fund would be exactly that.
FUND_AFTER_DEAL = ("You handed cash to another player in a deal, so the Fund pays nothing "
                   "for you until {when}: pay with your own money")


def _keep_problem(st: State, seat: int, own: bool) -> str:
    """Why a side may not hand over that much cash, naming the side: `own` is the mover's."""
    keep, why = cash_to_keep(st, seat)
    if why == "auction":
        who = "You lead" if own else "They lead"
        must = "keep" if own else "they must keep"
        whose = "your" if own else "their"
        return (f"{who} the auction at {keep}: {must} that much of {whose} own money, "
                "as the Fund pays nothing for a seat that hands its cash away in a deal")
    if own:
        return f"Keep {keep} for the GO donation you still owe"
    return f"They must keep {keep} for the GO donation they still owe"


def _side_problem(st: State, seat: int, side: object, own: bool) -> str | None:
    """Why one side of a deal cannot be handed over (None: it can); `own` says whether it is
    the mover's side ("You ...") or the recipient's ("They ...")."""
    if not isinstance(side, dict) or set(side) - _SIDE_KEYS:
        return "Each side of a deal lists projects, cash and the Pardon card"
    projects = side.get("projects", [])
    cash = side.get("cash", 0)
    if not isinstance(projects, list) or not all(_is_int(x) for x in projects) \
            or len(set(projects)) != len(projects):
        return "Name each project of a deal once"
    for pid in projects:
        if not 0 <= pid < len(data.PROJECTS) or st["projects"][pid]["manager"] != seat:
            return "A deal can only hand over projects their side manages"
    if not _is_int(cash) or cash < 0:
        return "Cash in a deal is a whole number, zero or more"
    if cash > st["players"][seat]["cash"]:
        return "A deal's cash must come from the giver's own money (never the Fund)"
    if cash > deal_cash(st, seat):
        return _keep_problem(st, seat, own)
    if type(side.get("jail_card", False)) is not bool:
        return "Say true or false for the Pardon card"
    if side.get("jail_card") and not st["players"][seat]["jail_card"]:
        return "You do not hold the Pardon card" if own else "They do not hold the Pardon card"
    return None


def offer_problem(st: State, seat: int, action: Action) -> str | None:
    """Why an offer cannot be made (None: it can)."""
    if set(action) - {"type", "to", "give", "get"}:
        return "An offer has only a recipient, what you give and what you get"
    if st["deal"] is not None:
        return "Another deal is waiting for an answer"
    if st["players"][seat]["offers"] >= OFFERS_PER_TURN:
        return f"You may make {OFFERS_PER_TURN} offers a turn"
    to = action.get("to")
    if not _is_int(to) or not 0 <= to < st["seats"] or to == seat:
        return "Choose another player to offer the deal to"
    give, get = action.get("give", {}), action.get("get", {})
    problem = _side_problem(st, seat, give, own=True) or _side_problem(st, to, get, own=False)
    if problem:
        return problem
    if not any((give.get("projects"), give.get("jail_card"),
                get.get("projects"), get.get("jail_card"))):
        return DEAL_NEEDS_GOODS
    return None


def problem(st: State, seat: int, action: object) -> str | None:
    """Why `seat` may not take `action` now, in words a player can read (None: it may)."""
    if st["result"] is not None:
        return "The game is over"
    if not _is_int(seat) or not 0 <= seat < st["seats"]:
        return "There is no such seat"
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return "An action is a dict with a type"
    t = action["type"]
    if t == "offer":
        return offer_problem(st, seat, action)
    if any(type(v) not in (str, int) and v is not None for v in action.values()):
        return "Seats, projects, cards and amounts are whole numbers"
    deal = st["deal"]
    if deal is not None and t not in ("accept", "decline", "withdraw"):
        return "A deal is waiting for an answer first"
    if t in ("accept", "decline", "withdraw") and deal is None:
        return "There is no deal to answer"
    if seat not in to_decide(st) and not (deal and t == "withdraw"):
        if t == "bid" and (st["step"] or {}).get("sender") == seat:
            return "You cannot bid on a project you are auctioning"
        return "It is not your turn to decide"
    step = st["step"] or {}
    kind = step.get("kind")
    if t == "bid" and kind == "auction":
        amount = action.get("amount")
        if set(action) != {"type", "amount"} or not _is_int(amount):
            return "A bid is a whole number"
        low = lowest_bid(step)
        if amount < low:
            return f"The next bid must be at least {low}"
        if amount % data.AUCTION_STEP:
            return f"Bids go up in steps of {data.AUCTION_STEP}"
        if amount > bid_cap(st, seat):
            if not fund_may_cover(st, seat):
                return FUND_AFTER_DEAL.format(when="your next turn passes on")
            return "You and the Fund together could not pay that much"
        return None
    if t == "donate" and kind == "donate":
        amount = action.get("amount")
        if set(action) != {"type", "amount"} or not _is_int(amount):
            return "A donation is a whole number"
        low, high = donation_bounds(st, seat)
        if amount < low:
            return f"Everyone gives at least {low} to the Fund at GO"
        if amount > high:
            return "You cannot give more than you have"
        return None
    if t == "pledge" and kind == "jail_split":
        amount = action.get("amount")
        if set(action) != {"type", "amount"} or not _is_int(amount):
            return "A pledge is a whole number"
        lo, hi = pledge_bounds(st, step)
        if not lo <= amount <= hi:
            return f"Pledge between {lo} and {hi}"
        return None
    if action in legal_actions(st, seat):
        return None
    return _reason(st, seat, action)


def _reason(st: State, seat: int, action: Action) -> str:
    """The words for a refusal the generator already decided."""
    t = action["type"]
    step = st["step"] or {}
    kind = step.get("kind")
    p = st["players"][seat]
    if kind == "buy" and t in ("decline", "pass"):
        return "An unmanaged project must be bought or auctioned: you cannot decline both"
    if kind == "auction" and t == "bid" and seat == step.get("sender"):
        return "You cannot bid on a project you are auctioning"
    broke_by_deal = FUND_AFTER_DEAL.format(when="your turn passes on")
    if t == "buy" and kind == "buy" and not fund_may_cover(st, seat):
        return broke_by_deal
    if t == "develop":
        if kind != "pre_roll":
            return "You can only self-develop before you roll"
        if st["flags"]["developed"] is not None:
            return "You have already self-developed a project this turn"
        pid = action.get("project")
        if _is_int(pid) and 0 <= pid < len(data.PROJECTS) \
                and st["projects"][pid]["manager"] == seat and open_slots(st, pid) > 0 \
                and p["supply"] > 0 and not fund_may_cover(st, seat):
            return broke_by_deal
        return "You can only self-develop a project you manage that has an open slot"
    if t == "play_card":
        if st["flags"]["played"]:
            return "You can only play one Chance card a turn"
        if kind not in ("pre_roll", "chance"):
            return "Chance cards are played before you roll or when you draw"
        return "That card cannot be played that way now"
    if t == "ride":
        return "A shuttle only stops at a project up to the next Shuttle"
    if t == "pay_jail":
        if not p["in_jail"]:
            return "You are not in Jail"
        return f"You need {data.JAIL_FEE} of your own money to pay your way out"
    if t == "jail_card":
        return "You do not hold the Pardon card" if p["in_jail"] else \
            "You are not in Jail"
    if t == "roll" and p["in_jail"]:
        return "In Jail you roll the standard die alone (or pay, or use the card)"
    if t == "chip" and kind == "chip":
        if may_place_on_landing(st, seat, step["project"]) and not fund_may_cover(st, seat):
            return broke_by_deal
        return "You cannot place a chip there"
    if t == "keep" and kind == "chance":
        return "You can keep only one card, and only a card you drew"
    return "That move is not available now"

