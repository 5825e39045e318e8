"""What both bot levels share: reading a view, valuing tiles, and safe trade checks.

A bot sees only its view (engine/view.py). Values are in money: a tile is worth its price,
more when it completes or blocks an industry. `gives_away` is the simple evaluation no bot's
trade may fail: never hand a rival the last tile of an industry unless the same trade
completes one of ours.
"""

from __future__ import annotations

from typing import Any

from ..engine.board import (
    GROUP,
    IS_OWNABLE,
    KIND,
    LOGISTICS,
    LOGISTICS_RENT,
    OWNABLE,
    PRICE,
    RENTS,
)
from ..engine.legal import LazyLegal, ask_key, offer_key
from ..engine.state import BETTER_BY

# Handing a rival the last tile of an industry is fair only for this many times its price
# (or when the same trade completes one of ours).
COMPLETION_FACTOR = 3

View = dict[str, Any]
Action = dict[str, Any]


def concrete(legal: list[Action]) -> list[Action]:
    """The legal actions a bot may read without the after-roll trade and lot families being
    generated: all of them for a plain list; for a `LazyLegal` whose families are still
    pending, the concrete actions (in order, the families' place left out)."""
    if type(legal) is LazyLegal and legal._st is not None:  # families pending
        return list.copy(legal)
    return legal


def find(legal: list[Action], type_: str) -> Action | None:
    """The first legal action of this type (a concrete type: not "propose" or
    "auction_own", whose families may not be generated yet)."""
    # A pending LazyLegal's own items are its concrete actions: read them without a copy.
    pending = type(legal) is LazyLegal and legal._st is not None
    for a in list.__iter__(legal) if pending else legal:
        if a["type"] == type_:
            return a
    return None


def first_type(legal: list[Action]) -> str:
    """The type of the first concrete legal action (what the bots' dispatch looks at: bid,
    pass, answer, buy, decline; the families come only after the roll and in debt, where it
    takes the same branch)."""
    if type(legal) is LazyLegal and legal._st is not None:  # families pending
        return list.__getitem__(legal, 0)["type"]
    return legal[0]["type"]


def completes(owner: list, seat: int, tile: int, gaining: int | None = None,
              losing: int | None = None) -> bool:
    """Would `seat` hold the whole industry of `tile` with `gaining` added / `losing` gone?"""
    if KIND[tile] != "business":
        return False
    for t in GROUP[tile]:
        o = seat if t == gaining else (None if t == losing else owner[t])
        if o != seat:
            return False
    return True


def worst_rent(v: View, seat: int) -> int:
    """The highest rent a rival could charge this seat now (a cash reserve guide)."""
    owner, level = v["owner"], v["level"]
    # Owners and buildings change rarely, so the same board (and answer) comes back often;
    # one entry per board answers for every seat (the top rent, whose it is, and the top of
    # the other owners).
    key = (*owner, *level)
    top = _WORST.get(key)
    if top is None:
        if len(_WORST) >= 4096:
            _WORST.clear()
        top = _WORST[key] = _top_rents(owner, level)
    return top[0] if top[1] != seat else top[2]


_WORST: dict[tuple, tuple[int, int | None, int]] = {}


def _worst_rent(owner: list, level: list, seat: int) -> int:
    """`worst_rent` from the lists, uncached (kept for callers of the earlier helper)."""
    top = _top_rents(owner, level)
    return top[0] if top[1] != seat else top[2]


def _top_rents(owner: list, level: list) -> tuple[int, int | None, int]:
    """(the highest rent on the board, its owner, the highest rent of any other owner)."""
    by_owner: dict[int, int] = {}
    for t in OWNABLE:
        o = owner[t]
        if o is None:
            continue
        kind = KIND[t]
        if kind == "business":
            lvl = level[t]
            if lvl:
                r = RENTS[t][lvl]
            else:
                g = GROUP[t]
                r = RENTS[t][0] * (2 if owner[g[0]] == owner[g[1]] == owner[g[2]] else 1)
        elif kind == "logistics":
            r = LOGISTICS_RENT[(owner[5] == o) + (owner[15] == o) + (owner[25] == o)]
        else:
            r = 70 if owner[12] == owner[28] else 28
        if r > by_owner.get(o, 0):
            by_owner[o] = r
    best, who, second = 0, None, 0
    for o, r in by_owner.items():
        if r > best:
            best, who, second = r, o, best
        elif r > second:
            second = r
    return best, who, second


