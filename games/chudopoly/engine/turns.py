"""Setting up a game and the turn cycle: deal, automatic draw, reshuffle, end of turn and the
points endings checked there."""

from __future__ import annotations

from typing import NamedTuple

from .rulesets import resolve_ruleset
from .state import (
    DECK_CYCLE_LIMIT,
    EMPTY_HAND_DRAW,
    MAX_SEATS,
    MIN_SEATS,
    OPENING_HAND,
    PLAYS_PER_TURN,
    REARRANGE_BUDGET,
    TURN_DRAW,
    Tx,
    active_count,
    catalogue_for,
    hand_total,
    next_active,
    rng_shuffle,
    seed_rng,
)
from .winning import contest_expired, end_on_points, resolve_checkpoint, sync_contest


class Applied(NamedTuple):
    state: dict
    events: list[dict]


def reshuffle(tx: Tx) -> bool:
    """Shuffle the discard pile together with what is left of the deck (one deck cycle)."""
    s = tx.s
    if not s["discard"]:
        return False
    tx.piles()
    deck = s["deck"] + s["discard"]
    s["rng"] = rng_shuffle(deck, s["rng"])
    s["deck"] = deck
    s["discard"] = []
    s["shuffle_count"] += 1
    tx.emit({"type": "shuffle", "deck_count": len(deck), "shuffle_count": s["shuffle_count"]})
    return True


def draw(tx: Tx, seat: int, count: int, reason: str) -> list[int]:
    s = tx.s
    if len(s["deck"]) < count:
        reshuffle(tx)
    deck = tx.piles()[0]
    n = min(count, len(deck))
    drawn = deck[len(deck) - n:][::-1]
    del deck[len(deck) - n:]
    tx.p(seat)["hand"].extend(drawn)
    tx.emit({"type": "draw", "seat": seat, "count": n, "cards": [tx.cat.card(c) for c in drawn],
             "reason": reason, "from": "deck", "to": "hand"})
    return drawn


def begin_turn(tx: Tx) -> None:
    """Turn start: refill plays and rearranges, evaluate the checkpoint (before the draw), then
    draw 2, or 5 on an empty hand."""
    s = tx.s
    seat = s["turn"]
    s["phase"] = "play"
    s["plays_left"] = PLAYS_PER_TURN
    s["rearranges_left"] = REARRANGE_BUDGET
    s["surge"] = 0
    tx.emit({"type": "turn_start", "seat": seat, "turn_number": s["turn_number"]})
    sync_contest(tx)
    if resolve_checkpoint(tx, seat):
        return
    count = EMPTY_HAND_DRAW if not s["players"][seat]["hand"] else TURN_DRAW
    draw(tx, seat, count, "turn")
    s["hand_snapshot"] = hand_total(s)


def finish_turn(tx: Tx) -> None:
    """After end_turn (and any discard): the points endings, then the next active seat."""
    s = tx.s
    seat = s["turn"]
    s["surge"] = 0
    total = hand_total(s)
    dry = not s["deck"] and not s["discard"]
    s["idle_turns"] = s["idle_turns"] + 1 if dry and total == s["hand_snapshot"] else 0
    s["hand_snapshot"] = total
    tx.emit({"type": "turn_end", "seat": seat, "turn_number": s["turn_number"]})
    if s["idle_turns"] >= active_count(s):
        end_on_points(tx, "deck_dry")
        return
    if s["shuffle_count"] >= DECK_CYCLE_LIMIT:
        end_on_points(tx, "deck_cycles")
        return
    if contest_expired(s):
        end_on_points(tx, "contested")
        return
    pass_turn(tx, seat)


def pass_turn(tx: Tx, from_seat: int) -> None:
    s = tx.s
    s["turn"] = next_active(s, from_seat)
    s["turn_number"] += 1
    begin_turn(tx)


def start_game(*, ruleset: dict | None, seats: int, seed: int,
               shuffle_seats: bool = False) -> Applied:
    """A new game after the deal and turn 1's automatic draw, with the opening events."""
    rules = resolve_ruleset(ruleset)
    if not isinstance(seats, int) or seats < MIN_SEATS:
        raise ValueError("Need at least 2 players")
    if seats > MAX_SEATS:
        raise ValueError("Room is full (max 5)")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("seed must be an int")
    rng = seed_rng(seed)
    state = {
        "version": 0,
        "ruleset": rules,
        "seed": seed,
        "rng": rng,
        "order": list(range(seats)),
        "players": [
            {"hand": [], "bank": [], "zones": {}, "upgrades": {}, "active": True,
             "armed_at": None}
            for _ in range(seats)
        ],
        "deck": list(range(catalogue_for({"ruleset": rules}).size)),
        "discard": [],
        "turn": 0,
        "turn_number": 1,
        "phase": "play",
        "plays_left": PLAYS_PER_TURN,
        "rearranges_left": REARRANGE_BUDGET,
        "surge": 0,
        "pending": None,
        "shuffle_count": 0,
        "hand_snapshot": 0,
        "idle_turns": 0,
        "contested_since": None,
        "scooped": [],
        "result": None,
    }
    state["rng"] = rng_shuffle(state["deck"], state["rng"])
    if shuffle_seats:
        state["rng"] = rng_shuffle(state["order"], state["rng"])
    tx = Tx(state)
    s = tx.s
    s["turn"] = s["order"][0]
    tx.emit({"type": "game_start", "order": s["order"][:], "ruleset": rules["label"]})
    for seat in s["order"]:
        deck = tx.piles()[0]
        dealt = deck[len(deck) - OPENING_HAND:][::-1]
        del deck[len(deck) - OPENING_HAND:]
        tx.p(seat)["hand"].extend(dealt)
        tx.emit({"type": "deal", "seat": seat, "count": len(dealt),
                 "cards": [tx.cat.card(c) for c in dealt],
                 "from": "deck", "to": "hand"})
    begin_turn(tx)
    return Applied(s, tx.events)


def new_game(*, ruleset: dict | None, seats: int, seed: int, shuffle_seats: bool = False
             ) -> dict:
    """A new game's state, ready for the first seat's first play (turn 1 has drawn)."""
    return start_game(ruleset=ruleset, seats=seats, seed=seed, shuffle_seats=shuffle_seats).state
