"""The Boardroom board's template data, built from one seat's view only (never the state).

    board_context(view, me=seat, names=[...], seats=[{"is_bot", "is_away", "deadline"}])

Everything a template shows comes from here in plain words: the 40 tiles placed on an 11×11
grid (start at the bottom right, play runs clockwise as on a printed board: left along the
bottom, up the left side, right along the top, down the right side), owners and buildings,
tokens, the dice, every seat's panel, and the seat's legal actions as labelled options (one
JSON action each, the page sends it back unchanged) plus the trade and own-auction families
with their bounds for the forms.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.platform.board_grid import grid_place, side
from games.platform.jsontext import compact_json
from games.platform.wording import trade_sentence

from .bots.common import COMPLETION_FACTOR, completes, gives_away
from .describe import REASONS, offer_words
from .engine.board import (
    AUDIT_BAIL,
    BUYBACK,
    GROUP,
    INDUSTRY_NAMES,
    KIND,
    LOGISTICS,
    LOGISTICS_RENT,
    SHORT_NAMES,
    TILES,
    UTILITIES,
    UTILITY_FACTOR,
)
from .engine.cards import CARDS
from .engine.legal import after_refusal, explain
from .engine.rules import bank_price, next_bid, owns_industry, rent
from .engine.state import BETTER_BY, BID_STEP

# One colour per seat (tokens and owner stripes); names for the colour-blind and the reader.
SEAT_COLOURS = ("#d1495b", "#2e86ab", "#3f9142", "#8e5ec2", "#e08e0b", "#2b2d42")
SEAT_COLOUR_NAMES = ("red", "blue", "green", "purple", "orange", "black")
KIND_LABELS = {"start": "Corner", "aid": "State aid card", "market": "Market card",
               "audit": "Corner", "forum": "Corner", "tax_office": "Corner",
               "excise": "Tax", "logistics": "Logistics", "utility": "Utility",
               "business": "Business"}
GROUP_NAMES = {"logistics": "Logistics", "utility": "Utilities"}
LEVEL_WORDS = ("no branches", "1 branch", "2 branches", "3 branches", "4 branches", "a holding")


def _act(action: Mapping[str, Any]) -> str:
    # json.dumps's compact sorted text, written by orjson (every option of every push).
    return compact_json(dict(action), sort_keys=True)


def _name(names: Sequence[str], seat: Any, me: int | None, *, subject: bool = True) -> str:
    if seat is None:
        return "The bank" if subject else "the bank"
    if seat == me:
        return "You" if subject else "you"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "Someone" if subject else "someone"


def tile_card(view: Mapping[str, Any], pos: int, *, names: Sequence[str],
              me: int | None) -> dict[str, Any]:
    """What the centre card shows for one tile: price, rent now, the whole table, owner,
    buildings and the bank's buyback."""
    t = TILES[pos]
    owner = view["owner"][pos]
    level = view["level"][pos]
    card: dict[str, Any] = {
        "pos": pos, "name": t["name"], "kind": t["kind"],
        "kind_label": KIND_LABELS.get(t["kind"], t["kind"]),
        "industry": INDUSTRY_NAMES.get(t.get("industry") or "", ""),
        "industry_key": t.get("industry") or "", "price": t.get("price"),
        # What the bank pays back: half the price, plus half the buildings on it.
        "buyback": bank_price(view, pos) or None, "owner": owner,
        "owner_name": _name(names, owner, me, subject=True) if owner is not None else None,
        "level": level, "level_words": LEVEL_WORDS[level], "rows": [], "rent_now": None,
    }
    dice = view.get("dice") or [0, 0]
    if t["kind"] == "business":
        card["branch_cost"] = t["branch_cost"]
        labels = ("Base rent", "With 1 branch", "With 2 branches", "With 3 branches",
                  "With 4 branches", "With a holding")
        card["rows"] = [{"label": label, "amount": amount, "now": owner is not None
                         and i == level}
                        for i, (label, amount) in enumerate(zip(labels, t["rents"],
                                                                strict=True))]
        card["rows"].insert(1, {"label": "Whole industry, no branch", "amount":
                                t["rents"][0] * 2, "now": owner is not None and level == 0
                                and owns_industry(view, owner, pos)})
        if card["rows"][1]["now"]:
            card["rows"][0]["now"] = False
    elif t["kind"] == "logistics":
        card["rows"] = [{"label": f"Owner holds {n}", "amount": LOGISTICS_RENT[n], "now": False}
                        for n in (1, 2, 3)]
    elif t["kind"] == "utility":
        card["rows"] = [{"label": f"Owner holds {n}", "amount": f"{UTILITY_FACTOR[n]} × dice",
                         "now": False} for n in (1, 2)]
    if owner is not None:
        total = sum(dice)
        card["rent_now"] = rent(view, pos, total) if t["kind"] != "utility" else None
        if t["kind"] == "logistics":
            n = sum(1 for x in range(40) if KIND[x] == "logistics"
                    and view["owner"][x] == owner)
            card["rows"][n - 1]["now"] = True
        elif t["kind"] == "utility":
            n = sum(1 for x in range(40) if KIND[x] == "utility" and view["owner"][x] == owner)
            card["rows"][n - 1]["now"] = True
            card["rent_now_words"] = f"{UTILITY_FACTOR[n]} × the dice total"
    card["note"] = {
        "start": "Collect 200 salary for passing or stopping here.",
        "audit": "Stopping here is only a visit.",
        "forum": "A free tile: nothing is paid and nothing is collected.",
        "tax_office": "Go straight to the tax audit, with no salary.",
        "excise": "Pay 100 to the bank.",
        "market": "Draw a market card.", "aid": "Draw a state aid card.",
    }.get(t["kind"], "")
    return card


