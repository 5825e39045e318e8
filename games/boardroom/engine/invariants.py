"""`check_invariants(state)`: what must hold after every action (checked by the playouts)."""

from __future__ import annotations

from typing import Any

from .board import INDUSTRIES, IS_OWNABLE
from .cards import RELEASE_CARDS
from .legal import to_decide
from .state import BRANCH_STOCK, HOLDING_STOCK


def check_invariants(st: dict[str, Any]) -> list[str]:
    """Every broken rule, in words ([] when the state is sound)."""
    bad: list[str] = []
    cash = st["cash"]
    if sum(cash) != st["money_base"] + st["bank"]:
        bad.append(f"money not conserved: seats hold {sum(cash)}, expected "
                   f"{st['money_base'] + st['bank']}")
    if any(c < 0 for c in cash):
        bad.append(f"negative cash {cash}")
    level, owner = st["level"], st["owner"]
    branches = sum(lv for lv in level if lv < 5)
    holdings = sum(1 for lv in level if lv == 5)
    if st["stock"][0] + branches != BRANCH_STOCK or st["stock"][1] + holdings != HOLDING_STOCK:
        bad.append(f"stock broken: {st['stock']} with {branches} branches and {holdings} "
                   "holdings on the board")
    if min(st["stock"]) < 0:
        bad.append("negative stock")
    for pos in range(40):
        o = owner[pos]
        if o is not None:
            if not IS_OWNABLE[pos]:
                bad.append(f"tile {pos} cannot be owned")
            elif not st["active"][o]:
                bad.append(f"tile {pos} owned by bankrupt seat {o}")
        if level[pos] and (o is None or not 0 < level[pos] <= 5):
            bad.append(f"tile {pos} has buildings without an owner")
    for ind, tiles in INDUSTRIES.items():
        lv = [level[t] for t in tiles]
        if max(lv) and ind not in st["uneven"]:
            if len({owner[t] for t in tiles}) != 1:
                bad.append(f"{ind} is built without one owner of the whole industry")
            if max(lv) - min(lv) > 1:
                bad.append(f"{ind} is not built evenly: {lv}")
    held = [c for r in st["releases"] for c in r]
    if len(held) != len(set(held)) or not set(held) <= RELEASE_CARDS:
        bad.append(f"release cards broken: {held}")
    for d in st["debts"]:
        if not st["active"][d["seat"]] or d["amount"] <= 0:
            bad.append(f"bad debt {d}")
    if st["phase"] != "finished":
        if sum(st["active"]) < 2:
            bad.append("fewer than two seats but the game goes on")
        deciders = to_decide(st)
        if len(deciders) != 1 or not st["active"][deciders[0]]:
            bad.append(f"deciders {deciders}")
        if not st["active"][st["turn"]]:
            bad.append("the turn belongs to a bankrupt seat")
        a = st["auction"]
        if a is not None and a["leader"] is not None and cash[a["leader"]] < a["high"]:
            bad.append("the auction leader cannot pay the bid")
    elif st["result"] is None:
        bad.append("finished without a result")

    return bad
