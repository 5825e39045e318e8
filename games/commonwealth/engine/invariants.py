"""Invariants of a state, checked by tests and by `simulate` after every action."""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import data
from .legal import legal_actions, to_decide


def check_invariants(st: dict[str, Any]) -> list[str]:
    """Every broken invariant, in words (empty when the state is sound)."""
    bad: list[str] = []
    players = st["players"]
    total = sum(p["cash"] for p in players) + st["fund"] + st["bank"]
    if total != data.FUND_START:
        bad.append(f"money not conserved: seats + Fund + Bank = {total}")
    if st["fund"] < 0:
        bad.append(f"the Fund is negative ({st['fund']})")
    if st["fund"] == 0 and st["result"] is None:
        bad.append("the Fund is empty but the game goes on")
    on_board: Counter[int] = Counter()
    for pid, pr in enumerate(st["projects"]):
        on_board.update(pr["chips"])
        if len(pr["chips"]) > data.PROJECTS[pid]["slots"]:
            bad.append(f"project {pid} holds more chips than slots")
        if pr["chips"] and pr["manager"] is None:
            bad.append(f"unmanaged project {pid} holds chips")
    for s, p in enumerate(players):
        if p["cash"] < 0:
            bad.append(f"seat {s} has negative cash")
        if p["supply"] < 0 or p["supply"] + on_board[s] != data.CHIPS_PER_SEAT:
            bad.append(f"seat {s} has {p['supply']} + {on_board[s]} chips, not 10")
        if p["kept"] is not None and data.CARD_KIND[p["kept"]] not in data.KEEP_KINDS:
            bad.append(f"seat {s} keeps a card that cannot be kept")
    cards = list(st["deck"]) + [p["kept"] for p in players if p["kept"] is not None]
    cards += [data.JAIL_FREE_CARD] * sum(p["jail_card"] for p in players)
    if st["step"] and st["step"]["kind"] == "chance":
        cards += st["step"]["cards"]
    if sorted(cards) != list(range(len(data.CARDS))):
        bad.append("the Chance cards are not each in exactly one place")
    if st["result"] is None and st["step"] is None:
        bad.append("the game is running but nobody owes a decision")
    for seat in to_decide(st):
        if not legal_actions(st, seat):
            bad.append(f"seat {seat} owes a decision but has no legal action")
    if st["result"] is not None and (st["step"] is not None or st["deal"] is not None):
        bad.append("a finished game still owes a decision")
    winners = [s for s, p in enumerate(players) if p["supply"] == 0]
    if winners and (st["result"] is None or st["result"]["winner"] not in winners):
        bad.append("a seat placed all its chips but did not win")
    return bad
