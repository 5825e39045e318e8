"""Log lines in plain words for Boardroom events, with the signed money per seat.

    "Bea paid you 26 rent for Pancake Kiosk (Bea −26, you +26)."

Events are already redacted for the viewer (engine.view.events_for); subjects are names or
"You". Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.platform.wording import agrees, joined, person, possessive, trade_sentence

from .engine.board import TILES
from .engine.cards import CARDS

REASONS = {
    "rent": "rent", "excise": "excise duty", "bail": "the audit's 50", "card": "a card",
    "buy": "buying", "auction": "the auction", "build": "a branch", "close": "closing",
    "trade": "a trade", "salary": "salary", "bank_sale": "a sale to the bank",
    "bankruptcy": "bankruptcy",
}


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _clock(seconds: Any) -> str:
    if not isinstance(seconds, int) or seconds <= 0:
        return "the clock"
    return f"{seconds} s" if seconds < 60 else f"{seconds // 60}:{seconds % 60:02d}"


def _tile(pos: Any) -> str:
    return TILES[pos]["name"] if isinstance(pos, int) and 0 <= pos < 40 else "a tile"


def offer_words(offer: Mapping[str, Any], *, viewer: int | None, names: Sequence[str]) -> str:
    """An offer's terms in the one form of every trade (games/platform/wording.py):
    "Bot Alpha gives you Bakery Plant; you give Screen Assembly". A swap: the proposer takes
    `take` and gives `give` (or none) and/or its cash; a sale: the proposer gives `give` for
    the other's cash."""
    cash = offer.get("cash") or 0
    money = f"{cash} in cash" if cash else ""
    if offer.get("kind") == "sell":
        gives, gets = _tile(offer.get("give")), money or "nothing"
    else:
        give = offer.get("give")
        gives = joined([_tile(give) if give is not None else "", money])
        gets = _tile(offer.get("take"))
    return trade_sentence(offer.get("from"), offer.get("to"), gives, gets,
                          viewer=viewer, names=names)


