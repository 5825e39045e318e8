"""Hand-built positions with injected dice, so a test reads like the rule it checks.

    st = scenario(seats=3, cash={0: 30}, managers={0: 1, 2: 0}, chips={2: [0, 1]},
                  pos={0: 5}, kept={0: "remove_chip"}, deck_top=["fund_loss:100"],
                  dice=[(3, "2"), (6,)])

`dice` are consumed before the generator: (standard, face) for a roll of both dice, (std,)
for a roll in Jail. Card descriptors: a kind ("free_chip", "remove_chip", "swap",
"go_to_jail", "jail_free"), "fund_loss:<amount>", or a card id; each takes the first unused
matching card, and the cards named in `deck_top` go on top of the deck in that order. The
Bank's balance is whatever conserves the money; supplies follow from the chips on the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import data
from .invariants import check_invariants
from .state import new_game


def _find(desc: str | int, used: set[int]) -> int:
    for c in data.CARDS:
        if c["id"] in used:
            continue
        if isinstance(desc, int):
            ok = c["id"] == desc
        elif desc.startswith("fund_loss:"):
            ok = c["kind"] == "fund_loss" and c["amount"] == int(desc.split(":")[1])
        else:
            ok = c["kind"] == desc
        if ok:
            used.add(c["id"])
            return c["id"]
    raise ValueError(f"No unused card matches {desc!r}")


def scenario(*, seats: int = 2, seed: int = 0, turn: int = 0,
             cash: Mapping[int, int] | None = None, fund: int = data.FUND_START,
             managers: Mapping[int, int] | None = None,
             chips: Mapping[int, Iterable[int]] | None = None,
             pos: Mapping[int, int] | None = None,
             kept: Mapping[int, str | int] | None = None, jail_card: int | None = None,
             in_jail: Mapping[int, int] | None = None, deck_top: Iterable[str | int] = (),
             dice: Iterable[Iterable[Any]] = (), step: dict[str, Any] | None = None,
             **extra: Any) -> dict[str, Any]:
    st = new_game(seats=seats, seed=seed)
    st["turn"] = turn
    players = st["players"]
    for s, amount in (cash or {}).items():
        players[s]["cash"] = amount
    st["fund"] = fund
    for pid, s in (managers or {}).items():
        st["projects"][pid]["manager"] = s
    for pid, owners in (chips or {}).items():
        st["projects"][pid]["chips"] = list(owners)
        for s in owners:
            players[s]["supply"] -= 1
    for s, where in (pos or {}).items():
        players[s]["pos"] = where
    used: set[int] = set()
    for s, desc in (kept or {}).items():
        players[s]["kept"] = _find(desc, used)
    if jail_card is not None:
        players[jail_card]["jail_card"] = True
        used.add(data.JAIL_FREE_CARD)
    for s, turns in (in_jail or {}).items():
        players[s].update(in_jail=True, jail_turns=turns, pos=data.JAIL)
    top = [_find(d, used) for d in deck_top]
    st["deck"] = top + [c for c in st["deck"] if c not in used]
    st["dice"] = [list(d) for d in dice]
    if step is not None:
        st["step"] = step
    st.update(extra)
    st["bank"] = data.FUND_START - st["fund"] - sum(p["cash"] for p in players)
    problems = check_invariants(st)
    if problems:
        raise ValueError(f"Scenario breaks invariants: {problems}")
    return st


def card_id(desc: str | int) -> int:
    """The first card matching a descriptor (for naming a card in an action)."""
    return _find(desc, set())
