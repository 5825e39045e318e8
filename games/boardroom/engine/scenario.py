"""Hand-built positions for tests, with injected dice, so a test reads like the rule it checks.

    st = scenario(seats=3, turn=0, pos={0: 7}, cash={1: 40},
                  owners={1: 0, 3: 0, 4: 0}, levels={1: 1}, dice=[(3, 4)],
                  market=[5], phase="roll")

Tiles are positions (board.py) or tile names. `market` / `aid` put those card ids on top of
that deck, in order. Other state keys can be passed as keywords (`stock=[2, 12]`). The state
is checked with `check_invariants`; `money_base` is set from the cash given, so the money
check holds from here on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .board import TILES
from .invariants import check_invariants
from .state import BRANCH_STOCK, HOLDING_STOCK, new_game

_BY_NAME = {t["name"]: t["pos"] for t in TILES}


def tile(x: int | str) -> int:
    """A position from a position or a tile name."""
    return x if isinstance(x, int) else _BY_NAME[x]


def scenario(*, seats: int = 2, seed: int = 1, turn: int = 0, order: list[int] | None = None,
             phase: str = "roll", cash: Mapping[int, int] | None = None,
             pos: Mapping[int, int | str] | None = None,
             owners: Mapping[int | str, int] | None = None,
             levels: Mapping[int | str, int] | None = None,
             dice: Iterable[tuple[int, int]] = (), audit: Mapping[int, int] | None = None,
             releases: Mapping[int, list[int]] | None = None,
             bots: list[bool] | None = None, market: Iterable[int] = (),
             aid: Iterable[int] = (), check: bool = True, **extra: Any) -> dict[str, Any]:
    st = new_game(seats=seats, seed=seed, bots=bots, shuffle_seats=False)
    st["order"] = list(order) if order is not None else list(range(seats))
    st["turn"] = turn
    st["phase"] = phase
    for s, c in (cash or {}).items():
        st["cash"][s] = c
    for s, p in (pos or {}).items():
        st["pos"][s] = tile(p)
    for t, s in (owners or {}).items():
        st["owner"][tile(t)] = s
    for t, lv in (levels or {}).items():
        st["level"][tile(t)] = lv
    st["stock"] = [BRANCH_STOCK - sum(lv for lv in st["level"] if lv < 5),
                   HOLDING_STOCK - sum(1 for lv in st["level"] if lv == 5)]
    for s, tries in (audit or {}).items():
        st["audit"][s] = tries
        st["pos"][s] = 10
    for s, ids in (releases or {}).items():
        st["releases"][s] = list(ids)
    st["dice_queue"] = [list(d) for d in dice]
    for name, top in (("market", list(market)), ("aid", list(aid))):
        if top:
            rest = [c for c in st["decks"][name]["order"] if c not in top]
            st["decks"][name] = {"order": top + rest, "at": 0}
    for k, v in extra.items():
        if k not in st:
            raise KeyError(f"unknown state key {k!r}")
        st[k] = v
    st["money_base"] = sum(st["cash"])
    st["bank"] = 0
    if check:
        bad = check_invariants(st)
        if bad:
            raise ValueError(f"scenario breaks invariants: {bad}")
    return st
