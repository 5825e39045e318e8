"""Sets, arming, the final-approach checkpoint, contested approaches and every way a game ends.

`sync_sets` is the one function every set-count change runs through (REFERENCE §6): it
announces completed and broken sets, arms and disarms, and wins on the spot under "instant"
(or under "mdFaithful" when the set completes on the player's own turn, per RULINGS).
"""

from __future__ import annotations

from .board import complete_colours, net_worth
from .state import CONTEST_LAP_CAP, Tx, active_count, active_seats


def completed(tx: Tx, seat: int) -> list[str]:
    return complete_colours(tx.cat, tx.s["players"][seat], tx.s["ruleset"]["pureSetRequired"])


def sets_of(state: dict, cat, seat: int) -> int:
    return len(complete_colours(cat, state["players"][seat], state["ruleset"]["pureSetRequired"]))


def sync_sets(tx: Tx, seat: int, before: list[str], by: int | None = None) -> None:
    s = tx.s
    after = completed(tx, seat)
    for colour in after:
        if colour not in before:
            tx.emit({"type": "set_completed", "seat": seat, "colour": colour,
                     "sets": len(after)})
    for colour in before:
        if colour not in after:
            tx.emit({"type": "set_broken", "seat": seat, "colour": colour, "sets": len(after),
                     "by": by if by != seat else None})
    if s["phase"] == "finished":
        return
    rules = s["ruleset"]
    target = rules["setsToWin"]
    n = len(after)
    p = s["players"][seat]
    if rules["winRule"] == "instant":
        if n >= target and p["active"]:
            finish(tx, seat, "sets")
        return
    if n >= target and p["armed_at"] is None and p["active"]:
        tx.p(seat)["armed_at"] = s["turn_number"]
        own_turn = s["turn"] == seat
        sync_contest(tx)
        if (rules["winRule"] == "mdFaithful" and own_turn
                and contest_blocks(s, tx.cat, seat) is None):
            finish(tx, seat, "sets")
            return
        forecast = checkpoint_forecast(s, seat)
        tx.emit({"type": "final_approach", "seat": seat, "sets": n, "on_own_turn": own_turn,
                 "checkpoint_turn": forecast[0] if forecast else None,
                 "opponent_turns_remaining": forecast[1] if forecast else None})
        return
    if n < target and p["armed_at"] is not None:
        tx.p(seat)["armed_at"] = None
        tx.emit({"type": "final_approach_broken", "seat": seat,
                 "by": by if by is not None and by != seat else None})
    sync_contest(tx)


def checkpoint_threshold(state: dict) -> int:
    return 1 if state["ruleset"]["winRule"] == "mdFaithful" else active_count(state)


def checkpoint_forecast(state: dict, seat: int) -> tuple[int, int] | None:
    """(turn number of the converting turn, opponent turns before it), or None if not armed.
    Walks the real rotation from the current turn (REFERENCE §6)."""
    if state["ruleset"]["winRule"] == "instant":
        return None
    p = state["players"][seat]
    if p["armed_at"] is None or not p["active"]:
        return None
    active = active_seats(state)
    n = len(active)
    if seat not in active:
        return None
    me = active.index(seat)
    cur = active.index(state["turn"]) if state["turn"] in active else 0
    now = state["turn_number"]
    need = checkpoint_threshold(state)
    step = (me - cur) % n or n
    for own in range(n + 2):
        if now + step - p["armed_at"] >= need:
            return now + step, step - (own + 1)
        step += n
    return None


# ---- contested approach (suddenDeath) -------------------------------------------------------

def armed_seats(state: dict) -> list[int]:
    players = state["players"]
    return [s for s in state["order"]
            if players[s]["active"] and players[s]["armed_at"] is not None]


def sync_contest(tx: Tx) -> None:
    s = tx.s
    if s["ruleset"]["suddenDeath"] == "off" or s["phase"] == "finished":
        return
    armed = armed_seats(s)
    if len(armed) >= 2:
        if s["contested_since"] is None:
            s["contested_since"] = s["turn_number"]
            tx.emit({"type": "contest_open", "seats": armed, "mode": s["ruleset"]["suddenDeath"],
                     "lap_cap": CONTEST_LAP_CAP, "bar": contest_bar(s)})
    elif s["contested_since"] is not None:
        s["contested_since"] = None
        tx.emit({"type": "contest_closed", "seats": armed})


def _contest_turns(state: dict) -> int:
    return state["turn_number"] - state["contested_since"]