def tile_value(v: View, seat: int, tile: int) -> int:
    """What `tile` is worth to `seat`: its price, more if it completes our industry or blocks
    a rival's, or adds to our logistics."""
    owner = v["owner"]
    price = PRICE[tile]
    kind = KIND[tile]
    if kind == "business":
        # Plain loops over the three tiles (this runs for every bid): `mine` of the others
        # are ours; `rival` is the one other owner among them (`rivals` how many distinct).
        group = GROUP[tile]
        mine = rivals = 0
        rival = None
        for t in group:
            if t == tile:
                continue
            o = owner[t]
            if o == seat:
                mine += 1
            elif o is not None and o != rival:
                rivals += 1
                rival = o
        if mine == 2:
            return price * 2 + 100
        if rivals == 1 and (owner[group[0]] == rival) + (owner[group[1]] == rival) + \
                (owner[group[2]] == rival) == 2:
            return price * 3 // 2  # blocks a rival's industry
        return price + 20 * mine
    if kind == "logistics":
        n = 0
        for t in LOGISTICS:
            if t != tile and owner[t] == seat:
                n += 1
        return price + 40 * n
    return price


def offer_ok(v: View, me: int, a: Action) -> bool:
    """The offer memories (10 better after a bot's refusal, 5 rounds after a decline)."""
    key = offer_key(me, a["to"], a["kind"], a.get("take"), a.get("give"))
    refused = v["refused"].get(key)
    if refused is not None:
        if a["kind"] == "swap" and a["cash"] < refused + BETTER_BY:
            return False
        if a["kind"] == "sell" and a["cash"] > refused - BETTER_BY:
            return False
    until = v["asks"].get(ask_key(me, a["to"], a.get("take"), a.get("give")))
    return until is None or v["round"] >= until


def gives_away(v: View, me: int, offer: dict[str, Any], answering: bool) -> bool:
    """True when a trade hands the other side the last tile of an industry while we complete
    none and are paid less than COMPLETION_FACTOR times its price (the trade that "gives away
    the game"), or when the cash we pay leaves us without a rent reserve."""
    owner = v["owner"]
    if answering:
        them = offer["from"]
        # what we give and get, seen from the answering seat
        give, get = (offer["take"], offer["give"]) if offer["kind"] == "swap" \
            else (None, offer["give"])
        cash_out = offer["cash"] if offer["kind"] == "sell" else 0
    else:
        them = offer["to"]
        give, get = (offer["give"], offer["take"]) if offer["kind"] == "swap" \
            else (offer["give"], None)
        cash_out = offer["cash"] if offer["kind"] == "swap" else 0
    cash_in = offer["cash"] - cash_out if offer["kind"] == ("swap" if answering else "sell") \
        else 0
    if give is not None and completes(owner, them, give, gaining=give):
        ours = get is not None and completes(owner, me, get, gaining=get, losing=give)
        if not ours and cash_in < COMPLETION_FACTOR * PRICE[give]:
            return True
    return cash_out > 0 and v["cash"][me] - cash_out < worst_rent(v, me)


def my_tradeable(v: View, seat: int) -> list[int]:
    owner, level = v["owner"], v["level"]
    return [t for t in range(40) if owner[t] == seat and IS_OWNABLE[t]
            and (KIND[t] != "business" or not any(level[x] for x in GROUP[t]))]


__all__ = ["COMPLETION_FACTOR", "completes", "concrete", "find", "first_type", "gives_away",
           "my_tradeable", "offer_ok", "tile_value", "worst_rent"]
