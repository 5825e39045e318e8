"""`apply(state, seat, action)`: validate against the legal-action generator, then resolve.

The input state is never modified; the result is a new state (version + 1) and the events
the action produced. Anything the generator would not produce is refused with
`IllegalAction(reason)`, and the refusal changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import legal
from .board import SET_SIZE, complete_colours, find_property, find_upgrade, rent_for
from .cards import COLOURS, Catalogue
from .payment import execute_payment, owed_entry, payment_problem
from .receipt import merge_upgrades, receive_property, settle_upgrades
from .state import (
    HAND_LIMIT,
    PCS_DRAW,
    PLAYS_PER_TURN,
    SWAP_COST,
    Tx,
    active_seats,
    catalogue_for,
    hand_total,
    in_colour_order,
    is_id,
    known_ordered,
    zone_of,
)
from .turns import Applied, draw, finish_turn, new_game, pass_turn
from .winning import completed, finish, sync_contest, sync_sets

__all__ = ["Applied", "IllegalAction", "apply", "replay"]

# Types whose check only finds the action among the generator's candidates (payments and
# discards are judged by their rules instead, and are always checked in full).
_LISTED_TYPES = frozenset(("bank", "place", "action", "move", "swap", "respond", "end_turn",
                           "scoop"))
PAYMENT_KINDS = frozenset(("rent", "finance_office", "roll_call"))
FINANCE_OFFICE_AMOUNT = 5
ROLL_CALL_AMOUNT = 2


class IllegalAction(ValueError):
    """A refused action; `reason` is the sentence to show the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def apply(state: dict, seat: int, action: Mapping[str, Any]) -> Applied:
    """Apply one action by `seat`. Raises IllegalAction; never touches `state`."""
    if state["phase"] == "finished":
        raise IllegalAction("Game is already finished")
    if not is_id(seat) or not 0 <= seat < len(state["players"]):
        raise IllegalAction("No such seat")
    if not state["players"][seat]["active"]:
        raise IllegalAction("You have scooped and are out of this game")
    if type(action) is not dict and not isinstance(action, Mapping):
        raise IllegalAction("An action must be an object with a type")
    typ = action.get("type")
    spec = _TYPES.get(typ) if type(typ) is str else None
    if spec is None:
        if typ == "draw":
            raise IllegalAction("Cards are drawn automatically at the start of your turn")
        raise IllegalAction("Unknown action type")
    check, do = spec
    shown = legal.shown_record(state, seat, action) if typ in _LISTED_TYPES else None
    if shown is not None:
        # Listed for this very state and seat by the generator `check` would ask again, and
        # unchanged since: a fresh copy of its record, what was listed (never the caller's
        # object, which it may change).
        canonical = shown
    else:
        try:
            canonical = check(state, seat, action)
        except (TypeError, KeyError, ValueError, IndexError) as exc:
            if isinstance(exc, IllegalAction):
                raise
            # Untrusted input of an unexpected shape (a list where an id belongs, ...).
            raise IllegalAction("That action is malformed") from None
    tx = Tx(in_colour_order(state), catalogue_for(state))
    do(tx, seat, canonical)
    tx.s["version"] = state["version"] + 1
    known_ordered(tx.s)  # zones are created in colour order (zone_of), never reordered
    return Applied(tx.s, tx.events)


def replay(*, ruleset: dict | None, seats: int, seed: int, actions: list,
           shuffle_seats: bool = False) -> dict:
    """Rebuild a game from its seed and its action log ([[seat, action], ...])."""
    state = new_game(ruleset=ruleset, seats=seats, seed=seed, shuffle_seats=shuffle_seats)
    for seat, action in actions:
        state = apply(state, seat, action).state
    return state


# ---- validation: every check asks the generator ---------------------------------------------

def _require_turn(state: dict, seat: int, phase_error: str = "Cannot play now") -> None:
    if state["turn"] != seat:
        raise IllegalAction("Not your turn")
    if state["phase"] == "respond":
        raise IllegalAction("Resolve pending action first")
    if state["phase"] == "discard":
        raise IllegalAction("Discard down to 7 cards first")
    if state["phase"] != "play":
        raise IllegalAction(phase_error)