def contest_laps(state: dict) -> int:
    """Whole laps of contest so far (one lap = one turn per active player)."""
    if state["contested_since"] is None:
        return 0
    return _contest_turns(state) // max(1, active_count(state))


def _laps_at_least(state: dict, laps: int) -> bool:
    return _contest_turns(state) >= laps * max(1, active_count(state))


def contest_bar(state: dict) -> int:
    base = state["ruleset"]["setsToWin"]
    if state["ruleset"]["suddenDeath"] != "escalate" or state["contested_since"] is None:
        return base
    return base if _laps_at_least(state, CONTEST_LAP_CAP) else base + 1


def contest_blocks(state: dict, cat, seat: int) -> str | None:
    """Why a reached checkpoint does not convert (the mode name), or None."""
    mode = state["ruleset"]["suddenDeath"]
    if mode == "off" or state["contested_since"] is None:
        return None
    if mode == "escalate":
        bar = contest_bar(state)
        if sets_of(state, cat, seat) >= bar and not any(
            other != seat and sets_of(state, cat, other) >= bar
            for other in active_seats(state)
        ):
            return None
        return None if _laps_at_least(state, CONTEST_LAP_CAP) else "escalate"
    if mode == "oneLap":
        return None if _laps_at_least(state, 1) else "oneLap"
    return "points"


def resolve_checkpoint(tx: Tx, seat: int) -> bool:
    """At the armed player's own turn start, before the draw: win, or say why not yet."""
    s = tx.s
    if s["phase"] == "finished" or s["ruleset"]["winRule"] == "instant":
        return False
    p = s["players"][seat]
    if not p["active"] or p["armed_at"] is None:
        return False
    n = len(completed(tx, seat))
    if n < s["ruleset"]["setsToWin"]:
        tx.p(seat)["armed_at"] = None
        return False
    if s["turn_number"] - p["armed_at"] < checkpoint_threshold(s):
        forecast = checkpoint_forecast(s, seat)
        tx.emit({"type": "final_approach_pending", "seat": seat, "sets": n,
                 "checkpoint_turn": forecast[0] if forecast else None,
                 "opponent_turns_remaining": forecast[1] if forecast else None})
        return False
    blocked = contest_blocks(s, tx.cat, seat)
    if blocked:
        tx.emit({"type": "contest_held", "seat": seat, "sets": n, "reason": blocked,
                 "bar": contest_bar(s), "laps": contest_laps(s), "lap_cap": CONTEST_LAP_CAP})
        return False
    finish(tx, seat, "sets")
    return True


def contest_expired(state: dict) -> bool:
    return (state["ruleset"]["suddenDeath"] == "points" and state["contested_since"] is not None
            and _laps_at_least(state, CONTEST_LAP_CAP))


# ---- endings --------------------------------------------------------------------------------

def _rank_key(state: dict, cat, seat: int) -> tuple[int, int, int]:
    return (-sets_of(state, cat, seat), -net_worth(cat, state["players"][seat]),
            state["order"].index(seat))


def ranking(state: dict, cat) -> list[int]:
    """Active seats by most sets, then net worth, then turn order."""
    return sorted(active_seats(state), key=lambda s: _rank_key(state, cat, s))


def finish(tx: Tx, winner: int | None, end_reason: str, stalemate_reason: str | None = None,
           basis: str | None = None) -> None:
    s = tx.s
    if s["phase"] == "finished":
        return
    ranked = ranking(s, tx.cat)
    if winner is not None and winner in ranked:
        ranked.remove(winner)
        ranked.insert(0, winner)
    placements = ranked + s["scooped"][::-1]
    s["phase"] = "finished"
    s["pending"] = None
    s["result"] = {
        "winner": winner,
        "placements": placements,
        "end_reason": end_reason,
        "stalemate_reason": stalemate_reason,
        "basis": basis,
        "sets": {str(seat): sets_of(s, tx.cat, seat) for seat in s["order"]},
        "turn_number": s["turn_number"],
    }
    tx.emit({"type": "game_over", "winner": winner, "end_reason": end_reason,
             "stalemate_reason": stalemate_reason, "basis": basis,
             "placements": placements})


def end_on_points(tx: Tx, why: str) -> None:
    s = tx.s
    ranked = ranking(s, tx.cat)
    winner = ranked[0] if ranked else None
    basis = "unopposed"
    if len(ranked) >= 2:
        a, b = _rank_key(s, tx.cat, ranked[0]), _rank_key(s, tx.cat, ranked[1])
        basis = "sets" if a[0] != b[0] else "net_worth" if a[1] != b[1] else "turn_order"
    finish(tx, winner, "stalemate", why, basis)
