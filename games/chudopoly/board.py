"""Chudopoly's board on the table page: a seat's view turned into template data.

Everything here reads only the engine's per-seat view (and public names and clocks the site
passes in), so nothing hidden can reach a template. Legal actions become labelled options in
plain words ("Charge Bea rent on Fighters (6M)"), grouped where the page offers them: under a
hand card, under a card on your board, or in the decision panel.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.chudopoly.engine.apply import PAYMENT_KINDS
from games.chudopoly.engine.cards import ACTIONS, COLOURS
from games.chudopoly.engine.recent import Recent
from games.platform.jsontext import compact_json

HAND_LIMIT = 7


def colour_name(key: str | None) -> str:
    colour = COLOURS.get(key or "")
    return colour.name if colour else (key or "?")


def _cards_by_id(view: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    cards: dict[int, dict[str, Any]] = {}
    for c in view.get("hand") or []:
        cards[c["id"]] = c
    for player in view.get("players") or []:
        for c in player.get("bank") or []:
            cards[c["id"]] = c
        for zone in player.get("zones") or []:
            for c in (zone.get("cards") or []) + (zone.get("upgrades") or []):
                # A view's board card names its zone's colour already: read as it is.
                cards[c["id"]] = c if c.get("colour") else {**c, "colour": zone.get("colour")}
    top = view.get("discard_top")
    if top:
        cards.setdefault(top["id"], top)
    return cards


def _name(names: Sequence[str], seat: Any, me: int | None, *, subject: bool = False) -> str:
    if seat is not None and seat == me:
        return "You" if subject else "you"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "someone"


def _possessive(names: Sequence[str], seat: Any, me: int | None) -> str:
    if seat is not None and seat == me:
        return "your"
    return f"{_name(names, seat, me)}’s"


def action_label(action: Mapping[str, Any], *, cards: Mapping[int, Mapping[str, Any]],
                 view: Mapping[str, Any], names: Sequence[str], me: int | None) -> str:
    """A legal action in plain words, e.g. "Charge Bea rent on Fighters (6M)"."""
    t = action.get("type")
    card = cards.get(action.get("card", -1), {})
    cname = card.get("name", "card")
    if t == "bank":
        return f"Bank it as {card.get('value', 0)}M"
    if t == "place":
        return f"Place in {colour_name(action.get('colour'))}"
    if t == "move":
        return f"Move {cname} to {colour_name(action.get('colour'))}"
    if t == "swap":
        a, b = (cards.get(c, {}) for c in action.get("cards", [None, None])[:2])
        return (f"Swap {a.get('name', '?')} ({colour_name(a.get('colour'))}) with "
                f"{b.get('name', '?')} ({colour_name(b.get('colour'))})")
    if t == "respond":
        target = action.get("target")
        if target is not None and target != me:
            # I am the source answering a target's OPSEC in that target's chain.
            who = _name(names, target, me)
            if action.get("answer") == "opsec":
                return f"Counter {who}’s OPSEC with your own"
            return f"Let {who}’s OPSEC stand"
        if action.get("answer") == "opsec":
            return "Play OPSEC to block it"
        kind = (view.get("pending") or {}).get("kind")
        return "Accept and pay" if kind in ("rent", "finance_office", "roll_call") else "Accept"
    if t == "end_turn":
        return "End turn"
    if t == "scoop":
        return "Scoop (resign)"
    if t in ("pay", "accept_pay"):
        total = sum(cards.get(c, {}).get("value", 0) for c in action.get("cards", []))
        listed = ", ".join(cards.get(c, {}).get("name", "?") for c in action.get("cards", []))
        return f"Pay {total}M: {listed}" if listed else "Pay nothing"
    if t == "discard":
        listed = ", ".join(cards.get(c, {}).get("name", "?") for c in action.get("cards", []))
        return f"Discard {listed}"
    if t != "action":
        return str(t)
    key = card.get("key")
    target = _name(names, action.get("target"), me)
    colour = colour_name(action.get("colour"))
    if key == "pcs_orders":
        return "Play it: draw 2 cards"
    if key == "roll_call":
        return "Play it: everyone else pays you 2M"
    if key == "surge_ops":
        return "Play it: double your next rent"
    if key == "finance_office":
        return f"Collect 5M from {target}"
    if key in ("midnight_requisition", "chud"):
        take = cards.get(action.get("take", -1), {})
        return (f"Take {take.get('name', '?')} ({colour_name(take.get('colour'))}) "
                f"from {target}")
    if key == "tdy_orders":
        take = cards.get(action.get("take", -1), {})
        give = cards.get(action.get("give", -1), {})
        return (f"Swap your {give.get('name', '?')} for {target}’s {take.get('name', '?')} "
                f"({colour_name(take.get('colour'))})")
    if key == "inspector_general":
        return f"Seize {_possessive(names, action.get('target'), me)} {colour} set"
    if key in ("upgrade", "foc"):
        return f"Add to your {colour} set"
    if key in ("rent_pair", "rent_any"):
        amount = _rent_amount(view, me, action.get("colour"))
        whom = "everyone else" if key == "rent_pair" else target
        money = f" ({amount}M)" if amount is not None else ""
        return f"Charge {whom} rent on {colour}{money}"
    return f"Play {cname}"


def _rent_amount(view: Mapping[str, Any], me: int | None, colour: Any) -> int | None:
    if me is None:
        return None
    for player in view.get("players") or []:
        if player.get("seat") == me:
            for zone in player.get("zones") or []:
                if zone.get("colour") == colour and zone.get("rent") is not None:
                    surge = int(view.get("surge") or 0)
                    return int(zone["rent"]) * (2 ** surge)
    return None


# The legal actions whose labels name no card (action_label).
_LABELLED_WITHOUT_CARDS = frozenset(("scoop", "end_turn", "respond"))


def _option(action: Mapping[str, Any], label: str) -> dict[str, str]:
    kind = action.get("type")
    if len(action) == 1 and type(kind) is str:
        # {"type": "scoop"}, {"type": "end_turn"}: the same JSON always.
        return {"label": label, "json": _type_only_json(kind)}
    return {"label": label, "json": compact_json(dict(action))}


@functools.cache
def _type_only_json(kind: str) -> str:
    return compact_json({"type": kind})


# A player's public entry (board_public's) as a recent snapshot built it, by the view's entry
# it was built from and everything else it took (`facts`). A shared view keeps an unchanged
# player's entry from move to move (engine/view.py, `_public_part`), so most of a move's
# entries are the previous snapshot's very objects, and a shared list takes the keys written
# for those (rendering.SharedList's `before`): a move writes the key of the one or two
# players it changed, not every player's board. The view's entry is held, so its id is not
# another's while here; entries are only read once made (board_context copies the viewer's).
_PUBLIC_ENTRIES: Recent[int, tuple[Mapping[str, Any], tuple[Any, ...], dict[str, Any]]] = (
    Recent(256))
_NO_RATING: Any = object()  # no "rating" among a seat's facts


def board_public(view: Mapping[str, Any], *, names: Sequence[str],
                 seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The part of the board every viewer sees alike: each player's board, counts and
    badges, and the status's who-is-who (whose turn, who decides, whose clock runs, who is
    armed). Built from a spectator's view (the platform's `board_public` hook), once per
    snapshot, and shared by every seat's `board_context`; so it is only read after, never
    changed. The players and status partials show these entries alone (besides public
    counts), so each is one render for every seat (chudopoly/_players.html, _status.html)."""
    turn = view.get("turn")
    to_decide = view.get("to_decide") or []
    players = []
    for p in view.get("players") or []:
        seat_no = p.get("seat")
        meta = seats[seat_no] if isinstance(seat_no, int) and seat_no < len(seats) else {}
        # Everything the entry takes besides the view's own entry `p`.
        facts = (_name(names, seat_no, None), seat_no == turn, bool(meta.get("is_bot")),
                 bool(meta.get("is_away")), seat_no in to_decide, meta.get("deadline"),
                 meta.get("paused"), meta.get("rating", _NO_RATING))
        known = _PUBLIC_ENTRIES.new.get(id(p)) or _PUBLIC_ENTRIES.get(id(p))
        if known is not None and known[0] is p and known[1] == facts:
            players.append(known[2])
            continue
        name, is_turn, is_bot, is_away, deciding, deadline, paused, rating = facts
        player = {
            **p, "zones": _zones(p), "name": name, "is_me": False, "is_turn": is_turn,
            "is_bot": is_bot, "is_away": is_away, "deciding": deciding, "deadline": deadline,
            "paused": paused,
        }
        if rating is not _NO_RATING:  # the platform's ladder rating, when it passes it here
            player["rating"] = rating
        _PUBLIC_ENTRIES.put(id(p), (p, facts, player))
        players.append(player)
    # The status names every seat by its name and number, and the page shows "Your turn",
    # "your clock" and "Your answer is needed" to the seat whose screen it is (.you-mark
    # under the seat marker's data-me). Each list holds only what the status prints, so its
    # key stays small.
    return {
        "players": players,
        "turn_of": _name(names, turn, None) if turn is not None else None,
        "deciders": [{"seat": s, "name": _name(names, s, None)} for s in to_decide],
        "clocks": [{"seat": p["seat"], "deadline": p["deadline"], "paused": p["paused"]}
                   for p in players if p["deadline"] or p["paused"]],
        "armed": [{"seat": p.get("seat"), "name": p["name"], "sets": p.get("sets"),
                   "checkpoint_turn": p.get("checkpoint_turn"),
                   "opponent_turns_remaining": p.get("opponent_turns_remaining")}
                  for p in players if p.get("armed")],
    }