def _option(action: Mapping[str, Any], label: str, **extra: Any) -> dict[str, Any]:
    return {"json": _act(action), "label": label, **extra}


def _tile_choice(pos: int | None, view: Mapping[str, Any]) -> dict[str, Any]:
    if pos is None:
        return {"value": "", "label": "Nothing (cash only)", "name": ""}
    return {"value": pos, "label": f"{TILES[pos]['name']} (bank pays {BUYBACK[pos]})",
            "buyback": BUYBACK[pos], "name": TILES[pos]["name"]}


def _unavailable(label: str, id: str, reason: str) -> dict[str, Any]:
    """A move the seat cannot make now, shown disabled with why (never sent)."""
    return {"label": label, "id": id, "reason": reason}


def refusal_bounds(view: Mapping[str, Any], me: int, to: int, kind: str
                   ) -> dict[str, int]:
    """What the next offer to `to` must beat after its refusals (each remembered until the
    next offer for the same tiles, on any later turn), per tile pair
    ("take:give", empty for none): a swap's least cash, or a sale's most (the engine's
    BETTER_BY rule, engine/legal.py)."""
    out: dict[str, int] = {}
    for take, give, cash in _refused(view, me, to, kind):
        key = f"{'' if take is None else take}:{'' if give is None else give}"
        out[key] = after_refusal(kind, cash)
    return out


def _refused(view: Mapping[str, Any], me: int, to: int, kind: str
             ) -> list[tuple[int | None, int | None, int]]:
    """The remembered refused offers of `me` to `to` of one kind: (take, give, cash)."""
    out = []
    prefix = f"{me}>{to}:{kind}:"
    for key, cash in (view.get("refused") or {}).items():
        if not key.startswith(prefix):
            continue
        take, give = (None if x == "None" else int(x) for x in key[len(prefix):].split(":"))
        out.append((take, give, cash))
    return out


def refusals(view: Mapping[str, Any], me: int | None, names: Sequence[str]
             ) -> list[dict[str, Any]]:
    """The seat's remembered refused offers that it could make again now (a trade form for
    those tiles is open to it), each with why and what the next one for the same tiles must
    beat. A refusal is remembered until the next offer for those tiles, however many turns
    later, so it is said whenever that offer can be made. A bot answers by what the trade is
    worth to it (games/boardroom/bots): the reason named is the one its common check gives,
    else the value."""
    if me is None or not view.get("refused"):
        return []
    families = [a for a in view.get("legal") or [] if a["type"] == "propose"]
    out = []
    for to in range(view["seats"]):
        for kind in ("swap", "sell"):
            for take, give, cash in _refused(view, me, to, kind):
                if not any(f["kind"] == kind and f["to"] == to and give in f["give"]
                           and (kind == "sell" or take in f["take"]) for f in families):
                    continue  # not an offer it could make now
                offer = {"from": me, "to": to, "kind": kind, "take": take, "give": give,
                         "cash": cash}
                them = _name(names, to, me)
                if kind == "swap":
                    beat = f"at least {cash + BETTER_BY} in cash"
                else:
                    beat = f"ask at most {cash - BETTER_BY}"
                out.append({"to": to, "to_name": them, "bot": bool(view["bots"][to]),
                            "words": offer_words(offer, viewer=me, names=names),
                            "why": _refusal_reason(view, to, offer),
                            "next": f"Next time, for these tiles: {beat}."})
    return out


