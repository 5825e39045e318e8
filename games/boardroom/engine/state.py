"""The game state: its shape, fixed constants, the seeded generator and cheap copies.

A state is a plain JSON-able dict. Per-seat facts are parallel lists indexed by seat and
per-tile facts are lists of 40, so a copy is a handful of list slices (`copy_state`):

    {"game": "boardroom", "version", "seed", "rng", "seats", "bots": [bool],
     "programs": [bool], "order": [seat], "cash": [int], "pos": [int], "active": [bool],
     "audit": [None | failed tries], "releases": [[card id]],
     "owner": [None | seat] * 40, "level": [0..5] * 40 (5 = a holding),
     "stock": [branches, holdings], "decks": {"market": {"order": [id], "at": i}, "aid": ...},
     "turn", "turn_number", "round", "phase": "roll" | "buy" | "act" | "finished",
     "dice": None | [a, b], "doubles", "again", "built", "trade_used", "random_used",
     "last_random", "auction", "offer", "debts": [debt], "refused": {key: cash},
     "asks": {key: round}, "bankrupt": [seat], "bank": int, "money_base": int,
     "uneven": [industry broken up by the holding exception], "dice_queue": [[a, b]],
     "turn_cap", "cap_people", "result"}

Overlays decide who acts (legal.to_decide): a running auction, then a pending trade offer,
then the first debt, then the turn holder in `phase`. `bank` is the net sum the bank has paid
out, so the cash of all seats is always `money_base + bank` (invariants.py).

The generator is SplitMix64 with its 64-bit state in `state["rng"]`, so a seed plus the action
log reproduces a game exactly and nothing depends on module-level randomness.
"""

from __future__ import annotations

from typing import Any

from .cards import AID, DECK_IDS, MARKET

MIN_SEATS = 2
MAX_SEATS = 6
START_CASH = 1500
BRANCH_STOCK = 32
HOLDING_STOCK = 12
BID_STEP = 10
AUDIT_TRIES = 3
ASK_PAUSE_ROUNDS = 5
BETTER_BY = 10
# Turns; a game of programs alone (our bots, bot accounts over the API) still running then
# ends on net worth ("turn_cap"). The guide has "no limit on laps or time": while a person
# is still in the game no cap applies
# (rules.cap_in_force), except with `cap_people`, an option for tests that play a person's
# seat themselves (no table a person creates can set it: games/boardroom/game.py).
TURN_CAP = 1000

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def seed_rng(seed: int) -> int:
    return _mix((int(seed) * _GOLDEN + 1) & _MASK64)


def rng_below(s: int, n: int) -> tuple[int, int]:
    """(next generator state, a value in [0, n)). The 64-bit output makes the modulo bias
    below 1e-17 for the small n used here (dice, 40 tiles, shuffles of 10)."""
    s = (s + _GOLDEN) & _MASK64
    # _mix, inline (two of these run for every roll)
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return s, (z ^ (z >> 31)) % n


def rng_shuffle(items: list, s: int) -> int:
    """Fisher–Yates in place; returns the next generator state."""
    for i in range(len(items) - 1, 0, -1):
        s, j = rng_below(s, i + 1)
        items[i], items[j] = items[j], items[i]
    return s


