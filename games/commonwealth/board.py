"""Commonwealth's board as template data, built from one seat's view only (never the state).

    board_context(view, me=seat, names=[...], seats=[{"is_bot", "is_away", "deadline"}])

Everything a template shows comes from here in plain words: the 40 spaces on an 11×11 grid
(games/platform/board_grid.py), each project's manager and chips, the tokens, both dice (the
standard die and the action die), the Community Fund, every seat's panel, the open auction,
deal and Jail split, and the seat's legal actions as labelled options (one JSON action each,
the page sends it back unchanged), plus the deal forms (one per rival) with their bounds.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from games.platform.board_grid import grid_place, side
from games.platform.jsontext import compact_json
from games.platform.wording import joined, possessive

from .bots.medium import refusal
from .describe import deal_words
from .engine import data
from .engine.rules import (
    bid_cap,
    deal_cash,
    donation_bounds,
    fund_may_cover,
    lowest_bid,
    pledge_bounds,
)

# One colour per seat (tokens and chips); names for the colour-blind and the reader.
SEAT_COLOURS = ("#d1495b", "#2e86ab", "#3f9142", "#8e5ec2")
SEAT_COLOUR_NAMES = ("red", "blue", "green", "purple")
COLOUR_NAMES = {c["key"]: c["name"] for c in data.COLOURS}
FACE_WORDS = {"2": "2", "3": "3", "4": "4", "x2": "×2", "+1": "+1", "+2": "+2"}
SPACE_NOTES = {
    "go": f"Reaching GO: every player collects {data.WAGE}, then each gives at least "
          f"{data.MIN_DONATION} to the Community Fund.",
    "jail": f"Just visiting, or in Jail: out with a 6 on the standard die, {data.JAIL_FEE} "
            "or the Pardon card.",
    "parking": "A free space: nothing happens.",
    "go_to_jail": f"Go straight to Jail without passing GO; the Fund loses "
                  f"{data.JAIL_PENALTY}.",
    "chance": "Draw a Chance card.",
    "shuttle": f"The Fund pays {data.SHUTTLE_FARE} for a ride to any project up to the next "
               "Shuttle (no GO money on the way).",
}
DECISION_TITLES = {
    "pre_roll": "Your turn", "order": "Move or draw first?", "buy": "An unmanaged project",
    "auction": "Auction: your bid", "chip": "Place a chip?", "shuttle": "Community Shuttle",
    "chance": "Chance", "donate": "GO: give to the Fund", "jail_split": "Cover the Jail fee",
    "deal": "A deal for you", "withdraw": "Your offer",
}


def _act(action: Mapping[str, Any]) -> str:
    # json.dumps's compact sorted text, written by orjson (every option of every push).
    return compact_json(dict(action), sort_keys=True)


def _name(names: Sequence[str], seat: Any, me: int | None, *, subject: bool = True) -> str:
    if seat is not None and seat == me:
        return "You" if subject else "you"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "Someone" if subject else "someone"


def _project(pid: int) -> dict[str, Any]:
    return data.PROJECTS[pid]


def face_words(face: Any) -> str:
    return FACE_WORDS.get(str(face), str(face))


def _card_words(card: Mapping[str, Any]) -> str:
    return f"{card['title']}: {card['text']}"


def option(action: Mapping[str, Any], label: str, *, id: str | None = None,
           primary: bool = False) -> dict[str, Any]:
    return {"json": _act(action), "label": label, "id": id, "primary": primary}


def who_pays(view: Mapping[str, Any], me: int, amount: int) -> str:
    """Who pays `amount` by the seed's rule for purchases, chips and fees (own money first,
    the Fund the rest: engine/rules.pay): "you pay 10", "you pay 4, the Fund 6", "the Fund
    pays 10", and whether that empties the Fund (which ends the game for everyone)."""
    own = min(view["players"][me]["cash"], amount)
    rest = amount - own
    if not rest:
        return f"you pay {own}"
    words = f"you pay {own}, the Fund {rest}" if own else f"the Fund pays {rest}"
    if rest >= view["fund"]:
        words += ": the Fund runs dry and everyone loses"
    return words


def fund_pays(view: Mapping[str, Any], amount: int) -> str:
    """A cost only the Fund pays (a Shuttle ride)."""
    words = f"the Fund pays {amount}"
    if amount >= view["fund"]:
        words += ": it runs dry and everyone loses"
    return words


