"""The medium bot: buys with a rent reserve, bids up to what a tile is worth to it, builds
when it can afford to, trades for whole industries (cash, or a swap where both sides complete
one), answers offers by value, and raises money from its least useful property first.

Every choice is a plain rule over the view, so a decision costs a few tens of microseconds.
`Style` holds the numbers; the easy bot is the same shape with blunter ones (easy.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..engine.board import BRANCH_COST, GROUP, INDUSTRIES, INDUSTRY, PRICE, RENTS
from ..engine.legal import LazyLegal, ask_key
from .common import (
    completes,
    concrete,
    find,
    first_type,
    gives_away,
    offer_ok,
    tile_value,
    worst_rent,
)

View = dict[str, Any]
Action = dict[str, Any]


@dataclass(frozen=True)
class Style:
    reserve_min: int = 100
    reserve_max: int = 450
    reserve_share: float = 0.5  # of the worst rent a rival could charge now
    bid_factor: float = 1.0  # times the tile's value to us
    build_margin: int = 0  # cash kept above the reserve when building
    leave_audit_free_tiles: int = 8  # leave the audit early while this many tiles are for sale
    proposals_per_turn: int = 2
    trade_premium: float = 3.0  # cash offered for the last tile of an industry, times price
    accept_margin: float = 1.15  # what we get must beat what we give by this factor
    trades: bool = True
    buy_reserve: float = 1.0  # share of the reserve kept when buying
    # With more than this many times the price in cash, send the tile to auction instead of
    # buying: the decliner bids first at 75 %, so it often gets the tile for less (0: never).
    auction_instead: float = 2.0
    build_reserve: float = 1.0  # times the reserve kept when building
    # A lot we auction to raise money starts at this share of the price (never below the
    # bank's buyback): rivals bid up from there, not from half the price ten at a time.
    lot_start: float = 0.7
    # With the branch stock empty, close a branch of a poorer industry so the business we
    # stand on can grow (branches gather where they earn most, and holdings free four).
    consolidate: bool = True


STYLE = Style()


def reserve(v: View, me: int, style: Style) -> int:
    """Cash to keep for rent; computed once per decision (kept in the bot's own view dict)."""
    r = v.get("_reserve")
    if r is None:
        r = v["_reserve"] = max(style.reserve_min, min(style.reserve_max,
                                                       int(worst_rent(v, me) *
                                                           style.reserve_share)))
    return r


def choose_action(v: View, rng: random.Random, style: Style = STYLE) -> Action:
    me = v["viewer"]
    legal = v["legal"]
    if not legal:
        raise ValueError("This seat has no decision to make now")
    first = first_type(legal)
    if first == "bid" or first == "pass":
        return _bid(v, me, legal, style)
    if first == "answer":
        return legal[0] if _accept(v, me, style) else legal[1]
    if find(legal, "give_up") is not None:
        return raise_money(v, me, legal, style)
    phase = v["phase"]
    if phase == "roll":
        return _audit_or_roll(v, me, legal, style)
    if phase == "buy":
        return _buy(v, me, legal, style)
    return _act(v, me, legal, rng, style)


# --- decisions --------------------------------------------------------------------------------
def _bid(v: View, me: int, legal: list[Action], style: Style) -> Action:
    bid, pass_ = legal[0], legal[1]
    tile = v["auction"]["tile"]
    limit = min(int(tile_value(v, me, tile) * style.bid_factor),
                v["cash"][me] - reserve(v, me, style) // 2)
    return bid if bid["amount"] <= limit else pass_


def _audit_or_roll(v: View, me: int, legal: list[Action], style: Style) -> Action:
    if v["audit"][me] is not None:
        free = sum(1 for o, p in zip(v["owner"], PRICE, strict=True) if o is None and p)
        if free >= style.leave_audit_free_tiles:
            a = find(legal, "use_release") or find(legal, "pay_bail")
            if a is not None:
                return a
    return legal[-1]  # roll


def _buy(v: View, me: int, legal: list[Action], style: Style) -> Action:
    buy = find(legal, "buy")
    if buy is not None:
        tile = buy["tile"]
        left = v["cash"][me] - PRICE[tile]
        finishes = completes(v["owner"], me, tile, gaining=tile)
        if style.auction_instead and not finishes and \
                v["cash"][me] > style.auction_instead * PRICE[tile]:
            return find(legal, "decline")  # type: ignore[return-value]
        if left >= reserve(v, me, style) * style.buy_reserve or (
                finishes
                                              and left >= 0):
            return buy
    return find(legal, "decline")  # type: ignore[return-value]


def _lot(a: Action, style: Style) -> Action:
    """Our own lot, started at `lot_start` of the price (within the family's bounds)."""
    lo, step = a["start_min"], a["step"]
    above = int(PRICE[a["tile"]] * style.lot_start) - lo
    start = min(a["start_max"], lo + max(0, above) // step * step)
    return {"type": "auction_own", "tile": a["tile"], "start": start}


def _act(v: View, me: int, legal: list[Action], rng: random.Random, style: Style) -> Action:
    build = find(legal, "build")
    if build is not None and v["cash"][me] - BRANCH_COST[build["tile"]] >= \
            reserve(v, me, style) * style.build_reserve + style.build_margin:
        return build
    if style.consolidate:
        close = _consolidate(v, me, legal, style)
        if close is not None:
            return close
    if style.trades:
        offer = propose(v, me, legal, style)
        if offer is not None:
            return offer
    return legal[-1]  # end_turn


def _step_rent(tile: int, lvl: int) -> int:
    """What the rent of `tile` gains going from `lvl` to `lvl + 1` (an unbuilt business of a
    whole industry earns double its base)."""
    rents = RENTS[tile]
    return rents[lvl + 1] - (rents[0] * 2 if lvl == 0 else rents[lvl])


def _consolidate(v: View, me: int, legal: list[Action], style: Style) -> Action | None:
    """The stock has no branch for the business we stand on (a whole industry of ours, next in
    line to grow): close the top branch that earns least elsewhere, when it earns less than
    the one we would open here; the build follows as the next decision."""
    if v["stock"][0] or v["built"]:
        return None
    pos = v["pos"][me]
    owner, level = v["owner"], v["level"]
    group = GROUP[pos]
    if not group or any(owner[t] != me for t in group):
        return None
    lvl = level[pos]
    if lvl >= 4 or lvl > min(level[t] for t in group) or INDUSTRY[pos] in v["uneven"]:
        return None
    if v["cash"][me] - BRANCH_COST[pos] < reserve(v, me, style) * style.build_reserve + \
            style.build_margin:
        return None
    gain = _step_rent(pos, lvl)
    best = None
    for a in concrete(legal):
        t = a["type"] == "close" and a["tile"]
        if not t or t in group or level[t] == 5:
            continue
        loss = _step_rent(t, level[t] - 1)
        if loss < gain and (best is None or loss < best[0]):
            best = (loss, a)
    return None if best is None else best[1]


def propose(v: View, me: int, legal: list[Action], style: Style) -> Action | None:
    """A trade for the last tile of one of our industries: a swap where both sides complete
    one, else cash. At most `proposals_per_turn` tries a turn."""
    refused = v["refused"]
    tried = sum(1 for k in refused if k.startswith(f"{me}>")) if refused else 0
    if tried >= style.proposals_per_turn:
        return None
    owner = v["owner"]
    wanted = _wanted(owner, me)
    if not wanted:
        return None
    cash = v["cash"][me]
    budget = cash - reserve(v, me, style)
    if type(legal) is LazyLegal and legal.pending and \
            not _may_propose(v, me, wanted, budget, style):
        return None  # nothing below could be offered: leave the families ungenerated
    for fam in legal:
        if fam["type"] != "propose" or fam["kind"] != "swap":
            continue
        r = fam["to"]
        for x in fam["take"]:
            if x not in wanted:
                continue
            # A tile of ours that completes one of theirs: both gain, nobody gives away.
            for y in fam["give"]:
                if y is not None and completes(owner, r, y, gaining=y, losing=x):
                    a = {"type": "propose", "kind": "swap", "to": r, "take": x, "give": y,
                         "cash": 0}
                    a["cash"] = _bump(v, me, a, 0)
                    if a["cash"] <= budget and offer_ok(v, me, a) and \
                            not gives_away(v, me, a, answering=False):
                        return a
            want = int(PRICE[x] * style.trade_premium)
            a = {"type": "propose", "kind": "swap", "to": r, "take": x, "give": None,
                 "cash": want}
            a["cash"] = _bump(v, me, a, want)
            if 0 < a["cash"] <= min(budget, fam["cash_max"]) and offer_ok(v, me, a) and \
                    not gives_away(v, me, a, answering=False):
                return a
    return None


def _may_propose(v: View, me: int, wanted: set[int], budget: int, style: Style) -> bool:
    """False only when `propose` surely finds nothing. For each wanted tile: the cash offer
    is at least `trade_premium` times its price, so it fails when that is over budget, or
    leaves less than the worst rent (`gives_away`), or the holder declined these tiles in
    the last 5 rounds (`offer_ok`); and no tile of ours completes the holder's industry at a
    cost (zero or more) within budget."""
    owner = v["owner"]
    cash = v["cash"][me]
    asks = v["asks"]
    for x in wanted:
        r = owner[x]
        want = int(PRICE[x] * style.trade_premium)
        if want <= budget and cash - want >= worst_rent(v, me):
            until = asks.get(ask_key(me, r, x, None)) if asks else None
            if until is None or v["round"] >= until:
                return True
        if budget < 0:
            continue
        for y in range(40):
            if owner[y] == me and completes(owner, r, y, gaining=y, losing=x):
                return True
    return False


def _wanted(owner: list, me: int) -> set[int]:
    """Tiles held by a rival that are the last one we lack in an industry (cached by owners:
    callers never edit the set)."""
    key = (me, *owner)
    out = _WANTED.get(key)
    if out is not None:
        return out
    out = set()
    for tiles in INDUSTRIES.values():
        mine = [t for t in tiles if owner[t] == me]
        if len(mine) == 2:
            x = next(t for t in tiles if owner[t] != me)
            if owner[x] is not None:
                out.add(x)
    if len(_WANTED) >= 4096:
        _WANTED.clear()
    _WANTED[key] = out
    return out


_WANTED: dict[tuple, set[int]] = {}


def _bump(v: View, me: int, a: Action, cash: int) -> int:
    """After a refusal, offer 10 more than last time plus a tenth of the price."""
    from ..engine.legal import offer_key

    refused = v["refused"].get(offer_key(me, a["to"], a["kind"], a.get("take"), a.get("give")))
    if refused is None:
        return cash
    return max(cash, refused + 10 + PRICE[a["take"]] // 10)


def _accept(v: View, me: int, style: Style) -> bool:
    o = v["offer"]
    if gives_away(v, me, o, answering=True):
        return False
    if o["kind"] == "swap":
        lose = tile_value(v, me, o["take"])
        gain = o["cash"] + (tile_value(v, me, o["give"]) if o["give"] is not None else 0)
        return gain >= lose * style.accept_margin
    # they sell us a tile for our cash
    return o["cash"] <= tile_value(v, me, o["give"]) and \
        v["cash"][me] - o["cash"] >= reserve(v, me, style)


def raise_money(v: View, me: int, legal: list[Action], style: Style) -> Action:
    """Least useful first: lots outside our industries, then the bank after an unsold lot,
    then buildings with the least rent, then anything; give up when nothing is left."""
    owner = v["owner"]
    lots = [a for a in legal if a["type"] == "auction_own"]
    loose = [a for a in lots if not completes(owner, me, a["tile"])]
    if loose:
        a = min(loose, key=lambda x: tile_value(v, me, x["tile"]))
        return _lot(a, style)
    bank = find(legal, "sell_bank")
    if bank is not None:
        return bank
    closes = [a for a in legal if a["type"] == "close"]
    if closes:
        level = v["level"]
        return min(closes, key=lambda x: RENTS[x["tile"]][level[x["tile"]]])
    if lots:
        a = min(lots, key=lambda x: tile_value(v, me, x["tile"]))
        return _lot(a, style)
    return legal[-1]  # give_up


__all__ = ["STYLE", "Style", "choose_action", "propose", "raise_money", "reserve"]