def _refusal_reason(view: Mapping[str, Any], bot: int, offer: dict[str, Any]) -> str:
    """Why, after "X refused your offer (…)": the bot's common check, else its values."""
    if not view["bots"][bot]:
        return ""
    if gives_away(view, bot, offer, answering=True):
        lose = offer["take"] if offer["kind"] == "swap" else None
        if lose is not None and completes(view["owner"], offer["from"], lose, gaining=lose):
            return (f"it will not hand you the last tile of an industry for less than "
                    f"{COMPLETION_FACTOR} times its price")
        return "it keeps enough cash for the rent it may owe"
    return "it values what it gives up above what it gets"


def decision(view: Mapping[str, Any], me: int | None, names: Sequence[str]
             ) -> dict[str, Any]:
    """The seat's legal actions, grouped for the decision panel, and the moves it cannot
    make now with why ("unavailable": cannot afford a tile, or the audit's bail)."""
    out: dict[str, Any] = {"buttons": [], "builds": [], "closes": [], "bank_sales": [],
                           "swaps": [], "sells": [], "lots": [], "give_up": None,
                           "end_turn": None, "kind": None, "unavailable": [],
                           "refusals": []}
    legal = view.get("legal") or []
    if me is None or not legal:
        return out
    a = view.get("auction")
    o = view.get("offer")
    if a is not None:
        out["kind"] = "auction"
    elif o is not None:
        out["kind"] = "offer"
    elif any(d["seat"] == me for d in view.get("debts") or []):
        out["kind"] = "debt"
    else:
        out["kind"] = view.get("phase")
    for action in legal:
        t = action["type"]
        if t == "roll":
            out["buttons"].append(_option(action, "Roll the dice", id="roll", primary=True))
        elif t == "pay_bail":
            out["buttons"].append(_option(action, "Pay 50 to leave the audit", id="pay-bail"))
        elif t == "use_release":
            out["buttons"].append(_option(action, "Use a release card", id="use-release"))
        elif t == "buy":
            tile = TILES[action["tile"]]
            out["buttons"].append(_option(action, f"Buy {tile['name']} for {tile['price']}",
                                          id="buy", primary=True))
        elif t == "decline":
            out["buttons"].append(_option(action, "To auction", id="decline"))
        elif t == "bid":
            out["buttons"].append(_option(action, f"Bid {action['amount']}", id="bid",
                                          primary=True))
        elif t == "pass":
            out["buttons"].append(_option(action, "Pass", id="pass"))
        elif t == "answer":
            label = "Accept the offer" if action["accept"] else "Refuse"
            out["buttons"].append(_option(action, label, id="accept" if action["accept"]
                                          else "refuse", primary=action["accept"]))
        elif t == "build":
            tile = TILES[action["tile"]]
            what = "a holding" if view["level"][action["tile"]] == 4 else "a branch"
            out["builds"].append(_option(action, f"Open {what} on {tile['name']} "
                                                 f"({tile['branch_cost']})", id="build"))
        elif t == "close":
            tile = TILES[action["tile"]]
            refund = tile["branch_cost"] // 2
            out["closes"].append(_option(action, f"Close a building on {tile['name']} "
                                                 f"(+{refund})"))
        elif t == "sell_bank":
            out["bank_sales"].append(_option(action, f"Sell {TILES[action['tile']]['name']} "
                                                     "to the bank"))
        elif t == "give_up":
            out["give_up"] = _option(action, "Give up (bankruptcy)", id="give-up")
        elif t == "end_turn":
            # Doubles roll again once the turn is ended (outside the audit): say so, or the
            # button reads as handing the turn on.
            again = bool(view.get("again")) and view["audit"][me] is None
            out["end_turn"] = _option(action, "End turn: roll again (doubles)" if again
                                      else "End turn", id="end-turn")
        elif t == "propose" and action["kind"] == "swap":
            beat = refusal_bounds(view, me, action["to"], "swap")
            take = [_tile_choice(x, view) for x in action["take"]]
            give = [_tile_choice(x, view) for x in action["give"]]
            out["swaps"].append({
                "to": action["to"], "to_name": _name(names, action["to"], me),
                "base": _act({"type": "propose", "kind": "swap", "to": action["to"]}),
                "take": take, "give": give, "cash_max": action["cash_max"],
                # The first tiles shown are chosen: their bound is the one printed.
                "cash_min": swap_min(beat, take[0]["value"], give[0]["value"]),
                "refused": json.dumps(beat, separators=(",", ":"), sort_keys=True),
                "sentence": _form_sentence(me, action["to"], names)})
            first = out["swaps"][-1]
            first["preview"] = offer_words(
                {"from": me, "to": action["to"], "kind": "swap", "take": take[0]["value"],
                 "give": None, "cash": first["cash_min"]}, viewer=me, names=names)
        elif t == "propose" and action["kind"] == "sell":
            beat = refusal_bounds(view, me, action["to"], "sell")
            give = [{**_tile_choice(x, view),
                     "max": min(action["cash_max"], beat.get(f":{x}", action["cash_max"]))}
                    for x in action["give"]]
            out["sells"].append({
                "to": action["to"], "to_name": _name(names, action["to"], me),
                "base": _act({"type": "propose", "kind": "sell", "to": action["to"]}),
                "give": give,
                # The first tile is the one chosen: the bounds printed are its own.
                "cash_min": give[0]["buyback"], "cash_max": give[0]["max"],
                "their_cash": action["cash_max"],
                "sentence": _form_sentence(me, action["to"], names),
                "preview": offer_words({"from": me, "to": action["to"], "kind": "sell",
                                        "give": give[0]["value"], "cash": give[0]["buyback"]},
                                       viewer=me, names=names)})
        elif t == "auction_own":
            out["lots"].append({
                "tile": action["tile"], "name": TILES[action["tile"]]["name"],
                "base": _act({"type": "auction_own", "tile": action["tile"]}),
                "start_min": action["start_min"], "start_max": action["start_max"],
                "step": action.get("step", BID_STEP)})
    types = {a["type"] for a in legal}
    cash = view["cash"][me]
    if "decline" in types and "buy" not in types:
        pos = next(a["tile"] for a in legal if a["type"] == "decline")
        price = TILES[pos]["price"]
        out["unavailable"].append(_unavailable(
            f"Buy {TILES[pos]['name']} for {price}", "buy-unaffordable",
            f"You have {cash}; it costs {price}. Send it to auction, where you may bid."))
    if view["audit"][me] is not None and "roll" in types and "pay_bail" not in types:
        out["unavailable"].append(_unavailable(
            f"Pay {AUDIT_BAIL} to leave the audit", "pay-bail-unaffordable",
            f"You have {cash}; leaving costs {AUDIT_BAIL}."))
    here = view["pos"][me]
    if view.get("phase") == "act" and "build" not in types and view["owner"][here] == me \
            and KIND[here] == "business":
        # A branch you could open here but for your cash: say so (only then: the other
        # reasons, one per visit or even building, are the portfolio's business).
        cost = TILES[here]["branch_cost"]
        if explain(view, me, {"type": "build", "tile": here}) == f"You need {cost} to expand":
            what = "a holding" if view["level"][here] == 4 else "a branch"
            out["unavailable"].append(_unavailable(
                f"Open {what} on {TILES[here]['name']} ({cost})", "build-unaffordable",
                f"You have {cash}; {what} costs {cost}."))
    out["refusals"] = refusals(view, me, names)
    return out