def _match(action: Mapping[str, Any], candidates: list[dict]) -> dict | None:
    """The generated candidate equal to `action`, values of the same JSON type (1.0 == 1 and
    True == 1 in Python, but they are not the same action)."""
    for cand in candidates:
        if cand == action:
            for k, v in cand.items():
                if type(action[k]) is not type(v):
                    return None
            return cand
    return None


def _check_card_play(state: dict, seat: int, action: Mapping[str, Any]) -> dict:
    _require_turn(state, seat)
    if state["plays_left"] <= 0:
        raise IllegalAction("No plays remaining")
    cid = action.get("card")
    if not is_id(cid) or cid not in state["players"][seat]["hand"]:
        raise IllegalAction("That card is not in your hand")
    cat = catalogue_for(state)
    typ = action["type"]
    if typ == "bank":
        candidates = legal.bank_plays(cat, cid)
    elif typ == "place":
        candidates = legal.place_plays(state, cat, seat, cid)
    else:
        target = action.get("target")
        candidates = legal.action_plays(state, cat, seat, cid,
                                        target if is_id(target) else None)
    found = _match(action, candidates)
    if found is None:
        raise IllegalAction(_explain_play(state, cat, seat, action))
    return found


def _check_move(state: dict, seat: int, action: Mapping[str, Any]) -> dict:
    _require_turn(state, seat, "Cannot rearrange now")
    if state["rearranges_left"] <= 0:
        raise IllegalAction("No free rearranges left this turn — end your turn to reset them")
    cid = action.get("card")
    cat = catalogue_for(state)
    p = state["players"][seat]
    if not is_id(cid) or (find_property(p, cid) is None and find_upgrade(p, cid) is None):
        raise IllegalAction("Card not found in your properties")
    found = _match(action, legal.moves(state, cat, seat, only=cid))
    if found is None:
        raise IllegalAction(_explain_move(state, cat, seat, action))
    return found


def _check_swap(state: dict, seat: int, action: Mapping[str, Any]) -> dict:
    _require_turn(state, seat, "Cannot rearrange now")
    left = state["rearranges_left"]
    if left <= 0:
        raise IllegalAction("No free rearranges left this turn — end your turn to reset them")
    if left < SWAP_COST:
        raise IllegalAction("A swap costs two free rearranges and you have one left")
    cards = action.get("cards")
    if not isinstance(cards, list | tuple) or len(cards) != 2 or not all(map(is_id, cards)):
        raise IllegalAction("Choose two of your wild properties to swap")
    a, b = cards
    if a == b:
        raise IllegalAction("Choose two different cards")
    p = state["players"][seat]
    if find_upgrade(p, a) is not None or find_upgrade(p, b) is not None:
        raise IllegalAction("An Upgrade moves on its own")
    ca, cb = find_property(p, a), find_property(p, b)
    if ca is None or cb is None:
        raise IllegalAction("Both cards must be on your own board")
    if ca == cb:
        raise IllegalAction("Both cards are in the same set")
    canonical = {"type": "swap", "cards": sorted((a, b))}
    if set(action) != {"type", "cards"}:
        raise IllegalAction("Unexpected field in swap")
    cat = catalogue_for(state)
    if canonical not in legal.swaps(state, cat, seat):
        raise IllegalAction("Each card must be legal in the other's colour")
    return canonical


def _check_respond(state: dict, seat: int, action: Mapping[str, Any]) -> dict:
    if state["phase"] != "respond":
        raise IllegalAction("No pending action")
    answer = action.get("answer")
    if answer not in ("accept", "opsec"):
        raise IllegalAction("Invalid response")
    chains = [t["seat"] for t in state["pending"]["targets"]
              if t["responder"] == seat and t["state"] == "respond"]
    if not chains:
        if owed_entry(state, seat) is not None:
            raise IllegalAction("You accepted: choose cards to pay with")
        raise IllegalAction("Not your turn to respond")
    if set(action) - {"type", "answer", "target"}:
        raise IllegalAction("Unexpected field in response")
    target = action.get("target")
    if "target" not in action:
        if len(chains) > 1:
            raise IllegalAction("Say which player's charge you are answering")
        target = chains[0]
    canonical = {"type": "respond", "answer": answer, "target": target}
    found = _match(canonical, legal.responses(state, seat, answer))
    if found is None:
        if not is_id(target) or target not in chains:
            raise IllegalAction("Not your turn to respond")
        raise IllegalAction(legal.opsec_problem(state, seat) or "Invalid response")
    return found


