"""What the site's clocks do, decided by the rules (the guide's "Playing online" and "Auto move"):

- a move clock (roll, buy or decline, a debt, the audit choice, ending the turn) running out:
  the seat is out, bankrupt to the bank (`forfeit`);
- a bid or a trade answer running out: a pass or a refusal, no money spent;
- an auction with no first bid after 60 seconds for the whole lot: cancelled (`lot_expired`),
  whoever is asked to bid at that moment.

Auto move (a seat's own toggle) rolls and ends eligible turns, and under audit uses a release
card before rolling; it never buys, bids, pays debts or answers trades.
"""

from __future__ import annotations

from typing import Any

from .legal import to_decide

Action = dict[str, Any]


def timeout_actions(st: dict[str, Any], seat: int) -> list[Action]:
    """The actions to apply (in order, `clock=True` for `forfeit`) when `seat`'s clock runs
    out; [] when it owes nothing."""
    if st["phase"] == "finished" or seat not in to_decide(st):
        return []
    if st["auction"] is not None:
        return [{"type": "pass"}]
    if st["offer"] is not None:
        return [{"type": "answer", "accept": False}]
    return [{"type": "forfeit"}]


def lot_timeout(st: dict[str, Any]) -> tuple[int, Action] | None:
    """(seat, action) to apply with `clock=True` when the 60 seconds of an auction with no
    first bid are over; None when no such lot runs (the first bid lifts the deadline)."""
    a = st["auction"]
    if st["phase"] == "finished" or a is None or a["high"] is not None:
        return None
    return a["at"], {"type": "lot_expired"}


def is_clock_action(action: Action) -> bool:
    return action.get("type") in ("forfeit", "lot_expired")


def auto_move(st: dict[str, Any], seat: int) -> Action | None:
    """The action auto move takes for `seat` now, or None (it leaves the decision to them)."""
    if st["phase"] == "finished" or to_decide(st) != [seat]:
        return None
    if st["auction"] is not None or st["offer"] is not None or st["debts"]:
        return None
    if st["turn"] != seat:
        return None
    if st["phase"] == "roll":
        if st["audit"][seat] is not None and st["releases"][seat]:
            return {"type": "use_release"}
        return {"type": "roll"}
    if st["phase"] == "act":
        return {"type": "end_turn"}
    return None
