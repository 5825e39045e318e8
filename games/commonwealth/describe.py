"""Commonwealth's game log in words: one line per (already redacted) event. Every change of the
Community Fund gets its own line with the new balance, so the log is the Fund's history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.platform.wording import agrees, joined, person, possessive, trade_sentence

from .engine import data

FUND_REASONS = {
    "shuttle": "for a Community Shuttle ride", "jail": "as the Jail penalty",
    "jail_fee": "toward the Jail fee", "card": "on a Chance card", "buy": "toward a purchase",
    "auction": "toward a winning bid", "develop": "toward a self-development fee",
    "chip": "toward a chip", "donation": "as a GO donation", "payout": "as a payout",
}


def _project(pid: Any) -> str:
    return data.PROJECTS[pid]["name"] if isinstance(pid, int) and 0 <= pid < 16 else "a project"


def _space(index: Any) -> str:
    return data.SPACES[index]["name"] if isinstance(index, int) and 0 <= index < 40 else "?"


# What the rules did for a seat whose clock ran out (engine.timeouts.timeout_actions, whose
# first action's type the site's `clock_timeout` note carries).
CLOCK_DECISIONS = {
    "roll": "and rolled", "jail_roll": "and rolled for a 6 in Jail",
    "order": "and moves first", "buy": "and bought the project",
    "auction": "and put the project up for auction", "pass": "to bid: a pass",
    "chip": "and placed a chip", "no_chip": "and placed no chip",
    "stay": "and stayed (no Shuttle ride)", "skip": "and played no card",
    "keep": "and kept the first card drawn", "donate": "and gave the GO minimum of 5",
    "pledge": "and pledged an even share of the Jail fee",
    "decline": "to answer: the deal is declined",
}


def _clock(seconds: Any) -> str:
    if not isinstance(seconds, int) or seconds <= 0:
        return "the clock"
    return f"{seconds} s" if seconds <= 60 else f"{seconds // 60}:{seconds % 60:02d}"


def side_words(side: Any) -> str:
    """One side of a deal in words ("Union Hall and 40 in cash")."""
    side = side if isinstance(side, Mapping) else {}
    parts = [_project(pid) for pid in side.get("projects") or []]
    if side.get("cash"):
        parts.append(f"{side['cash']} in cash")
    if side.get("jail_card"):
        parts.append("the Pardon card")
    return joined(parts)


def deal_words(deal: Mapping[str, Any], *, viewer: int | None, names: Sequence[str]) -> str:
    """A deal's terms in the one form of every trade (games/platform/wording.py): the
    proposer (`from`) gives its `give` side; the other party gives the `get` side."""
    frm = deal.get("from", deal.get("seat"))
    return trade_sentence(frm, deal.get("to"), side_words(deal.get("give")),
                          side_words(deal.get("get")), viewer=viewer, names=names)


def jail_fee_words(event: Mapping[str, Any], *, viewer: int | None, names: Sequence[str]
                   ) -> str:
    """Who paid what of a Jail fee due after three misses: the jailed seat, each other seat
    that gave a share, and the Fund ("Your Jail fee of 50 was paid: you 10, Ann 30 and the
    Community Fund 10.")."""
    jailed = event.get("seat")
    fee = event.get("amount", data.JAIL_FEE)
    paid = [pair for pair in event.get("paid") or [] if isinstance(pair, (list, tuple))
            and len(pair) == 2]
    fund = event.get("from_fund") or 0
    if [list(pair) for pair in paid] == [[jailed, fee]] and not fund:
        return f"{person(jailed, viewer, names)} paid the Jail fee of {fee}."
    parts = [f"{person(s, viewer, names, subject=False)} {amount}" for s, amount in paid]
    if fund:
        parts.append(f"the Community Fund {fund}")
    whose = possessive(jailed, viewer, names)
    return f"{whose[:1].upper()}{whose[1:]} Jail fee of {fee} was paid: {joined(parts)}."


def describe_event(event: Mapping[str, Any], *, viewer: int | None, names: Sequence[str]
                   ) -> str | None:
    """One log line in words for an already-redacted event (None: leave it out).
    Every change of the Fund gets its own line with the new balance."""
    t = event.get("type")

    def who(key: str = "seat", subject: bool = True) -> str:
        return person(event.get(key), viewer, names, subject=subject)

    def does(you_form: str, other_form: str, key: str = "seat") -> str:
        return f"{who(key)} {agrees(event.get(key), viewer, you_form, other_form)}"

    you = event.get("seat") == viewer and viewer is not None
    s = who()
    if t == "clock_timeout":  # the site's clocks note what they decided before the move
        what = CLOCK_DECISIONS.get(event.get("decision"), "")
        return f"{s} ran out of time ({_clock(event.get('seconds'))}) {what}".rstrip() + "."
    if t == "turn_start":
        jail = " (in Jail)" if event.get("in_jail") else ""
        whose = "your" if you else f"{s}’s"
        return f"Turn {event.get('turn_number')}: {whose} turn{jail}."
    if t == "roll":
        face = str(event.get("face")).replace("x", "×")
        double = " — a double!" if event.get("double") else "."
        return f"{s} rolled {event.get('die')} and {face}{double}"
    if t == "move":
        go = ", passing GO" if event.get("passed_go") else ""
        return f"{s} moved to {_space(event.get('to'))}{go}."
    if t == "wages":
        return f"GO: everyone collects {event.get('amount')}, then gives at least 5 to the Fund."
    if t == "fund":
        delta = event.get("delta", 0)
        why = FUND_REASONS.get(event.get("reason"), "")
        verb = f"received {delta}" if delta >= 0 else f"paid {-delta}"
        return f"The Community Fund {verb} {why} (now {event.get('fund'):,})."
    if t == "buy":
        return f"{s} bought {_project(event.get('project'))} for {event.get('price')}."
    if t == "auction":
        return f"{s} put {_project(event.get('project'))} up for auction."
    if t == "bid":
        return f"{s} bid {event.get('amount')}."
    if t == "pass":
        return f"{s} passed."
    if t == "sold":
        return f"{s} won {_project(event.get('project'))} for {event.get('amount')}."
    if t == "unsold":
        return f"Nobody bid: {_project(event.get('project'))} stays unmanaged."
    if t == "payment":
        if event.get("reason") in ("buy", "auction", "develop") or not event.get("own"):
            return None  # the purchase line and the Fund line say it
        to = "the Bank" if event.get("to") == "bank" else who("to", False)
        return f"{s} paid {event.get('own')} to {to}."
    if t == "chip":
        how = {"develop": "self-developed", "landing": "placed a chip on",
               "card": "placed a free chip on"}.get(event.get("how"), "placed a chip on")
        return f"{s} {how} {_project(event.get('project'))} ({event.get('placed')}/10 placed)."
    if t == "develop":
        return None
    if t == "payout":
        return (f"{_project(event.get('project'))} is fully developed: {who('manager', False)}"
                f" and the Fund each receive {event.get('amount')}.")
    if t == "draw":
        cards = event.get("cards")
        what = ", ".join(data.CARDS[c]["title"] for c in cards) if cards else \
            f"{event.get('count')} Chance card{'s' if event.get('count') != 1 else ''}"
        return f"{s} drew {what}."
    if t == "immediate":
        card = data.CARDS[event["card"]]
        return f"{card['title']}: {card['text']}"
    if t == "jail_card":
        return f"{s} drew the Pardon card (kept face up)."
    if t == "play_card":
        card = data.CARDS[event["card"]]["title"]
        kind = event.get("kind")
        if kind == "remove_chip":
            return (f"{s} played {card}: {possessive(event.get('rival'), viewer, names)} chip "
                    f"comes off {_project(event.get('project'))}.")
        if kind == "swap":
            swap = trade_sentence(event.get("seat"), event.get("rival"),
                                  _project(event.get("mine")), _project(event.get("theirs")),
                                  viewer=viewer, names=names)
            return f"{s} played {card}: {swap}."
        return f"{s} played {card}."
    if t == "keep":
        card = event.get("card")
        return f"{s} kept {data.CARDS[card]['title'] if card is not None else 'a card'}."
    if t == "return":
        count = event.get("count")
        cards = "a card" if count == 1 else f"{count} cards"
        return f"{s} put {cards} under the deck."
    if t == "ride":
        return f"{s} took the Community Shuttle to {_space(event.get('to'))}."
    if t == "jail":
        why = {"three_doubles": "three doubles", "card": "a Chance card",
               "space": "the Go to Jail space"}.get(event.get("why"), "")
        return f"{s} went to Jail ({why})."
    if t == "jail_roll":
        return f"{s} rolled {event.get('die')} in Jail."
    if t == "out_of_jail":
        how = {"six": "with a 6", "paid": "by paying 50", "card": "with the card",
               "fee": f"after three tries: the fee of {data.JAIL_FEE} is due"
               }.get(event.get("how"), "")
        return f"{s} left Jail {how}."
    if t == "jail_fee":
        return jail_fee_words(event, viewer=viewer, names=names)
    if t == "pledge":
        return (f"{s} gave {event.get('amount')} toward "
                f"{possessive(event.get('jailed'), viewer, names)} Jail fee.")
    if t == "offer":
        if "give" not in event:  # the terms are the two parties' business (engine/view.py)
            return f"{s} offered {who('to', False)} a deal."
        return f"Deal offered: {deal_words(event, viewer=viewer, names=names)}."
    if t in ("decline", "withdraw"):
        whose = "your" if t == "withdraw" and you else \
            possessive(event.get("from"), viewer, names) if t == "decline" else "the"
        return f"{s} {'declined' if t == 'decline' else 'withdrew'} {whose} deal."
    if t == "deal":
        return (f"{s} accepted {possessive(event.get('from'), viewer, names)} deal: "
                f"{deal_words(event, viewer=viewer, names=names)}.")
    if t == "order":
        return None
    if t == "game_over":
        if event.get("winner") is None:
            if event.get("end_reason") == "fund_dry":
                return "The Community Fund ran dry: the community is ruined and nobody wins."
            return "The game reached its turn limit with no top contributor."
        return f"{who('winner')} placed all 10 chips: the top contributor wins!"
    return None