def _check_pay(state: dict, seat: int, action: Mapping[str, Any]) -> dict:
    if set(action) != {"type", "cards"}:
        raise IllegalAction("Select cards to pay with")
    problem = payment_problem(state, seat, action.get("cards"))
    if problem:
        raise IllegalAction(problem)
    return {"type": "pay", "cards": list(action["cards"])}


def _check_discard(state: dict, seat: int, action: Mapping[str, Any]) -> dict:
    if set(action) != {"type", "cards"}:
        raise IllegalAction("Choose the cards to discard")
    problem = legal.discard_problem(state, seat, action.get("cards"))
    if problem:
        raise IllegalAction(problem)
    return {"type": "discard", "cards": list(action["cards"])}


def _check_end_turn(state: dict, seat: int, action: Mapping[str, Any]) -> dict:
    _require_turn(state, seat)
    if set(action) != {"type"}:
        raise IllegalAction("Unexpected field in end_turn")
    return {"type": "end_turn"}


def _check_scoop(state: dict, seat: int, action: Mapping[str, Any]) -> dict:
    if set(action) != {"type"}:
        raise IllegalAction("Unexpected field in scoop")
    return {"type": "scoop"}


# ---- reasons for refused plays (never decides legality; the generator already has) ----------

def _colour_name(colour: Any) -> str:
    return COLOURS[colour].name if colour in COLOURS else str(colour)


def _target_problem(state: dict, seat: int, target: Any) -> str | None:
    players = state["players"]
    if not is_id(target) or not 0 <= target < len(players) or target == seat \
            or not players[target]["active"]:
        return "Invalid target"
    return None


def _explain_play(state: dict, cat: Catalogue, seat: int, action: Mapping[str, Any]) -> str:
    cid = action["card"]
    kind, key = cat.kind[cid], cat.key[cid]
    typ = action["type"]
    colour = action.get("colour")
    p = state["players"][seat]
    if typ == "bank":
        if kind in ("property", "wild"):
            return "Properties cannot be banked"
        return "Unexpected field for banking"
    if typ == "place":
        if kind not in ("property", "wild"):
            return "Not a property card"
        if colour is None:
            return "Choose a color for the wild property"
        if colour not in COLOURS:
            return "Invalid property color"
        if colour not in cat.colours[cid]:
            if kind == "wild":
                return f"Wild cannot be placed on {_colour_name(colour)}"
            return f"That property belongs in {_colour_name(cat.colours[cid][0])}"
        zone = p["zones"].get(colour, ())
        if len(zone) >= SET_SIZE[colour]:
            return f"{_colour_name(colour)} already holds a full set ({SET_SIZE[colour]})"
        return "Unexpected field for placing"
    if kind not in ("action", "rent"):
        return "Not an action/rent card"
    target = action.get("target")
    pure = state["ruleset"]["pureSetRequired"]
    if key == "opsec":
        return "OPSEC can only be played in response to an action"
    if kind == "rent":
        if colour is None:
            return "Choose a color to charge rent for"
        if colour not in COLOURS:
            return "Invalid property color"
        if key == "rent_pair" and colour not in cat.colours[cid]:
            return f"This rent card cannot be used for {_colour_name(colour)}"
        if colour not in p["zones"]:
            return "You have no properties of that color"
        if key == "rent_any":
            if target is None:
                return "Choose a player to charge"
            return _target_problem(state, seat, target) or "Unexpected field for rent"
        if len(active_seats(state)) < 2:
            return "No one to charge"
        return "Unexpected field for rent"
    if key == "finance_office" and target is None:
        return "Choose a player to collect from"
    if key == "inspector_general":
        if target is None or colour is None:
            return "Choose a player and a complete set to seize"
        problem = _target_problem(state, seat, target)
        if problem:
            return problem
        return "That set is not complete"
    if key in ("midnight_requisition", "chud"):
        if target is None or action.get("take") is None:
            if key == "chud":
                return "Choose a player and ANY property to commandeer"
            return "Choose a player and a property to requisition"
        problem = _target_problem(state, seat, target)
        if problem:
            return problem
        if key == "chud":
            return "Property not found on target"
        return "Cannot steal from a complete set or card not found"
    if key == "tdy_orders":
        take, give = action.get("take"), action.get("give")
        if target is None or take is None or give is None:
            return "Choose your property and a target property to swap"
        problem = _target_problem(state, seat, target)
        if problem:
            return problem
        mine = find_property(p, give) if is_id(give) else None
        theirs = find_property(state["players"][target], take) if is_id(take) else None
        if mine is None or theirs is None:
            return "Selected property is no longer available"
        if mine in complete_colours(cat, p, pure):
            return "You cannot trade a card out of one of your complete sets"
        return "TDY Orders cannot touch a complete set"
    if key in ("upgrade", "foc"):
        if colour is None:
            return "Choose a complete set to upgrade" if key == "upgrade" else \
                "Choose a set for FOC"
        if colour not in complete_colours(cat, p, pure):
            return "Set must be complete to add Upgrade" if key == "upgrade" else \
                "Set must be complete"
        kinds = [cat.key[u] for u in p["upgrades"].get(colour, ())]
        if key == "upgrade":
            return "Set already has an Upgrade" if "upgrade" in kinds else "Unexpected field"
        if "upgrade" not in kinds:
            return "Must have Upgrade before FOC"
        return "Already at FOC" if "foc" in kinds else "Unexpected field"
    if target is not None:
        problem = _target_problem(state, seat, target)
        if problem:
            return problem
    return "That play is not legal now"