def dice_meaning(die: int, face: Any) -> str:
    """What a roll does (engine/rules.roll): the action die's number adds to the standard
    die, ×2 doubles it and counts as a double, +1/+2 draw Chance cards; a double (the same
    number, or ×2) gives another turn, the third in a row sends you to Jail."""
    if not face:
        return f"A Jail roll: the standard die alone, {die}; a 6 gets you out."
    face = str(face)
    if face in ("+1", "+2"):
        n = int(face[1])
        cards = "a Chance card" if n == 1 else f"{n} Chance cards"
        return f"{face}: move {die} and draw {cards}, in the order you choose."
    if face == "x2":
        return (f"×2: move twice {die}, {die * 2}. It counts as a double: another turn "
                "(a third double in a row is Jail).")
    steps = die + int(face)
    double = " A double: another turn (a third in a row is Jail)." if int(face) == die else ""
    return f"{die} + {face}: move {steps}.{double}"


ACTION_DIE_WORDS = ("The action die: 2, 3 or 4 add to the standard die (the same number as "
                    "it is a double), ×2 doubles it and counts as a double, +1 and +2 draw "
                    "that many Chance cards. A double gives another turn; three in a row "
                    "send you to Jail.")


def action_label(view: Mapping[str, Any], action: Mapping[str, Any], me: int | None,
                 names: Sequence[str]) -> tuple[str, str | None, bool]:
    """(label, element id, primary) of one listed action, in plain words; every one that
    spends money says who pays what (you, the Fund)."""
    t = action["type"]
    step = view.get("step") or {}
    pays = (lambda amount: who_pays(view, me, amount)) if me is not None else str
    if t == "roll":
        return "Roll both dice", "roll", True
    if t == "jail_roll":
        return "Roll for a 6", "jail-roll", True
    if t == "pay_jail":
        return f"Pay {data.JAIL_FEE} of your own to leave Jail", "pay-jail", False
    if t == "jail_card":
        return "Use the Pardon card", "use-jail-card", False
    if t == "develop":
        p = _project(action["project"])
        return f"Self-develop {p['name']}: fee {p['fee']} ({pays(p['fee'])})", None, False
    if t == "play_card":
        card = data.CARDS[action["card"]]
        if card["kind"] == "free_chip":
            where = _project(action["project"])["name"]
            return f"{card['title']}: a free chip on {where}", None, False
        if card["kind"] == "remove_chip":
            rival = _name(names, action["seat"], me, subject=False)
            where = _project(action["project"])["name"]
            return f"{card['title']}: take {rival}’s chip off {where}", None, False
        mine, theirs = _project(action["mine"])["name"], _project(action["theirs"])["name"]
        return f"{card['title']}: swap {mine} for {theirs}", None, False
    if t == "order":
        steps, n = step.get("steps"), step.get("draws", 1)
        cards = "a Chance card" if n == 1 else f"{n} Chance cards"
        if action["first"] == "move":
            return f"Move {steps} first, then draw {cards}", "move-first", True
        return f"Draw {cards} first, then move {steps}", "draw-first", False
    if t == "buy":
        p = _project(step.get("project", 0))
        return f"Buy {p['name']} for {p['price']} ({pays(p['price'])})", "buy", True
    if t == "auction":
        return "Send it to auction", "auction", False
    if t == "bid":
        return f"Bid {action['amount']} (if you win, {pays(action['amount'])})", None, False
    if t == "pass":
        return "Pass", "pass", False
    if t == "chip":
        return f"Place a chip for {data.CHIP_COST} ({pays(data.CHIP_COST)})", "chip", True
    if t == "no_chip":
        return "No chip", "no-chip", False
    if t == "ride":
        return (f"Ride to {data.SPACES[action['to']]['name']} "
                f"({fund_pays(view, data.SHUTTLE_FARE)})"), None, False
    if t == "stay":
        return "Stay here", "stay", False
    if t == "skip":
        return "Play no card", "skip", False
    if t == "keep":
        if action["card"] is None:
            return "Keep none (back under the deck)", "keep-none", False
        return f"Keep {data.CARDS[action['card']]['title']}", None, False
    if t == "donate":
        return (f"Give {action['amount']} to the Fund", None,
                action["amount"] == data.MIN_DONATION)
    if t == "pledge":
        return f"Give {action['amount']} toward the fee", None, False
    if t == "accept":
        return "Accept the deal", "accept", True
    if t == "decline":
        return "Decline", "decline", False
    if t == "withdraw":
        return "Withdraw the offer", "withdraw", False
    return t.replace("_", " ").capitalize(), None, False


