"""The hard bot: the medium bot's shape with valuations that know what an industry earns.

What it does differently from medium (medium.py), every rule over the seat's view only:

- **Industry values.** A whole industry is worth what its businesses charge with three
  branches, per rival turn (the chance of landing on one tile is about 1/40), over a horizon
  of rival turns, scaled by how much of the game is left before the turn cap. The cheap
  industries are worth little, the expensive ones a lot, where medium pays three times the
  price for any last tile alike.
- **Trades.** It buys the last tile of an industry only when that value beats the premium and
  leaves cash to build; it swaps last tiles with a rival only when its own industry is worth
  at least about as much as the one it hands over, topped up with cash when the rival's tile
  is the dearer one. Its offers are priced at what a rival answering by tile values and the
  common safety check accepts (medium's way, computed from the public table, with a margin
  that also covers easy's), raised after a refusal by the rules' 10 plus a tenth of the
  price. It hands a rival an industry for cash only
  at a price above that industry's value to the rival (and never below the common safety
  check, `common.gives_away`). It also buys a rival's loose tile of an industry it has started
  when that makes it one tile short.
- **Auctions.** Bid limits from the same values: a tile that completes our industry or blocks
  a rival's is worth its price plus part of that industry's value.
- **Cash.** The reserve follows the rent we could owe on the next rolls (the rents rivals
  charge now); building is the best use of cash when we stand on our industry (a branch is
  net-worth neutral and a visit is rare), so it builds down to that reserve.
- **Audit.** Leaves early while the board is for sale, stays in while rivals' rents are high.
- **Consolidation** (medium's rule, `medium._consolidate`): with the branch stock empty, it
  closes a branch that earns less elsewhere so the business it stands on can grow.

Decisions are plain rules (tens of microseconds); no state is read and nothing is searched,
so the hidden information (deck order, dice) is never needed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ..engine.board import (
    BRANCH_COST,
    GROUP,
    INDUSTRIES,
    INDUSTRY,
    KIND,
    LOGISTICS,
    PRICE,
    RENTS,
)
from ..engine.state import BID_STEP
from . import common, medium
from .common import completes, find, gives_away, offer_ok, worst_rent

View = dict[str, Any]
Action = dict[str, Any]

# Expected rent per rival turn of a whole industry with three branches on each business.
IND_RENT: dict[str, float] = {ind: sum(RENTS[t][3] for t in tiles) / 40
                              for ind, tiles in INDUSTRIES.items()}


@dataclass(frozen=True)
class Params:
    horizon: float = 18.0  # rival turns an industry's value counts
    reserve_min: int = 40
    reserve_max: int = 400
    reserve_share: float = 0.15  # of the worst rent a rival could charge now
    build_keep: int = 0  # cash kept above the reserve when building
    swap_ratio: float = 0.85  # our industry / theirs for a both-complete swap
    buy_share: float = 0.8  # of an industry's value we pay at most over the price
    build_fund: float = 1.0  # times one round of branches kept after a cash purchase
    sell_ratio: float = 1.2  # cash over their industry's value to hand them one
    accept_margin: float = 1.1
    block_share: float = 0.35  # of a rival's industry value a blocking tile is worth
    leave_audit_free_tiles: int = 6
    stay_audit_rent: int = 250  # stay under audit while a rival rent is this high
    tries_per_turn: int = 3
    cash_offers: bool = True  # offer cash for the last tile of an industry
    loose_offers: bool = True  # offer cash for a loose tile of an industry we have started
    heads_up_swaps: bool = True  # with one rival left, still offer swaps (never cash)
    consolidate: bool = True  # medium's: with the stock empty, move a branch to where we stand
    auction_instead: float = 0.0  # with this many times the price in cash, auction instead


PARAMS = Params()


def _rivals(v: View, me: int) -> list[int]:
    return [s for s in range(v["seats"]) if s != me and v["active"][s]]


def game_left(v: View) -> float:
    """The share of the game still to play before the turn cap (1 at the start; always 1
    while no cap applies: a person is still in the game)."""
    cap = v["turn_cap"]
    if cap is None:
        return 1.0
    return max(0.0, min(1.0, (cap - v["turn_number"]) / max(1, cap)))


def industry_value(v: View, seat: int, ind: str, p: Params) -> float:
    """What holding the whole of `ind` is worth to `seat`, in money."""
    n = sum(1 for s in _rivals(v, seat))
    left = game_left(v)
    return IND_RENT[ind] * n * p.horizon * min(1.0, 4 * left)


def worth(v: View, me: int, tile: int, p: Params) -> float:
    """What `tile` is worth to `me`: its price, plus a share of the industry it completes
    for us, or of a rival's it blocks; logistics gain with the ones we hold."""
    owner = v["owner"]
    price = PRICE[tile]
    kind = KIND[tile]
    if kind == "business":
        others = [owner[t] for t in GROUP[tile] if t != tile]
        ind = INDUSTRY[tile]
        if others[0] == others[1] == me:
            return price + p.buy_share * industry_value(v, me, ind, p)
        if others[0] == others[1] and others[0] is not None:
            return price + p.block_share * industry_value(v, others[0], ind, p)
        mine = sum(1 for o in others if o == me)
        return price + 0.1 * mine * industry_value(v, me, ind, p) * (others.count(None) > 0)
    if kind == "logistics":
        return price + 40 * sum(1 for t in LOGISTICS if owner[t] == me and t != tile)
    return price