def _explain_move(state: dict, cat: Catalogue, seat: int, action: Mapping[str, Any]) -> str:
    cid = action["card"]
    colour = action.get("colour")
    p = state["players"][seat]
    if colour not in COLOURS:
        return "Invalid color"
    up_from = find_upgrade(p, cid)
    if up_from is not None:
        kind = cat.key[cid]
        there = [cat.key[u] for u in p["upgrades"].get(colour, ())]
        if up_from == colour:
            return "Already on that set"
        if colour not in complete_colours(cat, p, state["ruleset"]["pureSetRequired"]):
            return f"{_colour_name(colour)} is not a complete set"
        if kind in there:
            return f"{_colour_name(colour)} already has " + (
                "an FOC" if kind == "foc" else "an Upgrade")
        if kind == "foc":
            return "FOC needs an Upgrade on that set first"
        return "Move the FOC off that set first"
    here = find_property(p, cid)
    if here == colour:
        return "Already in that set"
    if not cat.is_wild[cid]:
        return "Only wild properties can be moved between sets"
    if colour not in cat.colours[cid]:
        return f"This wild cannot go on {_colour_name(colour)}"
    if len(p["zones"].get(colour, ())) >= SET_SIZE[colour]:
        return f"{_colour_name(colour)} already holds a full set ({SET_SIZE[colour]})"
    return "Unexpected field in move"


# ---- resolution -----------------------------------------------------------------------------

def _do_bank(tx: Tx, seat: int, a: dict) -> None:
    cid = a["card"]
    p = tx.p(seat)
    p["hand"].remove(cid)
    p["bank"].append(cid)
    tx.s["plays_left"] -= 1
    tx.emit({"type": "bank", "seat": seat, "card": tx.cat.card(cid), "value": tx.cat.value[cid],
             "from": "hand", "to": "bank"})


def _do_place(tx: Tx, seat: int, a: dict) -> None:
    cid, colour = a["card"], a["colour"]
    before = completed(tx, seat)
    p = tx.p(seat)
    p["hand"].remove(cid)
    zone_of(p["zones"], colour).append(cid)
    tx.s["plays_left"] -= 1
    tx.emit({"type": "place", "seat": seat, "card": tx.cat.card(cid, colour), "colour": colour,
             "from": "hand", "to": colour})
    sync_sets(tx, seat, before)


def _start_pending(tx: Tx, seat: int, cid: int, kind: str, targets: list[int],
                   **details: Any) -> None:
    s = tx.s
    s["pending"] = {
        "kind": kind, "source": seat, "card": cid, "amount": None, **details,
        "targets": [{"seat": t, "depth": 0, "responder": t, "state": "respond"}
                    for t in targets],
    }
    s["phase"] = "respond"