# Why the Fund pays nothing for a seat now (engine/rules.fund_may_cover), said beside what it
# would have helped with.
FUND_AFTER_DEAL_WORDS = ("You handed cash to another player in a deal, so until {when} "
                         "passes on the Fund pays nothing for you (nobody takes the Fund’s "
                         "money through a deal); you have {cash}.")


def _amount_form(view: Mapping[str, Any], me: int, kind: str) -> dict[str, Any] | None:
    """The free-amount field beside a bid, a GO donation or a Jail pledge (any allowed value,
    not only the listed ones). Its bounds are the engine's own rules read on the view
    (engine/rules.py: lowest_bid, bid_cap, donation_bounds, pledge_bounds), never a copy: a
    value the field allows is one the engine accepts."""
    step = view.get("step") or {}
    cash = view["players"][me]["cash"]
    if kind == "auction":
        low, high = lowest_bid(step), bid_cap(view, me)
        if high < low:
            return None
        pays = (f"if you win you pay up to your {cash}, the Fund the rest"
                if fund_may_cover(view, me) else
                f"your own money only, your {cash}: the Fund pays nothing for you until "
                "your next turn passes on, as you handed cash away in a deal")
        return {"type": "bid", "low": low, "high": high, "step": data.AUCTION_STEP,
                "value": low, "label": f"Your bid ({low}–{high}, steps of "
                                      f"{data.AUCTION_STEP}; {pays})", "button": "Bid"}
    if kind == "donate":
        low, high = donation_bounds(view, me)
        return {"type": "donate", "low": low, "high": high, "step": 1, "value": low,
                "label": f"Your gift to the Fund ({low}–{high}, your own money)",
                "button": "Give"}
    if kind == "jail_split":
        low, high = pledge_bounds(view, step)
        value = next(a["amount"] for a in view["legal"] if a["type"] == "pledge")
        return {"type": "pledge", "low": low, "high": high, "step": 1, "value": value,
                "label": f"Your share of the fee ({low}–{high}, your own money)",
                "button": "Give"}
    return None


# The engine's rule for every deal (engine/legal.py), said where the offer is composed.
DEAL_NEEDS = "Tick at least one project or the Pardon card: cash alone is not a deal."


def deals(view: Mapping[str, Any], me: int | None, names: Sequence[str]
          ) -> dict[str, Any] | None:
    """The seat's deal forms (None when it can offer none now): one offer form per rival with
    whom a deal could hand over a project or the Pardon card (your projects and card against
    theirs, and cash); for every other rival, why no deal can be offered (shown disabled,
    never sent). They stand in a partial of their own (_deals.html) that changes only when
    what the seat can deal changes: no cash figure is in it, the page takes each side's cash
    limit from the players panel (board.js, `data-cash-of`: that seat's `data-deal-cash`), nor
    a project's chip count, which it reads off the board (`data-chips-at`: its space)."""
    if me is None or view.get("result") is not None or not view.get("can_offer"):
        return None
    me_p = view["players"][me]
    managed = _managed(view["projects"])
    mine = managed.get(me, [])
    forms, unavailable = [], []
    for p in view["players"]:
        if p["seat"] == me:
            continue
        theirs = managed.get(p["seat"], [])
        to_name = _name(names, p["seat"], me)
        if not (mine or me_p["jail_card"] or theirs or p["jail_card"]):
            unavailable.append(_unavailable(
                f"Offer a deal to {to_name}", f"deal-{p['seat']}-unavailable",
                f"A deal hands over at least one project or the Pardon card, and neither you "
                f"nor {to_name} has one."))
            continue
        forms.append({
            "to": p["seat"], "to_name": to_name,
            "base": _act({"type": "offer", "to": p["seat"]}),
            "give_projects": mine, "give_jail_card": me_p["jail_card"],
            "get_projects": theirs, "get_jail_card": p["jail_card"],
        })
    if not (forms or unavailable):
        return None
    return {"me": me, "forms": forms, "unavailable": unavailable, "needs": DEAL_NEEDS}


# The last projects list `_managed` read, and what it found: every seat's screen of a state
# shares one projects list (engine.view.screen_view), so the table's four deal panels read
# it once.
_last_managed: tuple[Any, dict[int, list[dict[str, Any]]]] = (None, {})