def _zones(player: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A player's zones as the board shows them: each with its set's name and size."""
    zones = []
    for z in player.get("zones") or []:
        colour = COLOURS.get(z.get("colour"))
        zones.append({**z, "name": colour_name(z.get("colour")),
                      "bg": colour.bg if colour else "#888",
                      "set_size": colour.set_size if colour else None,
                      "cards": z.get("cards") or [], "upgrades": z.get("upgrades") or []})
    return zones


def _movable(player: Mapping[str, Any] | None,
             board_options: Mapping[int, list[dict[str, str]]]) -> list[dict[str, Any]]:
    """The cards on a player's own board with a free move offered (wilds and upgrades, set by
    set), each with its moves: the rearrange forms of that player's hand panel."""
    if player is None or not board_options:
        return []
    return [{**c, "options": board_options[c["id"]]}
            for z in player.get("zones") or []
            for c in (z.get("cards") or []) + (z.get("upgrades") or [])
            if c["id"] in board_options]


def board_context(view: Mapping[str, Any], *, me: int | None, names: Sequence[str],
                  seats: Sequence[Mapping[str, Any]],
                  public: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Template data for the Chudopoly board as seat `me` (None: a spectator) sees it.

    `seats[i]` carries the public facts the site knows about engine seat i: "is_bot",
    "is_away", the ISO "deadline" of the decision it owes, if any, and "paused" ("m:ss" left on
    its turn clock while answers are owed). `public` is `board_public`'s for the same moment,
    shared by every viewer: only this seat's own parts (its board's moves, "is_me", its hand
    and decisions) are built here.
    """
    if public is None:
        public = board_public(view, names=names, seats=seats)
    legal = list(view.get("legal") or []) if me is not None else []
    # The cards by id label card plays and price payments: a seat that can only scoop, end
    # its turn or answer a charge (most seats after most moves) reads none.
    cards = (_cards_by_id(view) if view.get("accept_pay")
             or any(a.get("type") not in _LABELLED_WITHOUT_CARDS for a in legal) else {})

    # Legal actions grouped by where the page offers them.
    hand_options: dict[int, list[dict[str, str]]] = {}
    board_options: dict[int, list[dict[str, str]]] = {}
    swaps, responds, pays, discards, others = [], [], [], [], []
    for action in legal:
        t = action.get("type")
        label = action_label(action, cards=cards, view=view, names=names, me=me)
        if t in ("bank", "place", "action"):
            hand_options.setdefault(action.get("card"), []).append(_option(action, label))
        elif t == "move":
            board_options.setdefault(action.get("card"), []).append(_option(action, label))
        elif t == "swap":
            swaps.append(_option(action, label))
        elif t == "respond":
            responds.append(_option(action, label))
        elif t == "pay":
            pays.append(action)
        elif t == "discard":
            discards.append(action)
        else:
            others.append((t, _option(action, label)))

    turn = view.get("turn")
    # Every player as the public board shows them; this seat's own entry is a copy marked
    # "is_me".
    players = list(public["players"])
    my_public = None
    if me is not None:
        for i, p in enumerate(players):
            if p.get("seat") == me:
                my_public = p
                players[i] = {**p, "is_me": True}
                break
    movable = _movable(my_public, board_options)

    # What I owe, if anything.
    pending = view.get("pending")
    owed_amount = None
    pending_text = None
    if pending:
        pending_text = describe_pending(pending, names=names, me=me, view=view)
        owed_amount = pending.get("amount")
    payable: list[dict[str, Any]] = []
    # One screen to pay: a charge I answer as its target becomes the payment form itself
    # ("Pay with these cards" accepts and pays at once); OPSEC stays a button beside it.
    accept_pay = None
    entry = next((t for t in pending.get("targets") or []
                  if t.get("seat") == me and t.get("responder") == me
                  and t.get("state") == "respond"), None) if pending else None
    # My own board, read only to pay (or to tell what I could pay with).
    mine = (next((p for p in view.get("players") or [] if p.get("seat") == me), {})
            if pays or entry is not None else {})
    if pays:
        payable = _payable(mine)
        if owed_amount is None:
            owed_amount = _owed_from_legal(pays, cards)
    pay_suggestions = (_suggestions(pays, cards=cards, view=view, names=names, me=me)
                       if pays else [])
    # Only a seat that answers a charge asks what it could pay with.
    my_cards = _payable(mine) if entry is not None else []
    if (not pays and entry is not None and int(entry.get("depth") or 0) % 2 == 0
            and (pending or {}).get("kind") in PAYMENT_KINDS and my_cards):
        accept = next((o for o in responds if '"accept"' in o["json"]
                       and json.loads(o["json"]).get("target") == me), None)
        if accept is not None:
            responds = [o for o in responds if o is not accept]
            accept_pay = compact_json({"type": "accept_pay", "target": me})
            payable = my_cards
            owed_amount = pending.get("amount") if pending else None
            # One-tap payments on the answer screen: accept and pay with these cards.
            pay_suggestions = _suggestions(list(view.get("accept_pay") or []), cards=cards,
                                           view=view, names=names, me=me)
    elif entry is not None and (pending or {}).get("kind") in PAYMENT_KINDS and not my_cards:
        # Nothing on the table to pay with: accepting settles the debt (REFERENCE §5).
        responds = [{**o, "label": "Accept (you have nothing to pay with)"}
                    if '"accept"' in o["json"] else o for o in responds]
    discard_count = 0
    if discards:
        discard_count = max(len(view.get("hand") or []) - HAND_LIMIT,
                            len(discards[0].get("cards", [])))

    hand = [{**c, "options": hand_options.get(c["id"], [])} for c in view.get("hand") or []]
    return {
        "players": players, "hand": hand, "turn": turn,
        # What the players partial shows: the public entries alone, the same list for every
        # seat of a snapshot, so that partial is one render for them all.
        "public_players": public["players"],
        # The free rearranges of this seat's own board (its hand panel's forms), and how many
        # are left while there are some to make.
        "movable": movable,
        "rearranges_left": view.get("rearranges_left") if movable or swaps else None,
        # The status's who-is-who, alike for every seat (board_public).
        "turn_of": public["turn_of"], "deciders": public["deciders"], "clocks": public["clocks"],
        "my_turn": turn is not None and turn == me,
        # What the hand and decision partials read only on this seat's own turn (the hint, the
        # end-turn nudge): the plays left and the hand to discard from, None otherwise, so
        # another seat's play leaves what those partials read as it was (their renders are
        # shared by what they read: games/platform/partial_reads.py).
        "my_plays_left": view.get("plays_left") if turn is not None and turn == me else None,
        "discard_hand": hand if discards else None,
        "responds": responds, "swaps": swaps,
        "pays": bool(pays) or accept_pay is not None, "accept_pay": accept_pay,
        "payable": payable, "owed_amount": owed_amount,
        "pay_suggestions": pay_suggestions,
        "discards": bool(discards), "discard_count": discard_count,
        "end_turn": next((o for t, o in others if t == "end_turn"), None),
        "scoop": next((o for t, o in others if t == "scoop"), None),
        "pending": pending, "pending_text": pending_text,
        "armed": public["armed"],
        "contested": view.get("contested"), "contest_laps": view.get("contest_laps"),
        "contest_bar": view.get("contest_bar"),
    }


def _suggestions(pays: list[Mapping[str, Any]], *, cards: Mapping[int, Mapping[str, Any]],
                 view: Mapping[str, Any], names: Sequence[str], me: int | None
                 ) -> list[dict[str, str]]:
    """The three cheapest legal payments, as one-tap buttons."""
    return [
        _option(a, action_label(a, cards=cards, view=view, names=names, me=me))
        for a in sorted(pays, key=lambda a: sum(cards.get(c, {}).get("value", 0)
                                                 for c in a.get("cards", [])))[:3]
    ]


def _payable(mine: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The cards a player may pay with: bank, then each zone's cards and upgrades."""
    payable = list(mine.get("bank") or [])
    for z in mine.get("zones") or []:
        payable += [{**c, "colour": z.get("colour")} for c in z.get("cards") or []]
        payable += [{**c, "colour": z.get("colour"), "upgrade": True}
                    for c in z.get("upgrades") or []]
    return payable