def _do_action(tx: Tx, seat: int, a: dict) -> None:
    s = tx.s
    cat = tx.cat
    cid = a["card"]
    key = cat.key[cid]
    p = tx.p(seat)
    p["hand"].remove(cid)
    s["plays_left"] -= 1
    if key not in ("upgrade", "foc"):
        tx.discard().append(cid)
    event = {"type": "play_action", "seat": seat, "card": cat.card(cid), "key": key,
             "from": "hand", "to": "discard" if key not in ("upgrade", "foc") else a["colour"]}
    event.update((k, v) for k, v in a.items() if k not in ("type", "card"))
    tx.emit(event)
    target = a.get("target")
    others = legal.opponents(s, seat)
    if key == "pcs_orders":
        draw(tx, seat, PCS_DRAW, "pcs_orders")
        s["hand_snapshot"] = hand_total(s)
        if s["ruleset"]["passGoRestartsTurn"]:
            s["plays_left"] = PLAYS_PER_TURN
            tx.emit({"type": "turn_restart", "seat": seat, "plays_left": PLAYS_PER_TURN})
    elif key == "surge_ops":
        s["surge"] += 1
        tx.emit({"type": "surge", "seat": seat, "stack": s["surge"],
                 "multiplier": 2 ** s["surge"]})
    elif key in ("rent_pair", "rent_any"):
        colour = a["colour"]
        multiplier = 2 ** s["surge"]
        s["surge"] = 0
        amount = rent_for(cat, p, colour) * multiplier
        targets = [target] if key == "rent_any" else others
        _start_pending(tx, seat, cid, "rent", targets, amount=amount, colour=colour,
                       multiplier=multiplier)
        tx.emit({"type": "charge", "seat": seat, "kind": "rent", "targets": targets,
                 "amount": amount, "colour": colour, "multiplier": multiplier})
    elif key == "finance_office":
        _start_pending(tx, seat, cid, key, [target], amount=FINANCE_OFFICE_AMOUNT, multiplier=1)
        tx.emit({"type": "charge", "seat": seat, "kind": key, "targets": [target],
                 "amount": FINANCE_OFFICE_AMOUNT, "multiplier": 1})
    elif key == "roll_call":
        _start_pending(tx, seat, cid, key, others, amount=ROLL_CALL_AMOUNT, multiplier=1)
        tx.emit({"type": "charge", "seat": seat, "kind": key, "targets": others,
                 "amount": ROLL_CALL_AMOUNT, "multiplier": 1})
    elif key == "inspector_general":
        _start_pending(tx, seat, cid, key, [target], colour=a["colour"])
    elif key in ("midnight_requisition", "chud"):
        colour = find_property(s["players"][target], a["take"])
        _start_pending(tx, seat, cid, key, [target], take=a["take"], colour=colour)
    elif key == "tdy_orders":
        _start_pending(tx, seat, cid, key, [target], take=a["take"], give=a["give"])
    elif key in ("upgrade", "foc"):
        zone_of(p["upgrades"], a["colour"]).append(cid)
        tx.emit({"type": "upgrade", "seat": seat, "card": cat.card(cid, a["colour"]),
                 "colour": a["colour"],
                 "upgrade": "house" if key == "upgrade" else "foc", "from": "hand",
                 "to": a["colour"]})


def _entry(tx: Tx, target: int) -> dict:
    return next(t for t in tx.s["pending"]["targets"] if t["seat"] == target)


def _finish_entry(tx: Tx, target: int) -> None:
    s = tx.s
    if s["phase"] == "finished" or s["pending"] is None:
        return
    s["pending"]["targets"] = [t for t in s["pending"]["targets"] if t["seat"] != target]
    if not s["pending"]["targets"]:
        s["pending"] = None
        s["phase"] = "play"


def _do_respond(tx: Tx, seat: int, a: dict) -> None:
    s = tx.s
    pending = s["pending"]
    entry = _entry(tx, a["target"])
    kind = pending["kind"]
    if a["answer"] == "opsec":
        p = tx.p(seat)
        card = legal.opsec_in_hand(tx.cat, p)
        p["hand"].remove(card)
        tx.discard().append(card)
        if s["ruleset"]["counterCostsPlay"] and s["turn"] == seat:
            s["plays_left"] -= 1
        entry["depth"] += 1
        entry["responder"] = entry["seat"] if seat == pending["source"] else pending["source"]
        tx.emit({"type": "opsec", "seat": seat, "card": tx.cat.card(card),
                 "against": entry["responder"],
                 "target": entry["seat"], "depth": entry["depth"], "kind": kind,
                 "from": "hand", "to": "discard"})
        return
    if entry["depth"] % 2 == 1:
        tx.emit({"type": "blocked", "seat": entry["seat"], "source": pending["source"],
                 "kind": kind, "depth": entry["depth"]})
        _finish_entry(tx, entry["seat"])
        return
    tx.emit({"type": "accept", "seat": seat, "source": pending["source"], "kind": kind})
    if kind in PAYMENT_KINDS:
        payer = s["players"][seat]
        if payer["bank"] or payer["zones"] or payer["upgrades"]:
            entry["state"] = "pay"
            return
        tx.emit({"type": "insolvent", "seat": seat, "to": pending["source"],
                 "amount": pending["amount"]})
        _finish_entry(tx, seat)
        return
    _resolve_steal(tx, pending, entry["seat"])
    _finish_entry(tx, entry["seat"])


