"""THE legal-action generator. Bots read it, views show it, and `apply` refuses anything it
would not produce: each action type has one generator function here, and `apply` validates an
incoming action by asking that same function (per card, per chain) for its candidates.

Payments and discards are the two selections too large to list in full: the generator lists a
bounded set of sensible selections, and any other selection is judged by the same rule
(`payment_problem`, `discard_problem`).
"""

from __future__ import annotations

from itertools import combinations, islice

from .board import SET_SIZE, complete_colours, zone_is_set
from .cards import Catalogue
from .payment import covering_selections, owed_entry
from .recent import Recent
from .state import HAND_LIMIT, catalogue_for, ids_list, in_colour_order

DISCARD_CAP = 36


def to_decide(state: dict) -> list[int]:
    """Seats owed a decision now (several at once while charges are answered)."""
    phase = state["phase"]
    if phase == "finished":
        return []
    if phase == "respond":
        return sorted({t["responder"] for t in state["pending"]["targets"]})
    return [state["turn"]]


def decision_key(state: dict, seat: int) -> list | None:
    """What `seat` is deciding now, as plain public data (None: nothing, the seat is out or the
    game is over). Equal keys at two versions mean the same decision: the same chains to answer
    or pay, or the same moment of one's own turn. Another seat's move leaves the key alone
    unless it touches this seat's decision (answering, paying or timing out another chain does
    not); any move of this seat's own changes it, so a move chosen on an older page is still
    meant when the key is unchanged, and a move sent twice never matches twice."""
    if state["phase"] == "finished":
        return None
    players = state["players"]
    if type(seat) is not int or not 0 <= seat < len(players) or not players[seat]["active"]:
        return None
    if state["phase"] == "respond":
        pending = state["pending"]
        chains = [[t["seat"], t["depth"], t["state"]] for t in pending["targets"]
                  if t["responder"] == seat]
        # Which charge: a card is played once a turn unless the deck was rebuilt from the pile.
        return ["respond", state["turn_number"], state["shuffle_count"], pending["source"],
                pending["card"], chains]
    if state["turn"] == seat:
        # Every move of a turn is the turn holder's own: each one is a new decision.
        return [state["phase"], state["version"]]
    return ["wait"]


def legal_actions(state: dict, seat: int) -> list[dict]:
    """Every action `seat` may take now (payments and discards: a bounded, sensible list)."""
    if state["phase"] == "finished":
        return []
    players = state["players"]
    if type(seat) is not int or not 0 <= seat < len(players) or not players[seat]["active"]:
        return []
    state = in_colour_order(state)  # the same list whatever key order storage handed back
    players = state["players"]
    out: list[dict] = []
    phase = state["phase"]
    cat = catalogue_for(state)
    if phase == "play":
        if state["turn"] == seat:
            if state["plays_left"] > 0:
                others = opponents(state, seat)
                is_property, kind = cat.is_property, cat.kind
                for cid in players[seat]["hand"]:
                    if is_property[cid]:
                        out += place_plays(state, cat, seat, cid)
                    else:
                        out.append({"type": "bank", "card": cid})
                        if kind[cid] != "money":
                            out += action_plays(state, cat, seat, cid, None, others)
            left = state["rearranges_left"]
            if left > 0:
                wilds = _wilds(cat, players[seat])
                out += moves(state, cat, seat, None, wilds)
                if left >= 2 and len(wilds) > 1:
                    out += swaps(state, cat, seat, wilds)
            out.append({"type": "end_turn"})
    elif phase == "respond":
        out.extend(responses(state, seat))
        entry = owed_entry(state, seat)
        if entry is not None:
            out.extend({"type": "pay", "cards": sel}
                       for sel in covering_selections(state, cat, seat, state["pending"]["amount"]))
    elif phase == "discard" and state["turn"] == seat:
        out.extend({"type": "discard", "cards": sel} for sel in discard_selections(state, seat))
    out.append({"type": "scoop"})
    return out



# The last list a shared view showed (view(..., shared=True), whose callers only read it):
# (state, seat, actions, records). `apply` takes one of those very action objects, for that
# very state and seat, as listed by the generator already instead of listing its candidates
# again (about a fifth of an apply), when it still reads as its record: a copy of the action
# made as it was listed, which no caller ever holds. A caller that changed the object it was
# shown (a bot editing it in place) is checked in full. `records` holds a dict per list the
# actions join, id of a listed object -> its record (the objects are held by those lists, so
# their ids are their own). States are values, never changed in place, so the same state
# object still lists the same actions.
_shown: tuple[dict | None, int | None, list[dict], list[dict[int, dict]]] = (
    None, None, [], [])