def reserve(v: View, me: int, p: Params) -> int:
    r = v.get("_hard_reserve")
    if r is None:
        r = v["_hard_reserve"] = max(p.reserve_min, min(p.reserve_max,
                                                        int(worst_rent(v, me) *
                                                            p.reserve_share)))
    return r


def choose_action(v: View, rng: random.Random, p: Params = PARAMS) -> Action:
    me = v["viewer"]
    legal = v["legal"]
    if not legal:
        raise ValueError("This seat has no decision to make now")
    first = legal[0]["type"]
    if first == "bid" or first == "pass":
        return _bid(v, me, legal, p)
    if first == "answer":
        return legal[0] if accept(v, me, p) else legal[1]
    if find(legal, "give_up") is not None:
        return medium.raise_money(v, me, legal, medium.STYLE)
    phase = v["phase"]
    if phase == "roll":
        return _audit_or_roll(v, me, legal, p)
    if phase == "buy":
        return _buy(v, me, legal, p)
    return _act(v, me, legal, p)


# --- decisions --------------------------------------------------------------------------------
def _bid(v: View, me: int, legal: list[Action], p: Params) -> Action:
    bid, pass_ = legal[0], legal[1]
    tile = v["auction"]["tile"]
    limit = min(worth(v, me, tile, p), v["cash"][me] - reserve(v, me, p) // 2)
    return bid if bid["amount"] <= limit else pass_


def _audit_or_roll(v: View, me: int, legal: list[Action], p: Params) -> Action:
    if v["audit"][me] is not None:
        free = sum(1 for o, pr in zip(v["owner"], PRICE, strict=True) if o is None and pr)
        if free >= p.leave_audit_free_tiles and worst_rent(v, me) < p.stay_audit_rent:
            a = find(legal, "use_release") or find(legal, "pay_bail")
            if a is not None:
                return a
    return legal[-1]  # roll


def _buy(v: View, me: int, legal: list[Action], p: Params) -> Action:
    buy = find(legal, "buy")
    if buy is not None:
        tile = buy["tile"]
        left = v["cash"][me] - PRICE[tile]
        if p.auction_instead and worth(v, me, tile, p) <= PRICE[tile] and \
                v["cash"][me] > p.auction_instead * PRICE[tile]:
            return find(legal, "decline")  # type: ignore[return-value]
        if left >= reserve(v, me, p) or (left >= 0 and worth(v, me, tile, p) > PRICE[tile]):
            return buy
    return find(legal, "decline")  # type: ignore[return-value]


def _act(v: View, me: int, legal: list[Action], p: Params) -> Action:
    build = find(legal, "build")
    if build is not None and v["cash"][me] - BRANCH_COST[build["tile"]] >= \
            reserve(v, me, p) + p.build_keep:
        return build
    if p.consolidate:
        close = medium._consolidate(v, me, legal, medium.STYLE)
        if close is not None:
            return close
    offer = propose(v, me, legal, p)
    if offer is not None:
        return offer
    return legal[-1]  # end_turn


# --- trades -----------------------------------------------------------------------------------
def _build_fund(tile: int, p: Params) -> int:
    return int(p.build_fund * 3 * BRANCH_COST[tile])


def _their_price(v: View, r: int, x: int, a: Action) -> int:
    """The least cash a medium-like rival takes for its tile `x` in a cash swap: above the
    safety check's price for a last tile and above its own value by a margin; after a
    refusal, 10 more than the refused sum."""
    need = common.tile_value(v, r, x) * 1.45
    if completes(v["owner"], v["viewer"], x, gaining=x):
        need = max(need, common.COMPLETION_FACTOR * PRICE[x])
    need = int(math.ceil(need / BID_STEP) * BID_STEP)
    refused = v["refused"].get(common.offer_key(v["viewer"], r, "swap", x, a.get("give")))
    if refused is not None:
        need = max(need, refused + 10 + PRICE[x] // 10)
    return need


def _top_up(v: View, r: int, x: int, y: int, a: Action) -> int:
    """Cash a medium-like rival needs on top of our tile `y` to give up its tile `x`."""
    after = v["owner"][:]
    after[x], after[y] = v["viewer"], r
    need = common.tile_value(v, r, x) * 1.45 - common.tile_value({"owner": after}, r, y)
    need = max(0, int(math.ceil(need / BID_STEP) * BID_STEP))
    refused = v["refused"].get(common.offer_key(v["viewer"], r, "swap", x, y))
    if refused is not None:
        need = max(need, refused + 10 + PRICE[x] // 10)
    return need


def propose(v: View, me: int, legal: list[Action], p: Params) -> Action | None:
    tried = sum(1 for k in v["refused"] if k.startswith(f"{me}>"))
    if tried >= p.tries_per_turn:
        return None
    # Heads-up, cash paid for a tile goes to the only rival (medium.py measured the same).
    heads_up = sum(v["active"]) == 2
    if heads_up and not p.heads_up_swaps:
        return None
    owner = v["owner"]
    cash = v["cash"][me]
    budget = cash - reserve(v, me, p)
    best: tuple[float, Action] | None = None
    for fam in legal:
        if fam["type"] != "propose" or fam["kind"] != "swap":
            continue
        r = fam["to"]
        for x in fam["take"]:
            if KIND[x] != "business":
                continue
            ind = INDUSTRY[x]
            others = [owner[t] for t in GROUP[x] if t != x]
            if others[0] == others[1] == me:
                ours = industry_value(v, me, ind, p)
                # A swap where both complete, topped up with the cash the rival wants for
                # the difference in tile values: worth it while ours beats theirs.
                for y in fam["give"]:
                    if y is None or not completes(owner, r, y, gaining=y, losing=x):
                        continue
                    theirs = industry_value(v, r, INDUSTRY[y], p)
                    if ours < p.swap_ratio * theirs:
                        continue
                    a = {"type": "propose", "kind": "swap", "to": r, "take": x, "give": y,
                         "cash": 0}
                    a["cash"] = _top_up(v, r, x, y, a)
                    gain = ours - theirs - a["cash"]
                    if (a["cash"] == 0 or gain > 0) and a["cash"] <= budget and \
                            offer_ok(v, me, a) and not gives_away(v, me, a, answering=False) \
                            and (best is None or gain > best[0]):
                        best = (gain, a)
                if not p.cash_offers or heads_up:
                    continue
                a = {"type": "propose", "kind": "swap", "to": r, "take": x, "give": None,
                     "cash": 0}
                c = _their_price(v, r, x, a)
                a["cash"] = c
                gain = p.buy_share * ours - (c - PRICE[x])
                if gain > 0 and c <= min(budget - _build_fund(x, p), fam["cash_max"]) \
                        and offer_ok(v, me, a) and not gives_away(v, me, a, answering=False) \
                        and (best is None or gain > best[0]):
                    best = (gain, a)
            elif p.loose_offers and not heads_up and me in others and owner[x] == r and \
                    others.count(r) == 0 and game_left(v) > 0.3:
                # A loose tile of an industry we have started: one tile short after it.
                a = {"type": "propose", "kind": "swap", "to": r, "take": x, "give": None,
                     "cash": 0}
                c = _their_price(v, r, x, a)
                a["cash"] = c
                gain = 0.25 * industry_value(v, me, ind, p) - (c - PRICE[x])
                if gain > 0 and c <= min(budget - 2 * _build_fund(x, p), fam["cash_max"]) \
                        and offer_ok(v, me, a) and not gives_away(v, me, a, answering=False) \
                        and (best is None or gain > best[0]):
                    best = (gain, a)
    return None if best is None else best[1]


def accept(v: View, me: int, p: Params = PARAMS) -> bool:
    """Answer an offer by value: never below the common safety check; an industry handed to
    a rival must be paid above its worth to them, or answered with one of ours as good."""
    o = v["offer"]
    if gives_away(v, me, o, answering=True):
        return False
    them = o["from"]
    owner = v["owner"]
    if o["kind"] == "swap":
        x, y, cash = o["take"], o["give"], o["cash"]
        lose = worth(v, me, x, p)
        gain = cash + (worth(v, me, y, p) if y is not None else 0)
        if KIND[x] == "business" and completes(owner, them, x, gaining=x, losing=y):
            theirs = industry_value(v, them, INDUSTRY[x], p)
            ours = industry_value(v, me, INDUSTRY[y], p) if y is not None and \
                completes(owner, me, y, gaining=y, losing=x) else 0.0
            if ours:
                return ours >= p.swap_ratio * theirs and gain >= lose - 0.5 * ours
            return cash >= PRICE[x] + p.sell_ratio * theirs
        return gain >= lose * p.accept_margin
    y = o["give"]
    return o["cash"] <= worth(v, me, y, p) and v["cash"][me] - o["cash"] >= reserve(v, me, p)


__all__ = ["IND_RENT", "PARAMS", "Params", "accept", "choose_action", "industry_value",
           "propose", "worth"]
