"""What a bot knows at a decision, in one compact shape: `Obs`.

A bot's only input is a seat's view (`games.chudopoly.engine.view(state, seat)`); `Obs.from_view`
turns its card dicts into card ids and keeps nothing else. The hard bot's playouts run inside worlds
it sampled itself (determinize.py), and there `Obs.from_state` reads that sampled world directly
with the same shape, so the medium policy can be the playout policy without building a view
per step. Either way a policy reads other players only through public fields: boards, banks,
hand *counts*, armed flags.
"""

from __future__ import annotations

import hashlib
import json
import random
from operator import itemgetter
from typing import Any

from games.chudopoly.engine.board import RENT_TABLE, SET_SIZE
from games.chudopoly.engine.cards import Catalogue, catalogue
from games.chudopoly.engine.legal import legal_actions
from games.chudopoly.engine.recent import Recent
from games.chudopoly.engine.view import shared_ids
from games.chudopoly.engine.winning import checkpoint_forecast

HOUSE_BONUS = 3
FOC_BONUS = 4
_id = itemgetter("id")


class Obs:
    """A seat's knowledge at one decision. Lists and dicts may be shared with the source: treat
    everything as read-only."""

    __slots__ = ("_boards", "_memo", "_seats", "active", "armed", "bank", "cat", "deck_count",
                 "discard", "hand", "hand_count", "legal", "me", "order", "pending", "phase",
                 "plays_left", "pure", "rearranges_left", "rules", "surge", "turn",
                 "turn_number", "turns_left", "upgrades", "zones")

    me: int
    cat: Catalogue
    rules: dict[str, Any]
    pure: bool
    turn: int
    turn_number: int
    phase: str
    plays_left: int
    rearranges_left: int
    surge: int
    deck_count: int
    order: list[int]
    active: list[bool]
    hand: list[int]
    hand_count: list[int]
    bank: list[list[int]]
    zones: list[dict[str, list[int]]]
    upgrades: list[dict[str, list[int]]]
    armed: list[bool]
    turns_left: list[int | None]
    pending: dict[str, Any] | None
    legal: list[dict[str, Any]]
    discard: list[int]

    def __init__(self) -> None:
        self._memo: dict[Any, Any] = {}
        self._boards: dict[int, dict[str, Any]] = {}  # board_memo, by seat
        self._seats: dict[int, dict[Any, float]] = {}  # medium.seat_memo, by seat

    @classmethod
    def from_view(cls, view: dict[str, Any], legal: list[dict[str, Any]] | None = None
                  ) -> Obs:
        """The seat's picture in `view`; `legal` stands for the view's legal actions when
        given (the medium bot's, for a payment whose selections it does not read)."""
        o = cls()
        o.me = view["viewer"]
        o.rules = rules = view["ruleset"]
        # A shared view shows one ruleset dict for the whole game: its catalogue by identity.
        hit = _CATALOGUES.new.get(id(rules)) or _CATALOGUES.get(id(rules))
        if hit is None or hit[0] is not rules:
            hit = (rules, catalogue(rules["deck"]))
            _CATALOGUES.put(id(rules), hit)  # held: its id is not reused while here
        o.cat = hit[1]
        o.pure = bool(rules["pureSetRequired"])
        o.turn = view["turn"]
        o.turn_number = view["turn_number"]
        o.phase = view["phase"]
        o.plays_left = view["plays_left"]
        o.rearranges_left = view["rearranges_left"]
        o.surge = view["surge"]
        o.deck_count = view["deck_count"]
        players = view["players"]
        o.order = list(view.get("order") or range(len(players)))
        o.hand = list(map(_id, view["hand"]))
        rows = []
        for p in players:
            # A shared view shows an unchanged player with the same entry from view to view:
            # what it says is read once per entry.
            row = _PLAYERS.new.get(id(p)) or _PLAYERS.get(id(p))
            if row is None or row[0] is not p:
                row = _player_row(p)
                if row[-1]:
                    _PLAYERS.put(id(p), row)  # held: its id is not reused while here
            rows.append(row)
        (_, o.active, o.hand_count, o.bank, o.zones, o.upgrades, o.armed, o.turns_left,
         _) = map(list, zip(*rows, strict=True))
        pending = view.get("pending")
        if pending is not None:
            pending = dict(pending)
            for k in ("card", "take", "give"):
                if isinstance(pending.get(k), dict):
                    pending[k] = pending[k]["id"]
        o.pending = pending
        o.legal = view["legal"] if legal is None else legal
        discard = view.get("discard", ())
        o.discard = shared_ids(discard) or list(map(_id, discard))
        return o

    @classmethod
    def from_state(cls, state: dict[str, Any], seat: int,
                   legal: list[dict[str, Any]] | None = None) -> Obs:
        """The same picture read straight from a state: only for worlds a bot built itself."""
        o = cls()
        o.me = seat
        o.rules = state["ruleset"]
        from games.chudopoly.engine.state import catalogue_for

        o.cat = catalogue_for(state)
        o.pure = bool(o.rules["pureSetRequired"])
        o.turn = state["turn"]
        o.turn_number = state["turn_number"]
        o.phase = state["phase"]
        o.plays_left = state["plays_left"]
        o.rearranges_left = state["rearranges_left"]
        o.surge = state["surge"]
        o.deck_count = len(state["deck"])
        players = state["players"]
        o.order = state["order"]
        o.active = [p["active"] for p in players]
        o.hand = players[seat]["hand"]
        o.hand_count = [len(p["hand"]) for p in players]
        o.bank = [p["bank"] for p in players]
        # Each board as the one object its content was first seen as (see `_world_board`).
        boards = [_world_board(p["zones"], p["upgrades"]) for p in players]
        o.zones = [b[0] for b in boards]
        o.upgrades = [b[1] for b in boards]
        o.armed = [p["armed_at"] is not None for p in players]
        o.turns_left = [None] * len(players)
        for s, p in enumerate(players):
            if p["armed_at"] is not None:
                forecast = checkpoint_forecast(state, s)
                o.turns_left[s] = forecast[1] if forecast else None
        o.pending = state["pending"]
        o.legal = legal if legal is not None else legal_actions(state, seat)
        o.discard = state["discard"]
        return o

    # ---- board questions ------------------------------------------------------------------

    def opponents(self) -> list[int]:
        hit = self._memo.get("opponents")
        if hit is None:
            hit = self._memo["opponents"] = [s for s in self.order
                                             if s != self.me and self.active[s]]
        return hit

    def is_set(self, seat: int, colour: str) -> bool:
        return colour in self.set_colours(seat)

    def _is_set(self, seat: int, colour: str) -> bool:
        zone = self.zones[seat].get(colour)
        if not zone or len(zone) < SET_SIZE[colour]:
            return False
        if self.pure:
            rainbow = self.cat.rainbow
            return any(not rainbow[c] for c in zone)
        return True

    def board_memo(self, seat: int) -> dict[str, Any]:
        """Answers that read only `seat`'s zones and upgrades, shared by every Obs showing the
        same zones objects (a shared view's or a state's unchanged board; read only)."""
        memo = self._boards.get(seat)
        if memo is None:
            zones, ups, cat = self.zones[seat], self.upgrades[seat], self.cat
            bkey = (id(zones), id(ups), id(cat), self.pure)
            hit = _BOARD_MEMOS.new.get(bkey) or _BOARD_MEMOS.get(bkey)
            if hit is not None and hit[0] is zones and hit[1] is ups and hit[2] is cat:
                memo = hit[3]
            else:
                memo = {}
                _BOARD_MEMOS.put(bkey, (zones, ups, cat, memo))  # held: ids are not reused
            self._boards[seat] = memo
        return memo

    def set_colours(self, seat: int) -> list[str]:
        memo = self._boards.get(seat) or self.board_memo(seat)
        hit = memo.get("sets")
        if hit is None:
            hit = memo["sets"] = [c for c in self.zones[seat] if self._is_set(seat, c)]
        return hit

    def sets(self, seat: int) -> int:
        return len(self.set_colours(seat))

    def zone_len(self, seat: int, colour: str) -> int:
        return len(self.zones[seat].get(colour, ()))

    def rent(self, seat: int, colour: str) -> int:
        zone = self.zones[seat].get(colour)
        if not zone:
            return 0
        table = RENT_TABLE[colour]
        rent = table[min(len(zone), len(table)) - 1]
        for u in self.upgrades[seat].get(colour, ()):
            rent += HOUSE_BONUS if self.cat.key[u] == "upgrade" else FOC_BONUS
        return rent

    def bank_total(self, seat: int) -> int:
        key = ("bank", seat)
        hit = self._memo.get(key)
        if hit is None:
            value = self.cat.value
            hit = self._memo[key] = sum(value[c] for c in self.bank[seat])
        return hit

    def board_value(self, seat: int) -> int:
        value = self.cat.value
        total = sum(value[c] for z in self.zones[seat].values() for c in z)
        return total + sum(value[c] for u in self.upgrades[seat].values() for c in u)

    def payable(self, seat: int) -> int:
        key = ("payable", seat)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self.bank_total(seat) + self.board_value(seat)
        return hit

    def loose_payable(self, seat: int) -> int:
        """What `seat` can pay without touching a complete set or its upgrades."""
        key = ("loose", seat)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._loose_payable(seat)
        return hit

    def _loose_payable(self, seat: int) -> int:
        memo = self._boards.get(seat) or self.board_memo(seat)
        loose = memo.get("loose")
        if loose is None:
            value = self.cat.value
            loose = memo["loose"] = sum(sum(value[c] for c in zone)
                                        for colour, zone in self.zones[seat].items()
                                        if not self.is_set(seat, colour))
        return self.bank_total(seat) + loose  # whole M: the same sum in any order

    def colour_of(self, seat: int, cid: int) -> str | None:
        memo = self._boards.get(seat) or self.board_memo(seat)
        where = memo.get("where")
        if where is None:
            # card -> zone for the whole board, built once per board (asked per listed steal)
            where = memo["where"] = {
                c: colour for colour, zone in self.zones[seat].items() for c in zone}
        return where.get(cid)

    def someone_armed(self) -> bool:
        hit = self._memo.get("armed")
        if hit is None:
            hit = self._memo["armed"] = any(self.armed[s] for s in self.opponents())
        return hit

    def memo(self, key: Any, compute: Any) -> Any:
        """A value computed once per decision (an Obs is never changed after it is built)."""
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = compute()
        return hit

    def target_sets(self) -> int:
        return int(self.rules["setsToWin"])