def _managed(projects: Sequence[Mapping[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """Each seat's projects as its deal forms list them, in the projects' order, found in one
    pass. Read only: the same lists serve every seat's screen of one state."""
    global _last_managed
    last, found = _last_managed
    if last is projects:
        return found
    found = {}
    for pr in projects:
        if pr["manager"] is not None:
            found.setdefault(pr["manager"], []).append(
                {"id": pr["id"], "name": _project(pr["id"])["name"], "chips": len(pr["chips"]),
                 "space": PROJECT_SPACE[pr["id"]]})
    _last_managed = (projects, found)  # held: its id is not reused while here
    return found


def decision(view: Mapping[str, Any], me: int | None, names: Sequence[str]) -> dict[str, Any]:
    """The seat's legal actions grouped for the decision panel."""
    out: dict[str, Any] = {"kind": None, "title": "", "buttons": [], "develops": [],
                           "cards": [], "rides": [], "amounts": [], "amount_form": None,
                           "shown_cards": [], "unavailable": [], "note": ""}
    if me is None or view.get("result") is not None:
        return out
    legal = view.get("legal") or []
    if not legal:
        return out
    step = view.get("step") or {}
    deal = view.get("deal")
    if deal is not None:
        out["kind"] = "deal" if deal["to"] == me else "withdraw"
    else:
        out["kind"] = step.get("kind")
    out["title"] = DECISION_TITLES.get(out["kind"], "Your decision")
    if out["kind"] == "chance":
        out["shown_cards"] = [c for c in step.get("cards") or [] if c]
        if step.get("stage") == "keep":
            out["title"] = "Chance: keep a card?"
    for action in legal:
        label, el_id, primary = action_label(view, action, me, names)
        o = option(action, label, id=el_id, primary=primary)
        t = action["type"]
        if t == "develop":
            out["develops"].append(o)
        elif t == "play_card":
            out["cards"].append(o)
        elif t == "ride":
            out["rides"].append(o)
        elif t in ("bid", "donate", "pledge"):
            out["amounts"].append(o)
        else:
            out["buttons"].append(o)
    if out["amounts"]:
        out["amount_form"] = _amount_form(view, me, out["kind"])
    p = view["players"][me]
    types = {a["type"] for a in legal}
    if "jail_roll" in types:
        # Out of Jail by a 6, the fee or the card: say why an option is not offered.
        if "pay_jail" not in types:
            out["unavailable"].append(_unavailable(
                f"Pay {data.JAIL_FEE} to leave Jail", "pay-jail-unavailable",
                f"You have {p['cash']}; the fee is paid from your own money, never the "
                "Fund."))
        if "jail_card" not in types:
            out["unavailable"].append(_unavailable(
                "Use the Pardon card", "use-jail-card-unavailable",
                "You do not hold the Pardon card (it comes from the Chance deck or a deal)."))
        out["note"] = (f"A 6 on the standard die gets you out free; after {data.JAIL_TURNS} "
                       f"misses you pay {data.JAIL_FEE} and move by that roll (the others "
                       "share what you cannot pay, then the Fund).")
    elif "roll" in types:
        out["note"] = ACTION_DIE_WORDS
    elif out["rides"]:
        out["note"] = (f"Each ride costs the Fund {data.SHUTTLE_FARE} (it has "
                       f"{view['fund']}); you cannot pay for it yourself, and no GO money is "
                       "collected on the way.")
    if not fund_may_cover(view, me):
        out["unavailable"] += _fund_refused(view, me, out["kind"], types)
    return out


def _fund_refused(view: Mapping[str, Any], me: int, kind: str | None, types: set[str]
                  ) -> list[dict[str, Any]]:
    """The spendings the Fund would have helped with, not offered because the seat handed
    cash away in a deal (engine/rules.fund_may_cover), shown disabled with why."""
    p = view["players"][me]
    # The turn holder's own turn, else (a bidder) its next one (engine/legal.py's words).
    when = "your turn" if me == view["turn"] else "your next turn"
    why = FUND_AFTER_DEAL_WORDS.format(when=when, cash=p["cash"])
    step = view.get("step") or {}
    if kind == "buy" and "buy" not in types:
        project = _project(step["project"])
        return [_unavailable(f"Buy {project['name']} for {project['price']}",
                             "buy-unavailable", why)]
    if kind == "chip" and "chip" not in types and p["cash"] < data.CHIP_COST:
        return [_unavailable(f"Place a chip for {data.CHIP_COST}", "chip-unavailable", why)]
    if kind == "pre_roll" and "develop" not in types and p["supply"] > 0 \
            and view["flags"]["developed"] is None \
            and any(pr["manager"] == me and pr["open"] > 0 for pr in view["projects"]):
        return [_unavailable("Self-develop a project", "develop-unavailable", why)]
    if kind == "auction" and "bid" not in types and p["cash"] < lowest_bid(step):
        return [_unavailable(f"Bid {lowest_bid(step)}", "bid-unavailable", why)]
    return []


def _unavailable(label: str, id: str, reason: str) -> dict[str, Any]:
    """An option not offered now, shown disabled with why (never sent)."""
    return {"label": label, "id": id, "reason": reason}


def space_card(view: Mapping[str, Any], index: int, names: Sequence[str], me: int | None
               ) -> dict[str, Any]:
    """What the centre shows for one space: a project's price, fee, payout, manager and chips,
    or what the space does."""
    s = data.SPACES[index]
    card: dict[str, Any] = {"index": index, "name": s["name"], "kind": s["kind"],
                            "note": SPACE_NOTES.get(s["kind"], "")}
    if s["kind"] != "project":
        return card
    p = _project(s["project"])
    pr = view["projects"][p["id"]]
    manager = pr["manager"]
    both = manager is not None and view["projects"][data.PARTNER[p["id"]]]["manager"] == manager
    card.update({
        "colour": p["colour"], "colour_name": COLOUR_NAMES[p["colour"]], "price": p["price"],
        "slots": p["slots"], "fee": p["fee"], "payout": p["payout"],
        "payout_now": p["payout"] * (2 if both else 1), "both": both,
        "manager": manager,
        "manager_name": _name(names, manager, me) if manager is not None else None,
        "chips": [{"seat": c, "name": _name(names, c, me), "colour": SEAT_COLOURS[c % 4]}
                  for c in pr["chips"]],
        "open": pr["open"], "partner": _project(data.PARTNER[p["id"]])["name"],
    })
    return card


def _players(view: Mapping[str, Any], me: int | None, names: Sequence[str],
             seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    deciding = set(view.get("to_decide") or [])
    managed = [0] * view["seats"]
    for pr in view["projects"]:
        if pr["manager"] is not None:
            managed[pr["manager"]] += 1
    out = []
    for seat in view["order"]:
        p = view["players"][seat]
        meta = dict(seats[seat]) if seat < len(seats) else {}
        out.append({
            "seat": seat, "name": names[seat] if seat < len(names) else f"Seat {seat + 1}",
            "is_me": seat == me, "cash": p["cash"], "deal_cash": deal_cash(view, seat),
            "placed": p["placed"],
            "supply": p["supply"], "placed_pct": p["placed"] * 100 // data.CHIPS_PER_SEAT,
            "holds_card": p["holds_card"], "kept": p["kept"], "jail_card": p["jail_card"],
            "in_jail": p["in_jail"], "jail_turns": p["jail_turns"], "pos": p["pos"],
            "space_name": data.SPACES[p["pos"]]["name"], "managed": managed[seat],
            "colour": SEAT_COLOURS[seat % 4], "colour_name": SEAT_COLOUR_NAMES[seat % 4],
            "is_turn": seat == view["turn"], "deciding": seat in deciding,
            "is_bot": bool(meta.get("is_bot")), "is_away": bool(meta.get("is_away")),
            "deadline": meta.get("deadline"), "paused": meta.get("paused"),
        })
    return out


def board_public(view: Mapping[str, Any], *, names: Sequence[str],
                 seats: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The part of the board every viewer sees alike, from any viewer's view (the platform
    builds it once per snapshot from the spectator's): the forty spaces with their tokens,
    chips and cards, the players' panels and the turn line. Nothing in it names the viewer:
    the page marks its own token, chips, seat and turn (`data-me`, static/css/site.css).
    The space cards, the dice and the open auction read alike for every viewer too."""
    players = _players(view, None, names, seats)
    for p in players:  # the platform adds each seat's rating to a board's players
        p["rating"] = seats[p["seat"]].get("rating") if p["seat"] < len(seats) else None
    spaces = _spaces(view, names)
    return {"spaces": spaces, "cards": _cards(spaces), "players": players,
            "turn": turn_line(view, names, seats), "dice": _dice(view),
            "auction": _auction(view, names)}


def _dice(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The last roll as the board's centre shows it, alike for every viewer."""
    roll = view.get("last_roll")
    if not roll:
        return None
    return {"die": roll[0], "face": face_words(roll[1]) if roll[1] else None,
            "meaning": dice_meaning(roll[0], roll[1])}


def _cards(spaces: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every space's card, in the spaces' order, for board.js to show (`_cards.html`): the very
    entries the spaces hold, which stay from snapshot to snapshot while a space's project is
    unchanged (`_PROJECT_SPACES`), so the cards' partial keeps its render while a move only
    moves tokens."""
    return [s["card"] for s in spaces]


def _seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


def turn_line(view: Mapping[str, Any], names: Sequence[str],
              seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Whose turn, who decides and the clock, as every viewer reads them: each seat by its
    name and number, "Your turn" and "You" marked by the page for the seat whose screen it is.
    `always_deciding`: who decides is said even to the turn holder (an auction's bidders, a
    deal's answer), else only to the others."""
    deciding = list(view.get("to_decide") or [])
    return {
        "seat": view["turn"], "name": _seat_name(names, view["turn"]),
        "number": view.get("turn_number"), "round": view.get("round"),
        "deciding": [{"seat": s, "name": _seat_name(names, s)} for s in deciding],
        "always_deciding": bool(_auction_step(view) or view.get("deal") is not None),
        "deadline": next((seats[s].get("deadline") for s in deciding if s < len(seats)
                          and seats[s].get("deadline")), None),
    }


def _auction_step(view: Mapping[str, Any]) -> bool:
    return (view.get("step") or {}).get("kind") == "auction"


def _spaces(view: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    tokens: dict[int, list[dict[str, Any]]] = {}
    for seat in view["order"]:
        p = view["players"][seat]
        # What a space shows of a token, and no more: a space is rendered once per distinct
        # content (shared_includes.include_each), and a cash change is not the space's.
        tokens.setdefault(p["pos"], []).append(
            {"seat": seat, "name": names[seat] if seat < len(names) else f"Seat {seat + 1}",
             "colour": SEAT_COLOURS[seat % 4], "in_jail": p["in_jail"]})
    out = []
    by_name = tuple(names)
    for s in data.SPACES:
        index = s["index"]
        # The spaces read alike for every viewer, so every socket of a process is served one
        # render of the board a move (shared_includes.include_each); the page marks "you".
        here = tokens.get(index)
        if s["kind"] != "project":
            # The same in every game but for its tokens: one entry, read only, for all.
            plain = _plain_space(index)
            out.append(plain if here is None else {**plain, "tokens": here})
            continue
        project = _project_space(view, index, names, by_name)
        out.append(project if here is None else {**project, "tokens": here})
    return out


# Project spaces with no token on them, by all that one reads (space_card: its project's
# manager, chips and open slots, whether the partner project has the same manager, and the
# seats' names): the same entry, read only, from snapshot to snapshot while those stand,
# instead of each project's card built anew each snapshot.
_PROJECT_SPACES: dict[tuple[Any, ...], dict[str, Any]] = {}
_PROJECT_SPACES_KEPT = 4096


def _project_space(view: Mapping[str, Any], index: int, names: Sequence[str],
                   by_name: tuple[str, ...]) -> dict[str, Any]:
    pid = data.SPACES[index]["project"]
    pr = view["projects"][pid]
    manager = pr["manager"]
    both = manager is not None and view["projects"][data.PARTNER[pid]]["manager"] == manager
    key = (index, manager, tuple(pr["chips"]), pr["open"], both, by_name)
    entry = _PROJECT_SPACES.get(key)
    if entry is not None:
        return entry
    card = space_card(view, index, names, None)
    entry = {
        **_space_place(index), "colour": card["colour"], "price": card["price"],
        "manager": manager,
        "manager_colour": SEAT_COLOURS[manager % 4] if manager is not None else None,
        "chips": card["chips"],
        # A tuple, not a range: a render's key writes it at orjson's own speed.
        "open_slots": _SLOTS[card["open"]] if card["open"] < len(_SLOTS)
        else tuple(range(card["open"])),
        "tokens": [], "card": card, "manager_name": card["manager_name"],
    }
    if len(_PROJECT_SPACES) >= _PROJECT_SPACES_KEPT:
        _PROJECT_SPACES.clear()
    _PROJECT_SPACES[key] = entry
    return entry


_SLOTS = tuple(tuple(range(n)) for n in range(8))  # a project's open chip slots, drawn


@functools.cache
def _space_place(index: int) -> dict[str, Any]:
    """What a space is and where it stands on the grid: the same in every game."""
    s = data.SPACES[index]
    row, col = grid_place(index)
    return {"index": index, "name": s["name"], "short": data.SHORT_NAMES[index],
            "kind": s["kind"], "side": side(index), "row": row, "col": col}


@functools.cache
def _plain_space(index: int) -> dict[str, Any]:
    """A space that is no project, with no token on it: the same in every game (read only:
    every board shows this very dict)."""
    return {**_space_place(index), "colour": "", "price": None, "manager": None,
            "manager_colour": None, "chips": [], "open_slots": (), "tokens": [],
            "card": space_card({}, index, (), None)}


def _auction(view: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any] | None:
    """The auction as every seat reads it alike (so the seats that wait share one decision
    panel): each name goes with its seat, and the page shows "You" for the seat whose screen
    it is (.you-mark under data-me, static/css/site.css)."""
    step = view.get("step") or {}
    if step.get("kind") != "auction":
        return None
    p = _project(step["project"])
    high = step["high"]
    return {"name": p["name"], "price": p["price"],
            "sender": step["sender"], "sender_name": _name(names, step["sender"], None),
            "high": high or None, "leader": step["leader"],
            "leader_name": _name(names, step["leader"], None)
            if step["leader"] is not None else None,
            "next": lowest_bid(step),
            "at": step["to_act"], "at_name": _name(names, step["to_act"], None),
            "bidders": [{"seat": s, "name": _name(names, s, None)} for s in step["bidders"]]}


def _deal(view: Mapping[str, Any], me: int | None, names: Sequence[str]
          ) -> dict[str, Any] | None:
    deal = view.get("deal")
    if deal is None:
        return None
    out = {"from": _name(names, deal["from"], me), "to": _name(names, deal["to"], me,
                                                                  subject=False),
           "mine": deal["to"] == me, "proposer": deal["from"] == me,
           "private": bool(deal.get("private"))}
    if not out["private"]:
        out["words"] = deal_words(deal, viewer=me, names=names)
    return out


def declined(view: Mapping[str, Any], me: int | None, names: Sequence[str],
             seats: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The proposer's deal declined this turn, with why and what the next offer must beat.
    A bot answers by what the deal is worth to it (games/commonwealth/bots/medium.py), from
    public facts only, so the proposer's view tells the same verdict; the easy bot answers at
    random, which is said as such. Only the proposer's view holds a declined deal."""
    deal = view.get("declined")
    if me is None or deal is None or deal["from"] != me:
        return None
    to = deal["to"]
    them = _name(names, to, me)
    out = {"to_name": them, "words": deal_words(deal, viewer=me, names=names),
           "why": "", "next": ""}
    if not (to < len(seats) and seats[to].get("is_bot")):
        return out
    verdict = refusal(dict(view), to, deal)
    if verdict is None:
        out["why"] = f"{them} answers deals at random, so the same offer may pass next time"
    elif verdict[0] == "close":
        out["why"] = (f"{them} helps no rival this close to winning (you have "
                      f"{view['players'][me]['placed']} of {data.CHIPS_PER_SEAT} chips "
                      "placed, more than it)")
        out["next"] = "No offer changes that while you lead it."
    else:
        short = verdict[1]
        out["why"] = f"{them} values what it gives up above what it gets, by {short}"
        ask = deal["get"]["cash"]
        if ask > short:
            out["next"] = f"Next time, for these projects: ask at most {ask - short} of its cash."
        elif ask > 0:
            out["next"] = ("Next time, for these projects: ask none of its cash"
                           + (f" and give at least {short - ask} in cash." if short > ask
                              else "."))
        else:
            out["next"] = (f"Next time, for these projects: at least "
                           f"{deal['give']['cash'] + short} in cash.")
    return out


def _jail_split(view: Mapping[str, Any], me: int | None, names: Sequence[str]
                ) -> dict[str, Any] | None:
    step = view.get("step") or {}
    if step.get("kind") != "jail_split":
        return None
    pledgers = step["pledgers"]
    who = joined([_name(names, s, me, subject=False) for s in pledgers])
    # "you choose", "Bea chooses", "Bea and you choose"
    choose = "chooses" if len(pledgers) == 1 and pledgers[0] != me else "choose"
    return {"jailed": _name(names, step["jailed"], me, subject=False),
            "needed": step["needed"],
            "pledgers": [_name(names, s, me) for s in pledgers],
            "words": f"{step['needed']} of {possessive(step['jailed'], me, names)} Jail fee "
                     f"is still owed: {who} {choose} how to split it (the Fund pays only "
                     "what all the players together cannot)."}


# What the auto move toggle does here (engine.timeouts.auto_action), for its hover text.
AUTO_MOVE_WORDS = ("Auto move: roll for you, give the GO minimum of 5 and skip a chip you "
                   "cannot place (never buys, bids, trades, plays cards or places chips)")
AUTO_MOVE_ON_WORDS = "Auto move is on: it rolls and gives the GO minimum. Press to turn it off."


# Each project's space on the board.
PROJECT_SPACE = {s["project"]: s["index"] for s in data.SPACES if s["kind"] == "project"}


def focus(view: Mapping[str, Any], me: int | None) -> tuple[int, str]:
    """The space whose card the board's centre shows, and why: the project on auction while
    one runs (every bidder and a spectator see what the bids are for), else where the
    viewer's token stands (a spectator: the turn holder's)."""
    step = view.get("step") or {}
    if step.get("kind") == "auction":
        return PROJECT_SPACE[step["project"]], "lot"
    seat = me if me is not None else view["turn"]
    return view["players"][seat]["pos"], "token"


def board_context(view: Mapping[str, Any], *, me: int | None, names: Sequence[str],
                  seats: Sequence[Mapping[str, Any]],
                  public: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """`public`: `board_public`'s, shared by every viewer of a snapshot (else built here)."""
    # The shared players name no viewer (the page marks its seat); a replay's own say "You".
    players = public["players"] if public is not None else _players(view, me, names, seats)
    spaces = public["spaces"] if public is not None else _spaces(view, names)
    cards = public["cards"] if public is not None else _cards(spaces)
    turn = public["turn"] if public is not None else turn_line(view, names, seats)
    dice = public["dice"] if public is not None else _dice(view)
    auction = public["auction"] if public is not None else _auction(view, names)
    deciding = list(view.get("to_decide") or [])
    here, why = focus(view, me)
    my_projects = []
    kept = None
    if me is not None:
        kept = view["players"][me]["kept"]
        for pr in view["projects"]:
            if pr["manager"] == me:
                p = _project(pr["id"])
                my_projects.append({"name": p["name"], "colour": p["colour"],
                                    "colour_name": COLOUR_NAMES[p["colour"]],
                                    "chips": len(pr["chips"]), "slots": p["slots"]})
    fund = view["fund"]
    return {
        # The viewer's seat (None: a watcher). The shared panels do not read it: the page's
        # seat marker (#table-me, data-me) tells CSS whose screen it is.
        "me": me, "spaces": spaces, "cards": cards, "players": players, "turn": turn,
        "my_cash": view["players"][me]["cash"] if me is not None else None,
        "fund": fund, "fund_start": data.FUND_START,
        "fund_pct": max(0, min(100, fund * 100 // data.FUND_START)),
        "fund_low": fund < 300,
        "dice": dice,
        "turn_name": _name(names, view["turn"], me), "my_turn": view["turn"] == me,
        "turn_number": view.get("turn_number"), "round": view.get("round"),
        "i_decide": me is not None and me in deciding,
        "deadline": turn["deadline"],
        "deck_count": view.get("deck_count"),
        "auction": auction, "deal": _deal(view, me, names),
        "jail_split": _jail_split(view, me, names),
        "declined": declined(view, me, names, seats),
        "decision": decision(view, me, names), "deals": deals(view, me, names),
        "focus": here, "focus_why": why, "focus_card": spaces[here]["card"],
        "my_projects": my_projects, "kept": kept,
        "my_jail_card": me is not None and view["players"][me]["jail_card"],
        "fund_dry": (view.get("result") or {}).get("end_reason") == "fund_dry",
        "end_reason": (view.get("result") or {}).get("end_reason"),
        # The auto move toggle's hover text (games/platform/common_templates/games/_auto_move.html).
        "auto_move_words": AUTO_MOVE_WORDS, "auto_move_on_words": AUTO_MOVE_ON_WORDS,
    }
