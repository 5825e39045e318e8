"""The medium bot: a heuristic player with a sense of the Fund.

It plays what helps it place chips (free chips at once, a rival's chip removed when that rival
is not behind, swaps that win it room or a pair), self-develops when its own money covers the
fee or the Fund is comfortable, buys projects, bids up to a project's worth, answers deals by
what it gains, and spares the Fund when it runs low (an empty Fund means nobody wins).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.commonwealth.engine import data

from .common import leader, me, mine, of_type, open_own, partner_manager, placed, project_value


@dataclass(frozen=True)
class Style:
    fund_floor: int = 500        # below this the bot stops spending the Fund's money
    shuttle_floor: int = 900     # ... and stops taking rides
    remove_margin: int = 0       # remove a chip of a rival with at least mine minus this
    swap_min: int = 15           # a swap must gain this much project value
    jail_buffer: int = 30        # pays its way out of Jail with 50 + this in cash
    bid_over_cash: int = 40      # bids up to own cash plus this (the Fund covers the rest)
    offer_rate: float = 0.3      # chance of proposing a pair-completing purchase in a turn
    rides_for_chips: bool = False  # take a shuttle to a project with room for its chip
    target_leader: bool = False  # remove the leader's chips rather than any rival's
    closing_floor: int | None = None  # the Fund floor once the bot is closing in ...
    closing_at: int = 8          # ... with this many chips placed


def floor(view: dict[str, Any], style: Style) -> int:
    """The Fund balance the bot will not spend below (lower once it is closing in)."""
    if style.closing_floor is not None and me(view)["placed"] >= style.closing_at:
        return style.closing_floor
    return style.fund_floor


MEDIUM = Style()


def choose(view: dict[str, Any], rng: random.Random, style: Style = MEDIUM) -> dict[str, Any]:
    if view["deal"] is not None:
        return answer_deal(view, style)
    kind = view["step"]["kind"]
    legal = view["legal"]
    if kind == "pre_roll":
        return pre_roll(view, rng, style)
    if kind == "order":
        return {"type": "order", "first": "move"}
    if kind == "buy":
        price = data.PROJECTS[view["step"]["project"]]["price"]
        afford = me(view)["cash"] >= price or view["fund"] - price >= floor(view, style)
        # Not listed when the Fund may not help (after handing cash away in a deal).
        return {"type": "buy" if afford and {"type": "buy"} in legal else "auction"}
    if kind == "auction":
        return bid(view, style)
    if kind == "chip":
        ok = me(view)["cash"] >= data.CHIP_COST or view["fund"] >= floor(view, style) // 2
        return {"type": "chip" if ok and {"type": "chip"} in legal else "no_chip"}
    if kind == "shuttle":
        return shuttle(view, style)
    if kind == "chance":
        if view["step"]["stage"] == "play":
            best = best_play(view, of_type(view, "play_card"), style)
            return best or {"type": "skip"}
        return keep(view)
    if kind == "donate":
        return donate(view, style)
    return legal[0]  # jail_split: the first listed pledge is the even share


def pre_roll(view: dict[str, Any], rng: random.Random, style: Style) -> dict[str, Any]:
    p = me(view)
    best = best_play(view, of_type(view, "play_card"), style)
    if best:
        return best
    devs = of_type(view, "develop")
    if devs:
        dev = min(devs, key=lambda a: (data.PROJECTS[a["project"]]["fee"], a["project"]))
        fee = data.PROJECTS[dev["project"]]["fee"]
        if p["cash"] >= fee or view["fund"] - fee >= floor(view, style):
            return dev
    if view["can_offer"] and p["offers"] == 0 and rng.random() < style.offer_rate:
        offer = pair_offer(view)
        if offer:
            return offer
    if p["in_jail"]:
        if of_type(view, "jail_card"):
            return {"type": "jail_card"}
        if p["cash"] >= data.JAIL_FEE + style.jail_buffer:
            return {"type": "pay_jail"}
        return {"type": "jail_roll"}
    return {"type": "roll"}


def play_score(view: dict[str, Any], a: dict[str, Any], style: Style) -> float:
    seat = view["viewer"]
    kind = data.CARD_KIND[a["card"]]
    if kind == "free_chip":
        return 100.0
    if kind == "remove_chip":
        rival = a["seat"]
        if style.target_leader and rival != leader(view, exclude=seat):
            return -1.0
        if placed(view, rival) < placed(view, seat) - style.remove_margin:
            return -1.0
        return 50.0 + placed(view, rival)
    gain = (project_value(view, a["theirs"], seat) - project_value(view, a["mine"], seat)
            + 10 * (view["projects"][a["theirs"]]["open"] > 0 and not open_own(view)))
    return gain - style.swap_min


def best_play(view: dict[str, Any], plays: list[dict[str, Any]], style: Style
              ) -> dict[str, Any] | None:
    scored = [(play_score(view, a, style), i, a) for i, a in enumerate(plays)]
    scored = [x for x in scored if x[0] >= 0]
    return max(scored, key=lambda x: (x[0], -x[1]))[2] if scored else None


def keep(view: dict[str, Any]) -> dict[str, Any]:
    rank = {"free_chip": 3, "remove_chip": 2, "swap": 1}
    keeps = [a for a in view["legal"] if a["card"] is not None]
    if not keeps:
        return {"type": "keep", "card": None}
    return max(keeps, key=lambda a: rank[data.CARD_KIND[a["card"]]])


def bid(view: dict[str, Any], style: Style) -> dict[str, Any]:
    bids = of_type(view, "bid")
    if not bids:
        return {"type": "pass"}
    low = min(a["amount"] for a in bids)
    pid = view["step"]["project"]
    worth = project_value(view, pid, view["viewer"])
    limit = min(worth, me(view)["cash"] + style.bid_over_cash)
    if view["fund"] - max(0, low - me(view)["cash"]) < floor(view, style):
        limit = min(limit, me(view)["cash"])
    return {"type": "bid", "amount": low} if low <= limit else {"type": "pass"}


def chip_room(view: dict[str, Any], pid: int) -> bool:
    pr = view["projects"][pid]
    if pr["manager"] is None or pr["open"] <= 0 or me(view)["supply"] <= 0:
        return False
    return pr["manager"] != view["viewer"] or view["flags"]["developed"] in (None, pid)


def shuttle(view: dict[str, Any], style: Style) -> dict[str, Any]:
    if view["fund"] < style.shuttle_floor:
        return {"type": "stay"}
    p = me(view)
    for a in of_type(view, "ride"):
        pid = data.PROJECT_AT.get(a["to"])
        if pid is None:
            continue
        pr = view["projects"][pid]
        if pr["manager"] is None and p["cash"] >= data.PROJECTS[pid]["price"]:
            return a
        if style.rides_for_chips and chip_room(view, pid):
            return a
    return {"type": "stay"}


def donate(view: dict[str, Any], style: Style) -> dict[str, Any]:
    seat = view["viewer"]
    cash = me(view)["cash"]
    if view["fund"] < style.fund_floor and placed(view, seat) >= placed(view, leader(view, seat)):
        return {"type": "donate", "amount": max(data.MIN_DONATION, min(cash, 50))}
    return {"type": "donate", "amount": data.MIN_DONATION}


def pair_offer(view: dict[str, Any]) -> dict[str, Any] | None:
    """Offer cash for the other project of a colour the bot already half holds."""
    seat = view["viewer"]
    cash = me(view)["cash"]
    for pid in mine(view):
        other = data.PARTNER[pid]
        owner = partner_manager(view, pid)
        if owner is None or owner == seat:
            continue
        price = data.PROJECTS[other]["price"] + 10
        if cash >= price:
            return {"type": "offer", "to": owner, "give": {"cash": price},
                    "get": {"projects": [other]}}
    return None


def deal_gain(view: dict[str, Any], seat: int, deal: dict[str, Any] | None = None) -> int:
    """What `deal` (the open one by default) is worth to `seat`: cash and card at face value
    (the card 30), projects by project_value."""
    deal = view["deal"] if deal is None else deal
    mine_side, their_side = ((deal["give"], deal["get"]) if deal["from"] == seat
                             else (deal["get"], deal["give"]))
    gain = their_side["cash"] - mine_side["cash"]
    gain += sum(project_value(view, pid, seat) for pid in their_side["projects"])
    gain -= sum(project_value(view, pid, seat) for pid in mine_side["projects"])
    gain += 30 * (their_side["jail_card"] - mine_side["jail_card"])
    return gain


def close_to_winning(view: dict[str, Any], proposer: int, seat: int) -> bool:
    """A rival this near its last chip, and ahead of `seat`, gets no help from a deal."""
    return (placed(view, proposer) >= data.CHIPS_PER_SEAT - 3
            and placed(view, proposer) > placed(view, seat))


def refusal(view: dict[str, Any], seat: int, deal: dict[str, Any]) -> tuple[str, int] | None:
    """Why `seat` declines `deal` (from any seat's view: every input is public), or None
    when it accepts: ("close", 0), or ("value", how much more it must gain)."""
    if close_to_winning(view, deal["from"], seat):
        return ("close", 0)
    gain = deal_gain(view, seat, deal)
    return None if gain >= 0 else ("value", -gain)


def answer_deal(view: dict[str, Any], style: Style) -> dict[str, Any]:
    seat = view["viewer"]
    deal = view["deal"]
    if deal["from"] == seat:
        return {"type": "withdraw"}
    return {"type": "decline" if refusal(view, seat, deal) else "accept"}