def _world_board(zones: dict[str, list[int]], ups: dict[str, list[int]]
                 ) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """A sampled world's board (zones and upgrades, read only) as the objects its content was
    first seen as. `apply` copies a player it changes, board and all, and every world starts
    from the same public boards, so the same boards come back as new objects at step after
    step; the bots' board answers (`board_memo`, `medium.seat_memo`) are kept by the board
    objects' identity, and find them again only if they are the same objects. Keyed by
    content in key order (the order the answers iterate in)."""
    key = (tuple(zones), tuple(map(tuple, zones.values())), tuple(ups),
           tuple(map(tuple, ups.values())))
    hit = _WORLD_BOARDS.new.get(key) or _WORLD_BOARDS.get(key)
    if hit is None:
        hit = (zones, ups)
        _WORLD_BOARDS.put(key, hit)
    return hit


def _player_row(p: dict[str, Any]) -> tuple[Any, ...]:
    """(the entry, then what `Obs` keeps of one player's entry in a view: active, hand count,
    bank ids, zones {colour: ids}, upgrades {colour: ids}, armed, opponent turns remaining,
    and whether the entry is a shared view's)."""
    # The parts of a shared view (engine.view(..., shared=True)) come with their ids.
    bank = shared_ids(p["bank"]) or list(map(_id, p["bank"]))
    ids = shared_ids(p["zones"])
    shared = ids is not None
    if ids is None:
        ids = ({z["colour"]: list(map(_id, z["cards"])) for z in p["zones"]},
               {z["colour"]: list(map(_id, z["upgrades"])) for z in p["zones"] if z["upgrades"]})
    return (p, p["active"], p["hand_count"], bank, ids[0], ids[1], bool(p["armed"]),
            p.get("opponent_turns_remaining"), shared)