def _owed_from_legal(pays: list[Mapping[str, Any]], cards: Mapping[int, Mapping[str, Any]]
                     ) -> int | None:
    totals = [sum(cards.get(c, {}).get("value", 0) for c in a.get("cards", [])) for a in pays]
    return min(totals) if totals else None


def describe_pending(pending: Mapping[str, Any], *, names: Sequence[str], me: int | None,
                     view: Mapping[str, Any]) -> str:
    kind = pending.get("kind") or ""
    source = pending.get("source")
    who = _name(names, source, me, subject=True)
    amount = pending.get("amount")
    take = (pending.get("take") or {}).get("name")
    give = (pending.get("give") or {}).get("name")
    what = {
        "rent": f"charged rent{f' of {amount}M' if amount else ''}"
                f"{' on ' + colour_name(pending.get('colour')) if pending.get('colour') else ''}",
        "finance_office": "called in 5M with Finance Office",
        "roll_call": "called Roll Call: 2M each",
        "midnight_requisition": f"played Midnight Requisition to take {take}",
        "chud": f"played THE CHUD CARD to take {take}",
        "tdy_orders": f"played TDY Orders to swap {give} for {take}",
        "inspector_general": "played Inspector General to seize the "
                             f"{colour_name(pending.get('colour'))} set",
    }.get(kind)
    if what is None:
        action = ACTIONS.get(kind)
        what = f"played {action.name}" if action else "played an action"
    targets = pending.get("targets") or []
    whom = join_words([_name(names, t.get("seat"), me) for t in targets])
    preposition = "from" if kind in ("midnight_requisition", "chud", "inspector_general") else (
        "with" if kind == "tdy_orders" else "against")
    line = f"{who} {what}" + (f" {preposition} {whom}" if whom else "") + "."
    # Who played OPSEC in each chain: an odd count is the target's block, an even one the
    # source's counter to it.
    for t in targets:
        depth = int(t.get("depth") or 0)
        if depth <= 0:
            continue
        target_name = _name(names, t.get("seat"), me, subject=True)
        if depth % 2 == 1:
            again = " again" if depth > 1 else ""
            line += f" {target_name} blocked it{again} with OPSEC."
        else:
            whose = _possessive(names, t.get("seat"), me)
            line += f" {who} countered {whose} OPSEC with another."
    waiting = []
    for t in targets:
        responder = t.get("responder")
        if responder is None:
            continue
        if responder == me:
            if t.get("state") == "pay":
                line += " You must pay."
            elif int(t.get("depth") or 0) % 2 == 1:
                line += " Counter it with your own OPSEC, or let the block stand."
            else:
                line += " Your answer is needed."
        else:
            doing = " (to pay)" if t.get("state") == "pay" else ""
            waiting.append(_name(names, responder, me) + doing)
    if waiting:
        line += f" Waiting on {join_words(list(dict.fromkeys(waiting)))}."
    return line


def join_words(items: Sequence[str]) -> str:
    """"Ann", "Ann and Bea", "Ann, Bea and you"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


