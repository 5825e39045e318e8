"""The game state: its shape, fixed constants, the seeded generator and the working copy.

A state is a plain JSON-able dict; cards are int ids into the ruleset's deck (cards.py):

    {"version", "ruleset", "seed", "rng", "order", "players": [
        {"hand": [id], "bank": [id], "zones": {colour: [id]}, "upgrades": {colour: [id]},
         "active": bool, "armed_at": int | None}],
     "deck": [id] (top = last), "discard": [id] (top = last),
     "turn", "turn_number", "phase", "plays_left", "rearranges_left", "surge",
     "pending", "shuffle_count", "hand_snapshot", "idle_turns", "contested_since",
     "scooped": [seat], "result"}

`phase` is "play", "respond" (a pending action awaits answers), "discard" (the turn owner
must discard down to 7 before the turn ends) or "finished".

The random generator is PCG32 whose 64-bit state lives in `state["rng"]`, so a seed plus the
action log reproduces a game exactly and nothing depends on module-level randomness.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from .cards import COLOUR_KEYS, DECK_KINDS, Catalogue, catalogue

HAND_LIMIT = 7
PLAYS_PER_TURN = 3
REARRANGE_BUDGET = 12
SWAP_COST = 2
DECK_CYCLE_LIMIT = 16
CONTEST_LAP_CAP = 2
OPENING_HAND = 5
TURN_DRAW = 2
EMPTY_HAND_DRAW = 5
PCS_DRAW = 2
MIN_SEATS = 2
MAX_SEATS = 5

_MASK64 = (1 << 64) - 1
_PCG_MULT = 6364136223846793005
_PCG_INC = 1442695040888963407


def is_id(v: object) -> bool:
    """A card id or seat number: an int, and not a bool (JSON has no 1.0 ids)."""
    return type(v) is int


def ids_list(v: object) -> bool:
    """A list of ids, as a payment or discard selection must be."""
    return isinstance(v, list | tuple) and all(type(c) is int for c in v)


def seed_rng(seed: int) -> int:
    """SplitMix64 of the seed: a well-mixed 64-bit starting state for PCG32."""
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
    """A uniform int in [0, n) (rejection sampling, no modulo bias) and the next state."""
    threshold = (0x100000000 - n) % n
    while True:
        s, r = _next32(s)
        if r >= threshold:
            return s, r % n


def rng_shuffle(items: list, s: int) -> int:
    """Fisher–Yates in place; returns the next generator state."""
    for i in range(len(items) - 1, 0, -1):
        s, j = rng_below(s, i + 1)
        items[i], items[j] = items[j], items[i]
    return s


_CATALOGUES: dict[int, tuple[dict, Catalogue]] = {}
_BY_COUNTS: dict[tuple[int, ...], Catalogue] = {}
_counts_of = itemgetter(*DECK_KINDS)


def catalogue_for(state: dict) -> Catalogue:
    """The card lookups for this state's deck. Cached by the identity of the deck dict (states
    derived by `apply` share it), then by its counts (states loaded from storage)."""
    deck = state["ruleset"]["deck"]
    hit = _CATALOGUES.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    counts = _counts_of(deck)
    cat = _BY_COUNTS.get(counts)
    if cat is None:
        if len(_BY_COUNTS) > 256:
            _BY_COUNTS.clear()
        cat = _BY_COUNTS[counts] = catalogue(deck)
    if len(_CATALOGUES) > 512:
        _CATALOGUES.clear()
    _CATALOGUES[id(deck)] = (deck, cat)  # holding `deck` keeps its id from being reused
    return cat


def active_seats(state: dict) -> list[int]:
    """Active seats in turn order."""
    players = state["players"]
    return [s for s in state["order"] if players[s]["active"]]


def active_count(state: dict) -> int:
    return sum(1 for p in state["players"] if p["active"])


def next_active(state: dict, seat: int) -> int:
    order = state["order"]
    players = state["players"]
    n = len(order)
    i = order.index(seat)
    for step in range(1, n + 1):
        cand = order[(i + step) % n]
        if players[cand]["active"]:
            return cand
    return seat


def hand_total(state: dict) -> int:
    return sum(len(p["hand"]) for p in state["players"])


_COLOUR_RANK = {c: i for i, c in enumerate(COLOUR_KEYS)}


_ORDERED: dict[tuple[str, ...], bool] = {}


def _in_order(zones: dict) -> bool:
    if len(zones) < 2:
        return True
    keys = tuple(zones)
    ok = _ORDERED.get(keys)
    if ok is None:
        ranks = [_COLOUR_RANK[c] for c in keys]
        ok = ranks == sorted(ranks)
        if len(_ORDERED) < 4096:
            _ORDERED[keys] = ok
    return ok


def zone_of(zones: dict, colour: str) -> list[int]:
    """The list for `colour` in a zones/upgrades dict the caller owns, created in colour-table
    order when missing, so states the engine writes never need reordering."""
    zone = zones.get(colour)
    if zone is None:
        zone = zones[colour] = []
        if not _in_order(zones):
            ordered = sorted(zones.items(), key=lambda kv: _COLOUR_RANK[kv[0]])
            zones.clear()
            zones.update(ordered)
    return zone


def in_colour_order(state: dict) -> dict:
    """The state with every player's zones and upgrades keyed in colour-table order.

    Where an apply walks a player's zones (a scoop's discard order, a surrender, bankings)
    the dict order decides card order. PostgreSQL's JSONB hands keys back in its own order,
    so every apply starts from this one order: a game reloaded from the database and the same
    game replayed in memory then play on identically. Returns `state` itself when nothing
    needs reordering; never modifies it.
    """
    known = _KNOWN_ORDERED.get(id(state))
    if known is state:
        return state
    players = state["players"]
    ordered = _ORDERED
    for p in players:  # the common case, inline: every dict already in order
        z, u = p["zones"], p["upgrades"]
        if (len(z) > 1 and not ordered.get(tuple(z))) or (len(u) > 1 and not ordered.get(tuple(u))):
            break
    else:
        known_ordered(state)
        return state
    fixed: list[dict] | None = None
    for seat, p in enumerate(players):
        if _in_order(p["zones"]) and _in_order(p["upgrades"]):
            continue
        if fixed is None:
            fixed = players[:]
        fixed[seat] = {
            **p,
            "zones": {c: p["zones"][c] for c in sorted(p["zones"], key=_COLOUR_RANK.__getitem__)},
            "upgrades": {c: p["upgrades"][c]
                         for c in sorted(p["upgrades"], key=_COLOUR_RANK.__getitem__)},
        }
    state = state if fixed is None else {**state, "players": fixed}
    known_ordered(state)
    return state


# States known to be in colour order, by identity (held, so an id is never reused while here):
# every state `apply` returns, and every state already checked. A state is a value — nobody
# edits one in place — so the answer cannot go stale.
_KNOWN_ORDERED: dict[int, dict] = {}


def known_ordered(state: dict) -> None:
    if len(_KNOWN_ORDERED) >= 64:
        _KNOWN_ORDERED.clear()
    _KNOWN_ORDERED[id(state)] = state


def copy_player(p: dict) -> dict:
    ups = p["upgrades"]
    return {
        "hand": p["hand"][:],
        "bank": p["bank"][:],
        "zones": {c: z[:] for c, z in p["zones"].items()},
        "upgrades": {c: u[:] for c, u in ups.items()} if ups else {},
        "active": p["active"],
        "armed_at": p["armed_at"],
    }


def copy_pending(pending: dict | None) -> dict | None:
    if pending is None:
        return None
    q = dict(pending)
    q["targets"] = [dict(t) for t in pending["targets"]]
    return q


class Tx:
    """A working copy of a state for one `apply`. Players are copied on first write
    (`tx.p(seat)`); readers use `tx.s["players"][seat]`, which is always current."""

    __slots__ = ("_owned", "_piles", "cat", "events", "s")

    def __init__(self, state: dict, cat: Catalogue | None = None) -> None:
        s = dict(state)
        s["players"] = state["players"][:]
        if state["pending"] is not None:
            s["pending"] = copy_pending(state["pending"])
        self.s = s
        self.cat = cat or catalogue_for(state)
        self.events: list[dict] = []
        self._owned = [False] * len(s["players"])
        self._piles = False

    def p(self, seat: int) -> dict:
        """Seat `seat`'s player dict, copied on first use so it may be written."""
        if not self._owned[seat]:
            self.s["players"][seat] = copy_player(self.s["players"][seat])
            self._owned[seat] = True
        return self.s["players"][seat]

    def piles(self) -> tuple[list[int], list[int]]:
        """The deck and discard lists, copied on first use so they may be written."""
        s = self.s
        if not self._piles:
            s["deck"] = s["deck"][:]
            s["discard"] = s["discard"][:]
            self._piles = True
        return s["deck"], s["discard"]

    def discard(self) -> list[int]:
        return self.piles()[1]

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)