# Shared views' player entries (id -> `_player_row`) and rulesets (id -> (ruleset, catalogue)).
_PLAYERS: Recent[int, tuple[Any, ...]] = Recent(128)
_CATALOGUES: Recent[int, tuple[dict[str, Any], Catalogue]] = Recent(16)

# Sampled worlds' boards by content (`_world_board`): states are values, never changed in place
# (apply copies a player it changes), so a board kept here keeps its content.
_WORLD_BOARDS: Recent[tuple, tuple[dict[str, list[int]], dict[str, list[int]]]] = Recent(512)

# About as many boards as the view keeps (engine/view.py), plus the hard bot's worlds' boards.
_BOARD_MEMOS: Recent[tuple, tuple[Any, ...]] = Recent(512)


def seed_of(view: dict[str, Any], salt: str = "") -> int:
    """A seed derived from what the seat sees, so the same view always gives the same move.
    (The game's own seed is not in a view, and must not be: it would reveal the deck.)"""
    key = {
        "salt": salt,
        "version": view.get("version"),
        "viewer": view.get("viewer"),
        "turn_number": view.get("turn_number"),
        "hand": [c["id"] for c in view.get("hand", ())],
        "boards": [[p.get("hand_count"), p.get("bank_total"), p.get("net_worth")]
                   for p in view.get("players", ())],
        "deck": view.get("deck_count"),
        "discard": view.get("discard_count"),
    }
    return seed_from(key)