def records_of(actions: list[dict]) -> dict[int, dict]:
    """What each action is as listed, by the id of the object handed out: a copy of each (a
    swap's cards list too), kept apart from that object. Payments and discards have none
    (they are always checked in full)."""
    out: dict[int, dict] = {}
    for a in actions:
        t = a["type"]
        if t == "swap":
            out[id(a)] = {"type": "swap", "cards": a["cards"][:]}
        elif t != "pay" and t != "discard":
            out[id(a)] = {**a}
    return out


def shown_in_view(state: dict, seat: int, listed: list[dict]) -> None:
    """Remember `listed`: what a shared view of `state` showed `seat` as its legal actions,
    with their records (a turn's plays: kept with their lists, made as they were listed)."""
    global _shown
    records = _runs[2] if _runs[0] is listed else [records_of(listed)]
    _shown = (state, seat, listed, records)


def shown_record(state: dict, seat: int, action: object) -> dict | None:
    """A fresh copy of what the last shared view of `state` listed for `seat`, when `action`
    is one of the very objects it listed (identity: an equal action from anywhere else is
    checked in full) and still reads as it did then; else None."""
    shown_state, shown_seat, _, records = _shown
    if shown_state is not state or shown_seat != seat:
        return None
    key = id(action)
    for kept in records:
        record = kept.get(key)
        if record is not None:
            break
    else:
        return None
    if record != action:
        return None
    return {"type": "swap", "cards": record["cards"][:]} if record["type"] == "swap" \
        else {**record}


# ---- a turn's plays as shared views list them ----------------------------------------------

# Shared views' lists of a turn holder's plays, per position of the boards: (cat, pure, seat,
# the opponents, then the ids of the objects standing for each seat's zones and upgrades) ->
# (those objects, held so their ids are not reused while here; {card in hand: (its plays,
# their records), "rearrange" and "rearrange2": the same for the free rearranges with one or
# with two left}).
_TURN_PLAYS: Recent[tuple, tuple[tuple, dict]] = Recent(256)


def shared_turn_actions(state: dict, seat: int, boards: list) -> list[dict]:
    """`legal_actions(state, seat)` for the turn holder of a "play" phase, each card's plays
    and the free rearranges as the very lists (the same action objects) listed before for
    the same boards, for readers that never change an action (shared views).

    A turn lists every card in hand at each of its decisions, and most plays leave every
    board as it was; a card's plays read only the boards, the opponents and the card, so
    they are made once per position of the boards. `boards` holds one object per seat that
    stands for its zones and upgrades (the same object for the same content, another for
    other content: a shared view's zones list)."""
    global _runs
    state = in_colour_order(state)  # as legal_actions: the same list whatever the key order
    players = state["players"]
    cat = catalogue_for(state)
    others = opponents(state, seat)
    key = (cat, state["ruleset"]["pureSetRequired"], seat, *others, None, *map(id, boards))
    hit = _TURN_PLAYS.new.get(key) or _TURN_PLAYS.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], boards, strict=True)):
        hit = (tuple(boards), {})
        _TURN_PLAYS.put(key, hit)
    lists = hit[1]
    out: list[dict] = []
    records: list[dict[int, dict]] = []  # each run's records, made with it (records_of)
    runs: list[list[dict]] = []
    if state["plays_left"] > 0:
        is_property, kind = cat.is_property, cat.kind
        for cid in players[seat]["hand"]:
            kept = lists.get(cid)
            if kept is None:
                if is_property[cid]:
                    plays = place_plays(state, cat, seat, cid)
                else:
                    plays = [{"type": "bank", "card": cid}]
                    if kind[cid] != "money":
                        plays += action_plays(state, cat, seat, cid, None, others)
                # A card's plays (placings, a banking, its action plays) are flat dicts.
                kept = lists[cid] = (plays, {id(a): {**a} for a in plays})
            plays = kept[0]
            out += plays
            records.append(kept[1])
            runs.append(plays)
    left = state["rearranges_left"]
    if left > 0:
        which = "rearrange2" if left >= 2 else "rearrange"
        kept = lists.get(which)
        if kept is None:
            wilds = _wilds(cat, players[seat])
            plays = moves(state, cat, seat, None, wilds)
            if left >= 2 and len(wilds) > 1:
                plays += swaps(state, cat, seat, wilds)
            kept = lists[which] = (plays, records_of(plays))
        plays = kept[0]
        out += plays
        records.append(kept[1])
        runs.append(plays)
    end, scoop = tail = [{"type": "end_turn"}, {"type": "scoop"}]
    out += tail
    records.append({id(end): _END_TURN, id(scoop): _SCOOP})
    runs.append(tail)
    _runs = (out, runs, records)
    return out