def _form_sentence(me: int, to: int, names: Sequence[str]) -> str:
    """The offer a trade form would make, as the other side will read it, with "{give}" and
    "{get}" for board.js to fill in as the fields change (the one form of every trade)."""
    return trade_sentence(me, to, "{give}", "{get}", viewer=me, names=names)


def swap_min(beat: Mapping[str, int], take: Any, give: Any) -> int:
    """The least cash a swap of `take` for `give` ("" for none) may offer: 1 with no tile
    of yours, and more after a refusal of the same tiles."""
    least = 1 if give in ("", None) else 0
    return max(least, beat.get(f"{take}:{give if give is not None else ''}", 0))


def _auction(view: Mapping[str, Any], names: Sequence[str],
             seats: Sequence[Mapping[str, Any]] = (), lot_deadline: str | None = None
             ) -> dict[str, Any] | None:
    """The lot, the bid, and every bidder in order: out, bidding now (with their clock), or
    waiting; the no-first-bid deadline while nobody has bid. It names no viewer, so its box is
    a partial every seat and a watcher read alike (_lot.html): each name goes with its seat,
    and the page shows "You" for the seat whose screen it is (.you-mark under data-me,
    static/css/site.css)."""
    a = view.get("auction")
    if a is None:
        return None
    bidders = []
    for s in a["order"]:
        meta = seats[s] if s < len(seats) else {}
        state = "out" if s in a["out"] else "bidding" if s == a["at"] else "waiting"
        bidders.append({
            "seat": s, "name": _name(names, s, None), "state": state,
            "leads": s == a["leader"], "colour": SEAT_COLOURS[s % 6],
            "deadline": meta.get("deadline") if state == "bidding" else None})
    return {
        "bidders": bidders, "lot_deadline": lot_deadline if a["high"] is None else None,
        "no_bid": a["high"] is None,
        "tile": a["tile"], "name": TILES[a["tile"]]["name"], "price": TILES[a["tile"]]["price"],
        "seller": a["seller"], "seller_name": _name(names, a["seller"], None, subject=False),
        "high": a["high"], "leader": a["leader"],
        "leader_name": _name(names, a["leader"], None) if a["leader"] is not None else None,
        "next": next_bid(a),
        "at": a["at"],
    }