def _resolve_steal(tx: Tx, pending: dict, target: int) -> None:
    s = tx.s
    source = pending["source"]
    kind = pending["kind"]
    before_src, before_tgt = completed(tx, source), completed(tx, target)
    if kind == "inspector_general":
        colour = pending["colour"]
        if colour not in before_tgt:
            tx.emit({"type": "fizzled", "seat": source, "target": target, "kind": kind})
            return
        victim = tx.p(target)
        cards = victim["zones"].pop(colour)
        ups = victim["upgrades"].pop(colour, [])
        moves = [[c, colour, receive_property(tx, source, c, colour)] for c in cards]
        merge_upgrades(tx, source, colour, ups)
        tx.emit({"type": "set_stolen", "seat": source, "from": target, "colour": colour,
                 "cards": [tx.cat.card(c, to) for c, _, to in moves],
                 "upgrades": [tx.cat.card(u) for u in ups], "moves": moves})
    elif kind in ("midnight_requisition", "chud"):
        cid = pending["take"]
        colour = find_property(s["players"][target], cid)
        if colour is None:
            tx.emit({"type": "fizzled", "seat": source, "target": target, "kind": kind})
            return
        victim = tx.p(target)
        _remove_from_zone(victim, colour, cid)
        dest = receive_property(tx, source, cid, colour)
        tx.emit({"type": "steal", "seat": source, "from": target, "card": tx.cat.card(cid, dest),
                 "kind": kind, "from_colour": colour, "to": dest})
    else:  # tdy_orders
        take, give = pending["take"], pending["give"]
        theirs = find_property(s["players"][target], take)
        mine = find_property(s["players"][source], give)
        if theirs is None or mine is None:
            tx.emit({"type": "fizzled", "seat": source, "target": target, "kind": kind})
            return
        _remove_from_zone(tx.p(target), theirs, take)
        _remove_from_zone(tx.p(source), mine, give)
        got = receive_property(tx, source, take, theirs)
        gave = receive_property(tx, target, give, mine)
        tx.emit({"type": "tdy_swap", "seat": source, "target": target,
                 "took": tx.cat.card(take, got), "gave": tx.cat.card(give, gave),
                 "took_to": got, "gave_to": gave,
                 "moves": [[take, theirs, got], [give, mine, gave]]})
    settle_upgrades(tx, target)
    settle_upgrades(tx, source)
    if kind == "tdy_orders":
        sync_sets(tx, source, before_src, by=target)
        sync_sets(tx, target, before_tgt, by=source)
    else:
        sync_sets(tx, target, before_tgt, by=source)
        sync_sets(tx, source, before_src)


def _remove_from_zone(p: dict, colour: str, cid: int) -> None:
    zone = p["zones"][colour]
    zone.remove(cid)
    if not zone:
        del p["zones"][colour]


def _do_pay(tx: Tx, seat: int, a: dict) -> None:
    pending = tx.s["pending"]
    if a["cards"]:
        execute_payment(tx, seat, pending["source"], a["cards"], pending["amount"],
                        pending["kind"])
    else:
        tx.emit({"type": "insolvent", "seat": seat, "to": pending["source"],
                 "amount": pending["amount"]})
    _finish_entry(tx, seat)