_END_TURN, _SCOOP = {"type": "end_turn"}, {"type": "scoop"}  # records: only ever copied

# The last list `shared_turn_actions` made, the lists it is made of, in order, and their
# records (records_of), run by run.
_runs: tuple[list[dict] | None, list[list[dict]], list[dict[int, dict]]] = (None, [], [])


def listed_runs(listed: object) -> list[list[dict]] | None:
    """For the list of a turn's plays a shared view showed last: the lists it joins, in order
    (each card's plays, the free rearranges, then ending the turn and scooping), each the
    same object for as long as its plays are kept, so a reader may keep what it made of one
    with that object (read only). None for any other list."""
    last, runs, _ = _runs
    return runs if listed is last else None


# ---- plays from the hand --------------------------------------------------------------------

def _loose_cards(cat: Catalogue, p: dict, pure: bool) -> list[int]:
    """Board cards outside complete sets (what Midnight Requisition and TDY Orders may touch)."""
    out: list[int] = []
    for colour, zone in p["zones"].items():
        if len(zone) < SET_SIZE[colour] or (pure and not zone_is_set(cat, zone, colour, pure)):
            out.extend(zone)
    return out


def place_plays(state: dict, cat: Catalogue, seat: int, cid: int) -> list[dict]:
    """Placing a property or wild from the hand: each legal colour whose zone has room."""
    if not cat.is_property[cid]:
        return []
    zones = state["players"][seat]["zones"]
    out = []
    for colour in cat.colours[cid]:
        zone = zones.get(colour)
        if zone is None or len(zone) < SET_SIZE[colour]:
            out.append({"type": "place", "card": cid, "colour": colour})
    return out


def bank_plays(cat: Catalogue, cid: int) -> list[dict]:
    """Banking: any money, rent or action card; never a property or wild."""
    return [] if cat.is_property[cid] else [{"type": "bank", "card": cid}]


def opponents(state: dict, seat: int) -> list[int]:
    """The other active seats, in turn order: who an action may target."""
    players = state["players"]
    return [t for t in state["order"] if t != seat and players[t]["active"]]


def action_plays(state: dict, cat: Catalogue, seat: int, cid: int,
                 target: int | None = None, others: list[int] | None = None) -> list[dict]:
    """Playing a rent or action card for its effect, every parameter choice (only those against
    `target` when given)."""
    kind = cat.kind[cid]
    if kind != "action" and kind != "rent":
        return []
    key = cat.key[cid]
    players = state["players"]
    p = players[seat]
    if target is not None:
        others = [target] if target in opponents(state, seat) else []
    elif others is None:
        others = opponents(state, seat)
    pure = state["ruleset"]["pureSetRequired"]
    if kind == "rent":
        if not others:
            return []
        zones = p["zones"]
        held = [c for c in cat.colours[cid] if c in zones]
        if key == "rent_pair":
            return [{"type": "action", "card": cid, "colour": c} for c in held]
        return [{"type": "action", "card": cid, "colour": c, "target": t}
                for c in held for t in others]
    if key == "pcs_orders" or key == "surge_ops":
        return [{"type": "action", "card": cid}]
    if key == "roll_call":
        return [{"type": "action", "card": cid}] if others else []
    if key == "finance_office":
        return [{"type": "action", "card": cid, "target": t} for t in others]
    if key == "midnight_requisition":
        return [{"type": "action", "card": cid, "target": t, "take": x}
                for t in others for x in _loose_cards(cat, players[t], pure)]
    if key == "chud":
        return [{"type": "action", "card": cid, "target": t, "take": x}
                for t in others for zone in players[t]["zones"].values() for x in zone]
    if key == "tdy_orders":
        mine = _loose_cards(cat, p, pure)
        if not mine:
            return []
        return [{"type": "action", "card": cid, "target": t, "take": x, "give": y}
                for t in others for x in _loose_cards(cat, players[t], pure) for y in mine]
    if key == "inspector_general":
        return [{"type": "action", "card": cid, "target": t, "colour": c}
                for t in others for c in complete_colours(cat, players[t], pure)]
    if key == "upgrade":
        ups = p["upgrades"]
        return [{"type": "action", "card": cid, "colour": c}
                for c in complete_colours(cat, p, pure) if c not in ups]
    if key == "foc":
        ups = p["upgrades"]
        return [{"type": "action", "card": cid, "colour": c}
                for c in complete_colours(cat, p, pure) if len(ups.get(c, ())) == 1]
    return []  # opsec: banking only — it answers actions, it is never played as one


# ---- free rearranges ------------------------------------------------------------------------

def _wilds(cat: Catalogue, p: dict) -> list[tuple[int, str]]:
    is_wild = cat.is_wild
    return [(x, colour) for colour, zone in p["zones"].items() for x in zone if is_wild[x]]