def new_game(*, seats: int, seed: int, bots: list[bool] | None = None,
             human_first: int | None = None, turn_cap: int = TURN_CAP,
             shuffle_seats: bool = True, cap_people: bool = False,
             programs: list[bool] | None = None) -> dict[str, Any]:
    """A fresh game. The turn order is shuffled by the game's generator; `human_first` (a
    seat) is put first and the others follow in the shuffled order (the guide: against bots,
    you move first). `bots[i]` marks seats played by bots (their trade rules differ; seats
    not marked are people, and no turn cap ends a game while one of them is still in).
    `programs[i]` marks seats a bot account plays over the API: people for trades, programs
    for the cap. `turn_cap` ends a game of programs alone (bots and bot accounts);
    `cap_people` (tests only) lets it end a game with people too."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"Boardroom is played by {MIN_SEATS} to {MAX_SEATS} seats")
    bots = list(bots) if bots is not None else [False] * seats
    if len(bots) != seats:
        raise ValueError("bots must have one flag per seat")
    programs = list(programs) if programs is not None else [False] * seats
    if len(programs) != seats:
        raise ValueError("programs must have one flag per seat")
    if human_first is not None and (type(human_first) is not int
                                    or not 0 <= human_first < seats):
        raise ValueError("human_first must be a seat number")
    s = seed_rng(seed)
    order = list(range(seats))
    if shuffle_seats:
        s = rng_shuffle(order, s)
    if human_first is not None:
        order.remove(human_first)
        order.insert(0, human_first)
    decks = {}
    for name in (MARKET, AID):
        ids = list(DECK_IDS[name])
        s = rng_shuffle(ids, s)
        decks[name] = {"order": ids, "at": 0}
    return {
        "game": "boardroom", "version": 0, "seed": int(seed), "rng": s, "seats": seats,
        "bots": [bool(b) for b in bots], "programs": [bool(b) for b in programs],
        "order": order,
        "cash": [START_CASH] * seats, "pos": [0] * seats, "active": [True] * seats,
        "audit": [None] * seats, "releases": [[] for _ in range(seats)],
        "owner": [None] * 40, "level": [0] * 40, "stock": [BRANCH_STOCK, HOLDING_STOCK],
        "decks": decks, "turn": order[0], "turn_number": 1, "round": 1, "phase": "roll",
        "dice": None, "doubles": 0, "again": False, "built": False, "trade_used": False,
        "random_used": False, "last_random": None, "auction": None, "offer": None,
        "debts": [], "refused": {}, "asks": {}, "bankrupt": [], "bank": 0,
        "money_base": START_CASH * seats, "uneven": [], "dice_queue": [],
        "turn_cap": int(turn_cap), "cap_people": bool(cap_people), "result": None,
    }


def copy_state(st: dict[str, Any]) -> dict[str, Any]:
    """A copy `apply` may write: every mutable part is fresh, nothing deeper than needed."""
    s = dict(st)
    s["cash"] = st["cash"][:]
    s["pos"] = st["pos"][:]
    s["active"] = st["active"][:]
    s["audit"] = st["audit"][:]
    s["releases"] = [r[:] for r in st["releases"]]
    s["owner"] = st["owner"][:]
    s["level"] = st["level"][:]
    s["stock"] = st["stock"][:]
    s["decks"] = {k: {"order": d["order"], "at": d["at"]} for k, d in st["decks"].items()}
    a = st["auction"]
    if a is not None:
        s["auction"] = {**a, "order": a["order"][:], "out": a["out"][:]}
    if st["offer"] is not None:
        s["offer"] = dict(st["offer"])
    s["debts"] = [{**d, "to": [c[:] for c in d["to"]], "auctioned": d["auctioned"][:],
                   "unsold": d["unsold"][:]} for d in st["debts"]]
    s["refused"] = dict(st["refused"])
    s["asks"] = dict(st["asks"])
    s["bankrupt"] = st["bankrupt"][:]
    s["uneven"] = st["uneven"][:]
    s["dice_queue"] = [d[:] for d in st["dice_queue"]]
    if st["dice"] is not None:
        s["dice"] = st["dice"][:]
    return s


def active_seats(st: dict[str, Any]) -> list[int]:
    """Active seats in turn order."""
    act = st["active"]
    return [x for x in st["order"] if act[x]]


def rivals(st: dict[str, Any], seat: int) -> list[int]:
    """The other active seats, in turn order starting after `seat`."""
    order = st["order"]
    i = order.index(seat)
    act = st["active"]
    return [x for x in order[i + 1:] + order[:i] if act[x]]


def has_debt(st: dict[str, Any], seat: int) -> bool:
    return any(d["seat"] == seat for d in st["debts"])