def seed_from(key: dict[str, Any]) -> int:
    """The seed of `seed_of`'s key (also built from a state by the hard bot's playouts)."""
    digest = hashlib.blake2b(_SORTED_JSON.encode(key).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


# What `json.dumps(key, sort_keys=True)` builds at every call (the seed is taken at every
# decision): the same encoder, made once.
_SORTED_JSON = json.JSONEncoder(sort_keys=True)


def rng_for(view: dict[str, Any], salt: str = "") -> random.Random:
    return random.Random(seed_of(view, salt))


class LazyRng:
    """`rng_for(view, salt)`, made only when a tie asks for a number: most decisions have one
    best play, and hashing the view was a tenth of a medium decision."""

    __slots__ = ("_rng", "_salt", "_view")

    def __init__(self, view: dict[str, Any], salt: str = "") -> None:
        self._view: dict[str, Any] | None = view
        self._salt = salt
        self._rng: random.Random | None = None

    def _real(self) -> random.Random:
        if self._rng is None:
            assert self._view is not None
            self._rng = rng_for(self._view, self._salt)
            self._view = None
        return self._rng

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return self._real().randrange(*args, **kwargs)


def draws_nothing(deck_count: int, discard_count: int) -> bool:
    """Whether PCS Orders would draw back only itself: with the deck and the discard pile both
    empty, the card goes to the discard pile, is reshuffled into the deck and drawn again. The
    play changes nothing, and where it restarts the turn (passGoRestartsTurn) a bot that plays
    it whenever it can never ends its turn."""
    return deck_count == 0 and discard_count == 0