def moves(state: dict, cat: Catalogue, seat: int, only: int | None = None,
          wilds: list[tuple[int, str]] | None = None) -> list[dict]:
    """Single free rearranges: a wild to another legal colour with room, or an upgrade to
    another complete set that can take it (only card `only`'s, when given)."""
    p = state["players"][seat]
    zones = p["zones"]
    out = []
    for x, colour in _wilds(cat, p) if wilds is None else wilds:
        if only is not None and x != only:
            continue
        for c in cat.colours[x]:
            if c != colour:
                dz = zones.get(c)
                if dz is None or len(dz) < SET_SIZE[c]:
                    out.append({"type": "move", "card": x, "colour": c})
    ups = p["upgrades"]
    if ups:
        sets = complete_colours(cat, p, state["ruleset"]["pureSetRequired"])
        for colour, here in ups.items():
            for u in here:
                if only is not None and u != only:
                    continue
                house = cat.key[u] == "upgrade"
                for c in sets:
                    if c == colour:
                        continue
                    there = ups.get(c, ())
                    if (house and not there and len(here) == 1) or (not house and len(there) == 1):
                        out.append({"type": "move", "card": u, "colour": c})
    return out


def swaps(state: dict, cat: Catalogue, seat: int,
          wilds: list[tuple[int, str]] | None = None) -> list[dict]:
    """Atomic own-wild swaps: two wilds in different zones, each legal in the other's zone."""
    if wilds is None:
        wilds = _wilds(cat, state["players"][seat])
    out = []
    for i, (a, ca) in enumerate(wilds):
        for b, cb in wilds[i + 1:]:
            if ca != cb and cb in cat.colours[a] and ca in cat.colours[b]:
                out.append({"type": "swap", "cards": [a, b] if a < b else [b, a]})
    return out


# ---- answering a pending action -------------------------------------------------------------

def opsec_in_hand(cat: Catalogue, p: dict) -> int | None:
    key = cat.key
    for c in p["hand"]:
        if key[c] == "opsec":
            return c
    return None


def responses(state: dict, seat: int, answer: str | None = None) -> list[dict]:
    """accept / opsec for every chain in which `seat` is the one to answer (only `answer`
    when given)."""
    pending = state["pending"]
    if pending is None:
        return []
    out = []
    can_counter = False if answer == "accept" else None
    for t in pending["targets"]:
        if t["responder"] != seat or t["state"] != "respond":
            continue
        if answer != "opsec":
            out.append({"type": "respond", "answer": "accept", "target": t["seat"]})
        if can_counter is None:
            can_counter = opsec_problem(state, seat) is None
        if can_counter:
            out.append({"type": "respond", "answer": "opsec", "target": t["seat"]})
    return out


def opsec_problem(state: dict, seat: int) -> str | None:
    cat = catalogue_for(state)
    if opsec_in_hand(cat, state["players"][seat]) is None:
        return "No OPSEC card in hand"
    if (state["ruleset"]["counterCostsPlay"] and state["turn"] == seat
            and state["plays_left"] <= 0):
        return "No plays left this turn to counter with OPSEC"
    return None


# ---- discarding down to the hand limit ------------------------------------------------------

def discard_excess(state: dict) -> int:
    return max(0, len(state["players"][state["turn"]]["hand"]) - HAND_LIMIT)


def auto_discard(state: dict) -> list[int]:
    """RULINGS: lowest bank value first; ties go to the card drawn most recently."""
    cat = catalogue_for(state)
    hand = state["players"][state["turn"]]["hand"]
    order = sorted(range(len(hand)), key=lambda i: (cat.value[hand[i]], -i))
    return sorted(hand[i] for i in order[: discard_excess(state)])


def discard_selections(state: dict, seat: int) -> list[list[int]]:
    hand = state["players"][seat]["hand"]
    k = discard_excess(state)
    first = auto_discard(state)
    out = [first]
    for combo in islice(combinations(sorted(hand), k), DISCARD_CAP):
        sel = list(combo)
        if sel != first:
            out.append(sel)
    return out


def discard_problem(state: dict, seat: int, cards: object) -> str | None:
    if state["phase"] == "finished":
        return "Game is already finished"
    if state["phase"] != "discard" or state["turn"] != seat:
        return "No discard is due"
    excess = discard_excess(state)
    if not ids_list(cards):
        return "Discard selection contains an invalid card"
    if len(cards) != excess:
        return f"Discard exactly {excess} cards"
    if len(set(cards)) != len(cards):
        return "Discarded cards must be unique"
    hand = state["players"][seat]["hand"]
    if any(c not in hand for c in cards):
        return "Discard selection contains an invalid card"
    return None
