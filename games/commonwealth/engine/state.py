"""The game state: its shape, the ruleset, the seeded generator and the dice.

A state is a plain JSON-able dict:

    {"game": "commonwealth", "version", "ruleset", "seed", "rng", "seats", "order",
     "players": [{"cash", "pos", "supply", "kept", "jail_card", "in_jail", "jail_turns",
                  "offers"}],
     "projects": [{"manager": seat | None, "chips": [seat, ...]}],   # 16, by project id
     "fund", "bank", "deck": [card id] (top first),
     "turn", "turn_number", "round", "doubles", "again", "flags": {"developed", "played"},
     "step": the decision owed now | None, "agenda": [task], "deal": open offer | None,
     "declined": the last deal declined this turn (its terms) | None,
     "dice": [[std, face] | [std]] (injected rolls, tests only),
     "last_roll": [std, face | None] | None (the latest roll, public), "result"}

`bank` is the Bank's running balance (it starts at 0 and goes negative as it pays wages and
payouts), so `sum(cash) + fund + bank` is always FUND_START: money is conserved. `rng` is the
PCG32 state, so a seed plus the action log reproduces a game exactly.
"""

from __future__ import annotations

from typing import Any

from . import data

MIN_SEATS = 2
MAX_SEATS = 4
TURN_CAP = 600          # a safety net (ending "cap"); no measured game comes near it
OFFERS_PER_TURN = 2     # deal offers each seat may make during one turn (keeps deals finite)

_MASK64 = (1 << 64) - 1
_PCG_MULT = 6364136223846793005
_PCG_INC = 1442695040888963407

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {"label": "standard", "turnCap": TURN_CAP},
}
PRESET_NAMES = {"standard": "Standard"}


class RulesetError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def resolve_ruleset(spec: dict[str, Any] | None) -> dict[str, Any]:
    """A full ruleset from {"preset", "turnCap"?}; strict about unknown keys and values."""
    spec = dict(spec or {})
    preset = spec.pop("preset", None) or spec.pop("label", None) or "standard"
    if preset not in PRESETS and preset != "custom":
        raise RulesetError("preset", f"Unknown preset {preset!r}")
    out = dict(PRESETS.get(preset, PRESETS["standard"]))
    for key, value in spec.items():
        if key != "turnCap":
            raise RulesetError(key, f"Unknown rule {key!r}")
        if type(value) is not int or not 20 <= value <= 5000:
            raise RulesetError(key, "The turn cap must be a whole number from 20 to 5000")
        out["turnCap"] = value
    out["label"] = "standard" if out["turnCap"] == TURN_CAP else "custom"
    return out


def seed_rng(seed: int) -> int:
    """SplitMix64 of the seed: a well-mixed 64-bit starting state."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _next32(s: int) -> tuple[int, int]:
    new = (s * _PCG_MULT + _PCG_INC) & _MASK64
    xorshifted = (((s >> 18) ^ s) >> 27) & 0xFFFFFFFF
    rot = s >> 59
    return new, ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF


def rng_below(s: int, n: int) -> tuple[int, int]:
    """A uniform int in [0, n) without modulo bias, and the next generator state."""
    threshold = (0x100000000 - n) % n
    while True:
        s, r = _next32(s)
        if r >= threshold:
            return s, r % n


def new_game(*, ruleset: dict[str, Any] | None = None, seats: int = 4, seed: int = 0
             ) -> dict[str, Any]:
    """A fresh game: tokens on GO, no money, 10 chips each, a shuffled deck, seat 0 to roll."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"Commonwealth takes {MIN_SEATS}–{MAX_SEATS} players")
    rules = resolve_ruleset(ruleset)
    rng = seed_rng(seed)
    deck = list(range(len(data.CARDS)))
    for i in range(len(deck) - 1, 0, -1):
        rng, j = rng_below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return {
        "game": "commonwealth", "version": 0, "ruleset": rules, "seed": int(seed), "rng": rng,
        "seats": seats, "order": list(range(seats)),
        "players": [new_player() for _ in range(seats)],
        "projects": [{"manager": None, "chips": []} for _ in data.PROJECTS],
        "fund": data.FUND_START, "bank": 0, "deck": deck,
        "turn": 0, "turn_number": 1, "round": 1, "doubles": 0, "again": False,
        "flags": {"developed": None, "played": False},
        "step": {"kind": "pre_roll"}, "agenda": [], "deal": None, "declined": None, "dice": [],
        "last_roll": None, "result": None,
    }


def new_player() -> dict[str, Any]:
    return {"cash": 0, "pos": data.GO, "supply": data.CHIPS_PER_SEAT, "kept": None,
            "jail_card": False, "in_jail": False, "jail_turns": 0, "offers": 0,
            "dealt_away": 0}


def roll_standard(state: dict[str, Any]) -> int:
    """The standard die (an injected roll first, when a test put one in `dice`)."""
    if state["dice"]:
        return int(state["dice"].pop(0)[0])
    state["rng"], r = rng_below(state["rng"], 6)
    return r + 1


def roll_both(state: dict[str, Any]) -> tuple[int, str]:
    """The standard die and the action die (2, 3, 4, ×2, +1, +2)."""
    if state["dice"]:
        std, face = state["dice"].pop(0)
        return int(std), str(face)
    state["rng"], r = rng_below(state["rng"], 6)
    state["rng"], f = rng_below(state["rng"], 6)
    return r + 1, data.ACTION_FACES[f]


def chips_placed(state: dict[str, Any], seat: int) -> int:
    return data.CHIPS_PER_SEAT - state["players"][seat]["supply"]


def holds_both(state: dict[str, Any], seat: int, pid: int) -> bool:
    return state["projects"][data.PARTNER[pid]]["manager"] == seat


def managed_by(state: dict[str, Any], seat: int) -> list[int]:
    return [pid for pid, p in enumerate(state["projects"]) if p["manager"] == seat]


def open_slots(state: dict[str, Any], pid: int) -> int:
    return data.PROJECTS[pid]["slots"] - len(state["projects"][pid]["chips"])


def next_seat(state: dict[str, Any], seat: int) -> int:
    order = state["order"]
    return order[(order.index(seat) + 1) % len(order)]


def others_in_order(state: dict[str, Any], seat: int) -> list[int]:
    """The other seats, starting with the one after `seat` (to its left)."""
    order = state["order"]
    i = order.index(seat)
    return [order[(i + k) % len(order)] for k in range(1, len(order))]