def describe_event(event: Mapping[str, Any], *, viewer: int | None,
                   names: Sequence[str]) -> str | None:
    t = event.get("type")

    def who(seat: Any, subject: bool = True) -> str:
        if seat is None:
            return "The bank" if subject else "the bank"
        return person(seat, viewer, names, subject=subject)

    def does(seat: Any, you_form: str, other_form: str) -> str:
        return f"{who(seat)} {agrees(seat, viewer, you_form, other_form)}"

    tile = _tile

    def money(pairs: list[tuple[Any, int]]) -> str:
        return " (" + ", ".join(f"{who(s, False)} {_signed(n)}" for s, n in pairs) + ")"

    # The site's clocks (games/platform/clocks.py) note what they decided before the move.
    if t == "clock_timeout":
        said = {"forfeit": "and is out of the game (bankrupt to the bank)",
                "pass": "to bid: a pass", "answer": "to answer: the offer is refused"}
        what = said.get(event.get("decision"), "")
        clock = _clock(event.get("seconds"))
        return f"{who(event.get('seat'))} ran out of time ({clock}) {what}".rstrip() + "."
    if t == "lot_timeout":
        return f"Nobody bid in {_clock(event.get('seconds'))}: the lot is cancelled."
    if t == "turn_start":
        whose = "your" if event.get("seat") == viewer else f"{who(event.get('seat'))}’s"
        return f"Turn {event.get('turn_number')}: {whose} turn."
    if t == "roll":
        a, b = event.get("dice", (0, 0))
        double = " (doubles)" if a == b else ""
        return f"{who(event.get('seat'))} rolled {a} and {b}{double}."
    if t == "move":
        how = {"card": " by a card", "random": " on an unexpected trip",
               "back": " three steps back"}.get(event.get("how"), "")
        return f"{who(event.get('seat'))} moved to {tile(event.get('to'))}{how}."
    if t == "to_audit":
        why = {"third_double": "a third double", "tax_office": "the tax office",
               "card": "a card"}.get(event.get("why"), "the tax office")
        return f"{who(event.get('seat'))} went under audit ({why})."
    if t == "audit_out":
        how = {"bail": "by paying 50", "release": "with a release card",
               "doubles": "by rolling doubles", "third_try": "after the third try"}.get(
            event.get("how"), "")
        return f"{who(event.get('seat'))} left the audit {how}."
    if t == "card":
        card = CARDS[event["card"]]
        # The card's words are addressed to whoever draws it: quoted as printed.
        return f"{who(event.get('seat'))} drew “{card['title']}”: “{card['text']}.”"
    if t == "card_skipped":
        return "A second unexpected trip in the same roll was skipped."
    if t == "payment":
        frm, to, amount = event.get("from"), event.get("to"), event.get("amount", 0)
        reason = REASONS.get(event.get("reason"), "")
        where = f" for {tile(event['tile'])}" if event.get("tile") is not None else ""
        pairs = [(frm, -amount), (to, amount)]
        if frm is None:
            return f"{who(to)} received {amount} ({reason}{where}){money(pairs[1:])}."
        if to is None:
            return f"{who(frm)} paid {amount} to the bank ({reason}{where}){money(pairs[:1])}."
        return f"{who(frm)} paid {who(to, False)} {amount} ({reason}{where}){money(pairs)}."
    if t == "debt":
        reason = REASONS.get(event.get("reason"), "")
        return f"{does(event.get('seat'), 'owe', 'owes')} {event.get('amount')} ({reason}) " \
               "and must raise money."
    if t == "debt_paid":
        return f"{who(event.get('seat'))} settled a debt of {event.get('amount')}."
    if t == "owner":
        how = event.get("how")
        if event.get("seat") is None:
            return f"{tile(event.get('tile'))} went back to the bank."
        if how == "buy":
            return f"{who(event.get('seat'))} bought {tile(event.get('tile'))}."
        if how == "trade":
            return f"{tile(event.get('tile'))} now belongs to {who(event.get('seat'), False)}."
        return None  # auction_won says it
    if t == "auction":
        seller = event.get("seller")
        lot = "" if seller is None else f" (sold by {who(seller, False)})"
        return f"Auction of {tile(event.get('tile'))}{lot}: first bid {event.get('start')}."
    if t == "bid":
        return f"{who(event.get('seat'))} bid {event.get('amount')}."
    if t == "auction_pass":
        why = " (not enough money)" if event.get("why") == "money" else ""
        return f"{who(event.get('seat'))} passed{why}."
    if t == "auction_won":
        return f"{who(event.get('seat'))} won {tile(event.get('tile'))} for " \
               f"{event.get('amount')}."
    if t == "auction_unsold":
        if event.get("cancelled"):
            return f"The auction of {tile(event.get('tile'))} was cancelled."
        return f"Nobody bought {tile(event.get('tile'))}."
    if t == "build":
        what = "a holding" if event.get("level") == 5 else "a branch"
        return f"{who(event.get('seat'))} opened {what} on {tile(event.get('tile'))}."
    if t == "close":
        return f"{who(event.get('seat'))} closed a building on {tile(event.get('tile'))}."
    if t == "offer":
        if event.get("private"):
            return f"{who(event.get('from'))} made {who(event.get('to'), False)} an offer."
        return f"Trade offer: {offer_words(event, viewer=viewer, names=names)}."
    if t == "answer":
        verb = "accepted" if event.get("accept") else "refused"
        whose = "the" if event.get("from") is None else possessive(event["from"], viewer, names)
        return f"{who(event.get('seat'))} {verb} {whose} offer."
    if t == "offer_dropped":
        return "The trade offer was withdrawn."
    if t == "bankrupt":
        why = " (left the table)" if event.get("why") == "forfeit" else ""
        return f"{who(event.get('seat'))} went bankrupt{why}."
    if t == "roll_again":
        return f"{does(event.get('seat'), 'roll', 'rolls')} again (doubles)."
    if t == "game_over":
        end = {"turn_cap": " on net worth at the turn limit"}.get(event.get("end_reason"), "")
        return f"{who(event.get('winner'))} won the game{end}!"
    return None