def _offer(view: Mapping[str, Any], me: int | None, names: Sequence[str]
           ) -> dict[str, Any] | None:
    o = view.get("offer")
    if o is None:
        return None
    out = {"from": _name(names, o["from"], me), "to": _name(names, o["to"], me, subject=False),
           "mine": o["to"] == me, "private": bool(o.get("private"))}
    if not out["private"]:
        out["words"] = offer_words(o, viewer=me, names=names)
    return out


def portfolio(view: Mapping[str, Any], me: int | None, dec: Mapping[str, Any]
              ) -> list[dict[str, Any]]:
    """The seat's tiles by industry (logistics and utilities as groups of their own), each
    with what the seat may do to it now: build here, close, sell to the bank, auction, sell to
    a rival (the last two open the Trade panel on that tile)."""
    if me is None:
        return []
    per_tile: dict[int, list[dict[str, Any]]] = {}

    def add(pos: int, item: dict[str, Any]) -> None:
        per_tile.setdefault(pos, []).append(item)

    for o in dec["builds"]:
        pos = json.loads(o["json"])["tile"]
        what = "holding" if view["level"][pos] == 4 else "branch"
        add(pos, {"json": o["json"], "label": f"Open a {what} here "
                  f"({TILES[pos]['branch_cost']})", "kind": "build"})
    for o in dec["closes"]:
        pos = json.loads(o["json"])["tile"]
        add(pos, {"json": o["json"], "label": f"Close a building "
                  f"(+{TILES[pos]['branch_cost'] // 2})", "kind": "close"})
    for o in dec["bank_sales"]:
        pos = json.loads(o["json"])["tile"]
        add(pos, {"json": o["json"], "label": f"Sell to the bank (+{BUYBACK[pos]})",
                  "kind": "sell-bank"})
    for lot in dec["lots"]:
        add(lot["tile"], {"trade": "lot", "label": "To auction…", "kind": "auction"})
    sellable = {c["value"] for s in dec["sells"] for c in s["give"]}
    for pos in sorted(sellable):
        add(pos, {"trade": "sell", "label": "Sell to a rival…", "kind": "sell"})
    groups: dict[str, dict[str, Any]] = {}
    owners, levels = view["owner"], view["level"]
    here = view["pos"][me]
    # The seat's own tiles, in board order (TILES[pos] is the tile at `pos`): a seat owns a
    # few of the forty, and four screens a move ask.
    for pos, owner in enumerate(owners):
        if owner != me:
            continue
        t = TILES[pos]
        key = t.get("industry") or t["kind"]
        held = _group_held(owners, pos)
        group = groups.setdefault(key, {
            "key": key, "tiles": [], "complete": bool(t.get("industry")) and held is True,
            "name": INDUSTRY_NAMES.get(t.get("industry") or "", GROUP_NAMES.get(t["kind"], ""))})
        actions = per_tile.get(pos)
        if actions is None:
            group["tiles"].append(_portfolio_line(view, pos, levels[pos], held, here == pos))
        else:
            group["tiles"].append({**_portfolio_line(view, pos, levels[pos], held, here == pos),
                                   "actions": actions})
    return list(groups.values())


# A portfolio line with no action on it, by all it reads (`_portfolio_line`'s arguments): one
# entry, read only, from snapshot to snapshot and seat to seat, where each seat's screen
# worked out every line's rent and the bank's price again.
_PORTFOLIO_LINES: dict[tuple[Any, ...], dict[str, Any]] = {}
_PORTFOLIO_LINES_KEPT = 4096


def _portfolio_line(view: Mapping[str, Any], pos: int, level: int, held: bool | int,
                    here: bool) -> dict[str, Any]:
    """A tile's line in its owner's portfolio, with no actions: what it reads of the board is
    its level and what its owner holds of its group (`_group_held`: the rent), and whether the
    owner's token stands on it."""
    key = (pos, level, held, here)
    line = _PORTFOLIO_LINES.get(key)
    if line is None:
        if len(_PORTFOLIO_LINES) >= _PORTFOLIO_LINES_KEPT:
            _PORTFOLIO_LINES.clear()
        t = TILES[pos]
        industry = t.get("industry") or t["kind"]
        line = _PORTFOLIO_LINES[key] = {
            "pos": pos, "name": t["name"],
            "industry": INDUSTRY_NAMES.get(t.get("industry") or "",
                                           GROUP_NAMES.get(t["kind"], "")),
            "industry_key": industry, "level": level, "level_words": LEVEL_WORDS[level],
            "buyback": bank_price(view, pos),
            # A utility's rent is the dice's: not shown as a figure now.
            "rent_now": rent(view, pos, 0) if t["kind"] != "utility" else None,
            "here": here, "actions": []}
    return line