def _do_move(tx: Tx, seat: int, a: dict) -> None:
    cid, colour = a["card"], a["colour"]
    p = tx.p(seat)
    tx.s["rearranges_left"] -= 1
    up_from = find_upgrade(p, cid)
    if up_from is not None:
        ups = p["upgrades"][up_from]
        ups.remove(cid)
        if not ups:
            del p["upgrades"][up_from]
        zone_of(p["upgrades"], colour).append(cid)
        tx.emit({"type": "move_upgrade", "seat": seat, "card": tx.cat.card(cid, colour),
                 "from": up_from, "to": colour})
        return
    before = completed(tx, seat)
    here = find_property(p, cid)
    _remove_from_zone(p, here, cid)
    zone_of(p["zones"], colour).append(cid)
    tx.emit({"type": "move", "seat": seat, "card": tx.cat.card(cid, colour), "from": here,
             "to": colour, "forced": False})
    settle_upgrades(tx, seat)
    sync_sets(tx, seat, before)


def _do_swap(tx: Tx, seat: int, a: dict) -> None:
    x, y = a["cards"]
    before = completed(tx, seat)
    p = tx.p(seat)
    cx, cy = find_property(p, x), find_property(p, y)
    zx, zy = p["zones"][cx], p["zones"][cy]
    zx[zx.index(x)] = y
    zy[zy.index(y)] = x
    tx.s["rearranges_left"] -= SWAP_COST
    tx.emit({"type": "swap", "seat": seat, "cards": [tx.cat.card(x, cy), tx.cat.card(y, cx)],
             "moves": [[x, cx, cy], [y, cy, cx]]})
    settle_upgrades(tx, seat)
    sync_sets(tx, seat, before)


def _do_end_turn(tx: Tx, seat: int, a: dict) -> None:
    excess = len(tx.s["players"][seat]["hand"]) - HAND_LIMIT
    if excess > 0:
        tx.s["phase"] = "discard"
        tx.emit({"type": "discard_required", "seat": seat, "count": excess})
        return
    finish_turn(tx)


def _do_discard(tx: Tx, seat: int, a: dict) -> None:
    p = tx.p(seat)
    for c in a["cards"]:
        p["hand"].remove(c)
        tx.discard().append(c)
    tx.emit({"type": "discard", "seat": seat, "cards": [tx.cat.card(c) for c in a["cards"]],
             "from": "hand", "to": "discard"})
    tx.s["phase"] = "play"
    finish_turn(tx)


def _do_scoop(tx: Tx, seat: int, a: dict) -> None:
    s = tx.s
    before = completed(tx, seat)
    p = tx.p(seat)
    gone = [u for ups in p["upgrades"].values() for u in ups]
    gone += p["hand"] + p["bank"] + [c for zone in p["zones"].values() for c in zone]
    tx.discard().extend(gone)
    p["upgrades"], p["hand"], p["bank"], p["zones"] = {}, [], [], {}
    sync_sets(tx, seat, before)
    p["active"] = False
    p["armed_at"] = None
    s["scooped"] = [*s["scooped"], seat]
    tx.emit({"type": "scoop", "seat": seat, "cards": [tx.cat.card(c) for c in gone],
             "to": "discard"})
    s["hand_snapshot"] = hand_total(s)
    pending = s["pending"]
    if pending is not None:
        if pending["source"] == seat:
            s["pending"] = None
        else:
            pending["targets"] = [t for t in pending["targets"] if t["seat"] != seat]
            if not pending["targets"]:
                s["pending"] = None
        if s["pending"] is None and s["phase"] == "respond":
            s["phase"] = "play"
    was_turn = s["turn"] == seat
    sync_contest(tx)
    alive = active_seats(s)
    if len(alive) <= 1:
        finish(tx, alive[0] if alive else None, "last_standing")
        return
    if was_turn:
        s["surge"] = 0
        tx.emit({"type": "turn_end", "seat": seat, "turn_number": s["turn_number"]})
        pass_turn(tx, seat)


_Check = Callable[[dict, int, Mapping[str, Any]], dict]
_Do = Callable[[Tx, int, dict], None]
_TYPES: dict[str, tuple[_Check, _Do]] = {
    "bank": (_check_card_play, _do_bank),
    "place": (_check_card_play, _do_place),
    "action": (_check_card_play, _do_action),
    "respond": (_check_respond, _do_respond),
    "pay": (_check_pay, _do_pay),
    "move": (_check_move, _do_move),
    "swap": (_check_swap, _do_swap),
    "discard": (_check_discard, _do_discard),
    "end_turn": (_check_end_turn, _do_end_turn),
    "scoop": (_check_scoop, _do_scoop),
}
