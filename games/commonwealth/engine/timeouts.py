"""What a clock running out (or the site's auto move) does for each decision.

The site's clocks: 5 minutes for a seat's own decisions, 60 seconds for bids and deal answers
(and the other decisions owed at once: GO donations and Jail pledges). The defaults take the
choice that costs the Fund least and keeps the game moving. The auto move (`auto_action`)
is narrower: only the steps that are not a choice, so a player who turns it on is never
surprised by a purchase, a bid, a deal or a card.
"""

from __future__ import annotations

from typing import Any

from . import data
from .legal import legal_actions, to_decide
from .rules import even_share

CLOCKS = {"own": 300, "answer": 60}
ANSWER_KINDS = frozenset(("auction", "donate", "jail_split"))


def clock_kind(st: dict[str, Any]) -> str:
    """"answer" while a bid, deal answer, donation or pledge is owed; else "own"."""
    if st["deal"] is not None or (st["step"] and st["step"]["kind"] in ANSWER_KINDS):
        return "answer"
    return "own"


def timeout_actions(st: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The actions to apply in order for `seat` whose clock expired ([] if it owes nothing);
    each is legal when its turn comes (only the Chance decision takes two)."""
    if st["result"] is not None or seat not in to_decide(st):
        return []
    if st["deal"] is not None:
        return [{"type": "decline"}]
    step = st["step"]
    kind = step["kind"]
    p = st["players"][seat]
    if kind == "pre_roll":
        return [{"type": "jail_roll" if p["in_jail"] else "roll"}]
    if kind == "order":
        return [{"type": "order", "first": "move"}]
    if kind == "buy":
        price = data.PROJECTS[step["project"]]["price"]
        return [{"type": "buy" if p["cash"] >= price else "auction"}]
    if kind == "auction":
        return [{"type": "pass"}]
    if kind == "chip":
        return [{"type": "chip" if p["cash"] >= data.CHIP_COST else "no_chip"}]
    if kind == "shuttle":
        return [{"type": "stay"}]
    if kind == "chance":
        keep = [{"type": "keep", "card": step["cards"][0]}]
        if step["stage"] == "play":
            # One clock, one decision: skip playing, then (nothing held) keep the first card.
            return [{"type": "skip"}, *(keep if p["kept"] is None else [])]
        return keep
    if kind == "donate":
        return [{"type": "donate", "amount": data.MIN_DONATION}]
    if kind == "jail_split":
        return [{"type": "pledge", "amount": even_share(st, step)}]
    return []


def auto_action(st: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The site's auto move for `seat` now, or None: the decision stays the player's.

    It rolls (in Jail too: a roll for a 6 costs nothing, paying or spending the card is the
    player's call), gives the GO minimum of 5 every seat owes, and says "no chip" where
    that is the only answer. It never buys, bids, answers or offers deals, chooses move or
    draw first, rides the Shuttle, plays or keeps a Chance card, places a chip or pledges
    toward a Jail fee: those are choices, so they wait for the player (or their clock)."""
    if st["result"] is not None or st["deal"] is not None or seat not in to_decide(st):
        return None
    step = st["step"]
    kind = step["kind"]
    if kind == "pre_roll" and st["turn"] == seat:
        return {"type": "jail_roll" if st["players"][seat]["in_jail"] else "roll"}
    if kind == "donate":
        return {"type": "donate", "amount": data.MIN_DONATION}
    if kind == "chip" and legal_actions(st, seat) == [{"type": "no_chip"}]:
        return {"type": "no_chip"}
    return None