def focus(view: Mapping[str, Any], me: int | None, dec: Mapping[str, Any]
          ) -> tuple[int, str]:
    """The tile whose card the board's centre shows, and why: the lot while an auction runs
    (every seat and a spectator bid on or watch the same tile), the tile a trade offer names
    when it names one and its terms are seen, the tile the viewer may buy, else where the
    viewer's token stands (a spectator: the turn holder's)."""
    a = view.get("auction")
    if a is not None:
        return a["tile"], "lot"
    o = view.get("offer")
    if o is not None and not o.get("private"):
        named = [t for t in (o.get("take"), o.get("give")) if isinstance(t, int)]
        if len(named) == 1:
            return named[0], "offer"
    bought = [b for b in dec["buttons"] if b.get("id") == "buy"]
    if bought:
        return json.loads(bought[0]["json"])["tile"], "buy"
    return (view["pos"][me] if me is not None else view["pos"][view["turn"]]), "token"


def waiting_key(state: Mapping[str, Any], seat: int) -> tuple[Any, ...]:
    """All that `seat`'s decision, portfolio and centre card read (board_context) while it
    decides nothing and no offer or debt is on (BoardroomGame.seat_screen_key; during an
    auction its centre shows the lot instead, `lot_key`):
    whether it still plays, where its token stands
    (`focus`, "you are here"), each of its own tiles with what its portfolio line reads
    (`portfolio`: buildings, whole industry or how many of the group, hence rent and the
    bank's price) and the same of the tile its token stands on (`tile_card`). Another seat's
    tile counts only where it stands on it: buying or building elsewhere changes none of this.
    Read off the state, which holds what the view shows of these; the players' names are in
    the seat's mark beside it (presenters.SeatMark)."""
    owners, levels = state["owner"], state["level"]
    here = state["pos"][seat]
    mine = tuple((pos, levels[pos], _group_held(owners, pos))
                 for pos, owner in enumerate(owners) if owner == seat)
    card = (owners[here], levels[here],
            _group_held(owners, here) if owners[here] is not None else None)
    return ("waiting", state["active"][seat], here, card, mine)


def lot_key(state: Mapping[str, Any], tile: int) -> tuple[Any, ...]:
    """What the card of the lot on auction reads, which every seat's centre shows while the
    auction runs (`focus`): its owner (the seller, or none), its buildings and how many of
    its group its owner holds. The bid and the bidders are the auction box's (_lot.html)."""
    owners = state["owner"]
    return ("lot", tile, owners[tile], state["level"][tile],
            _group_held(owners, tile) if owners[tile] is not None else None)


def _players(view: Mapping[str, Any], me: int | None, names: Sequence[str],
             seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every seat's panel in play order; `me` None (the shared panels, board_public) marks no
    seat as the viewer's, and the page marks it (data-me)."""
    deciding = list(view.get("to_decide") or [])
    players = []
    held = [0] * view["seats"]
    for owner in view["owner"]:
        if owner is not None:
            held[owner] += 1
    for seat in view["order"]:
        meta = seats[seat] if seat < len(seats) else {}
        p = {
            "seat": seat, "name": _seat_name(names, seat), "is_me": seat == me,
            "cash": view["cash"][seat],
            "held": held[seat], "releases": view["releases"][seat],
            "active": view["active"][seat], "under_audit": view["audit"][seat] is not None,
            "audit_tries": view["audit"][seat], "pos": view["pos"][seat],
            "tile_name": TILES[view["pos"][seat]]["name"], "colour": SEAT_COLOURS[seat % 6],
            "colour_name": SEAT_COLOUR_NAMES[seat % 6], "is_turn": seat == view["turn"],
            "deciding": seat in deciding, "is_bot": bool(meta.get("is_bot")),
            "is_away": bool(meta.get("is_away")), "deadline": meta.get("deadline"),
            "paused": meta.get("paused"),
            "debt": sum(d["amount"] for d in view.get("debts") or [] if d["seat"] == seat),
        }
        players.append(p)
    return players


def _seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


def turn_line(view: Mapping[str, Any], names: Sequence[str],
              seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Whose turn, who decides and the clock, as every viewer reads them: each seat by its
    name and number, "Your turn" and "You" marked by the page for the seat whose screen it
    is. `always_deciding`: who decides is said even to the turn holder (an auction's
    bidders, a trade offer's answer), else only to the others."""
    deciding = list(view.get("to_decide") or [])
    return {
        "seat": view["turn"], "name": _seat_name(names, view["turn"]),
        "number": view.get("turn_number"),
        "deciding": [{"seat": s, "name": _seat_name(names, s)} for s in deciding],
        "always_deciding": view.get("auction") is not None or view.get("offer") is not None,
        "deadline": next((seats[s].get("deadline") for s in deciding if s < len(seats)
                          and seats[s].get("deadline")), None),
    }


def board_public(view: Mapping[str, Any], *, names: Sequence[str],
                 seats: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The part of the board every viewer sees alike, from any viewer's view (the platform
    builds it once per snapshot from the spectator's): the forty tiles with their tokens
    and cards, the players' panels and the turn line. Nothing in it names the viewer: the
    page marks its own token, tiles, seat and turn (`data-me`, static/css/site.css)."""
    players = _players(view, None, names, seats)
    for p in players:  # the platform adds each seat's rating to a board's players
        p["rating"] = seats[p["seat"]].get("rating") if p["seat"] < len(seats) else None
    lot_deadline = _lot_deadline(seats)
    # The auction names no viewer (its bidders' "You" is the page's): one a snapshot, where
    # every seat's context built it again, bid after bid.
    return {"tiles": _tiles(view, names), "players": players,
            "turn": turn_line(view, names, seats), "lot_deadline": lot_deadline,
            "auction": _auction(view, names, seats, lot_deadline)}


def _lot_deadline(seats: Sequence[Mapping[str, Any]]) -> str | None:
    """When a lot with no first bid is cancelled, if any seat entry gives it (ISO time)."""
    return next((m.get("lot_deadline") for m in seats if m.get("lot_deadline")), None)


def _tiles(view: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """The forty tiles with their tokens and cards, as every viewer sees them."""
    tokens: dict[int, list[dict[str, Any]]] = {}
    for seat in view["order"]:
        if view["active"][seat]:
            # What a tile shows of a token, and no more: a tile is rendered once per distinct
            # content (shared_includes.include_each), and a cash change is not the tile's.
            tokens.setdefault(view["pos"][seat], []).append(
                {"seat": seat, "name": names[seat] if seat < len(names) else f"Seat {seat + 1}",
                 "colour": SEAT_COLOURS[seat % 6]})
    tiles = []
    owners, levels = view["owner"], view["level"]
    for pos in range(len(TILES)):
        here = tokens.get(pos)
        if owners[pos] is None:
            # Nobody's tile reads the same in every game at its level: one entry, read only.
            plain = _unowned_tile(pos, levels[pos])
            tiles.append(plain if here is None else {**plain, "tokens": here})
        else:
            owned = _owned_tile(view, pos, names)
            tiles.append(owned if here is None else {**owned, "tokens": here})
    return tiles


def _group_held(owners: Sequence[Any], pos: int) -> bool | int:
    """What an owned tile reads of the other tiles (tile_card: its rent, the rows marked
    "now"; the dice only for a utility, whose rent now it does not show): whether its owner
    holds the whole industry, or how many logistics or utilities."""
    owner = owners[pos]
    kind = KIND[pos]
    if kind == "business":
        return all(owners[t] == owner for t in GROUP[pos])
    return sum(1 for t in (LOGISTICS if kind == "logistics" else UTILITIES)
               if owners[t] == owner)


# Owned tiles with no token on them, by all that `_tile` reads of one (the key below): each
# is one entry, read only, from snapshot to snapshot while those stand, instead of every
# owned tile's card built anew each snapshot.
_OWNED_TILES: dict[tuple[Any, ...], dict[str, Any]] = {}
_OWNED_TILES_KEPT = 4096


def _owned_tile(view: Mapping[str, Any], pos: int, names: Sequence[str]) -> dict[str, Any]:
    owners = view["owner"]
    owner = owners[pos]
    key = (pos, owner, view["level"][pos], _name(names, owner, None, subject=True),
           _group_held(owners, pos))
    tile = _OWNED_TILES.get(key)
    if tile is None:
        if len(_OWNED_TILES) >= _OWNED_TILES_KEPT:
            _OWNED_TILES.clear()
        tile = _OWNED_TILES[key] = _tile(view, pos, names, [])
    return tile


def _tile(view: Mapping[str, Any], pos: int, names: Sequence[str],
          tokens: list[dict[str, Any]]) -> dict[str, Any]:
    t = TILES[pos]
    owner = view["owner"][pos]
    row, col = grid_place(pos)
    return {
        "pos": pos, "name": t["name"], "short": SHORT_NAMES[pos], "kind": t["kind"],
        "side": side(pos), "industry": t.get("industry") or "", "price": t.get("price"),
        "row": row, "col": col, "owner": owner, "level": view["level"][pos],
        # A tuple, not a range (what the tile draws, a branch each): a render's key writes
        # it at orjson's own speed.
        "branches": _BRANCHES[view["level"][pos] if view["level"][pos] < 5 else 0],
        "holding": view["level"][pos] == 5,
        "owner_colour": SEAT_COLOURS[owner % 6] if owner is not None else None,
        # The tiles read alike for every viewer, so every socket of a process is served
        # one render of the board a move (shared_includes.include_each).
        "owner_name": _name(names, owner, None, subject=True) if owner is not None else None,
        "tokens": tokens,
        "card": tile_card(view, pos, names=names, me=None),
    }


CARD_TITLES = {c["id"]: c["title"] for c in CARDS}  # read only: every screen shows this one
_BRANCHES = tuple(tuple(range(n)) for n in range(5))


@functools.cache
def _unowned_tile(pos: int, level: int) -> dict[str, Any]:
    """A tile nobody owns, at `level`, with no token on it: what it shows reads only its
    place and its level (tile_card: the bank's buyback), the same in every game."""
    blank = {"owner": [None] * len(TILES), "level": [level] * len(TILES), "dice": None}
    return _tile(blank, pos, (), [])


def board_context(view: Mapping[str, Any], *, me: int | None, names: Sequence[str],
                  seats: Sequence[Mapping[str, Any]], lot_deadline: str | None = None,
                  public: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """`lot_deadline`: when a lot with no first bid is cancelled, if the site's clocks give
    one (ISO time); any seat entry's "lot_deadline" is read too. `public`: `board_public`'s,
    shared by every viewer of a snapshot (else it is built here)."""
    if lot_deadline is None:
        lot_deadline = public["lot_deadline"] if public is not None else _lot_deadline(seats)
    deciding = list(view.get("to_decide") or [])
    # The shared panels and turn line name no viewer (the page marks its seat, data-me); a
    # replay's, built for one seat, say "You".
    players = public["players"] if public is not None else _players(view, me, names, seats)
    turn = public["turn"] if public is not None else turn_line(view, names, seats)
    tiles = public["tiles"] if public is not None else _tiles(view, names)
    dice = view.get("dice")
    debts = []
    for d in view.get("debts") or []:
        debts.append({"seat": d["seat"], "who": _name(names, d["seat"], me),
                      "amount": d["amount"], "mine": d["seat"] == me,
                      "reason": REASONS.get(d.get("reason") or "", ""),
                      "tile": TILES[d["tile"]]["name"] if isinstance(d.get("tile"), int)
                      else None,
                      "to": ", ".join(_name(names, c, me, subject=False) for c, _ in d["to"])})
    dec = decision(view, me, names)
    here, why = focus(view, me, dec)
    groups = portfolio(view, me, dec)
    my_tiles = [t for group in groups for t in group["tiles"]]
    return {
        # The viewer's seat (None: a watcher). The shared panels do not read it: the page's
        # seat marker (#table-me, data-me) tells CSS whose screen it is.
        "me": me, "tiles": tiles, "players": players, "turn": turn, "dice": dice,
        "dice_total": sum(dice) if dice else None,
        "doubles": bool(dice) and dice[0] == dice[1],
        "turn_name": _name(names, view["turn"], me), "my_turn": view["turn"] == me,
        "i_decide": me is not None and me in deciding,
        "deadline": turn["deadline"],
        "stock": {"branches": view["stock"][0], "holdings": view["stock"][1]},
        "decks": {k: d["count"] for k, d in (view.get("decks") or {}).items()},
        "auction": public["auction"] if public is not None and lot_deadline
        == public["lot_deadline"] else _auction(view, names, seats, lot_deadline),
        "offer": _offer(view, me, names),
        "debts": debts, "my_debt": next((d for d in debts if d["mine"]), None),
        "decision": dec, "focus": here, "focus_why": why, "focus_card": tiles[here]["card"],
        "my_tiles": my_tiles, "portfolio": groups,
        "lot_deadline": lot_deadline, "me_active": me is not None and view["active"][me],
        "card_titles": CARD_TITLES,
        "turn_number": view.get("turn_number"), "round": view.get("round"),
    }
