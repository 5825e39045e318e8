"""Paying a debt: the payment rule, the selections offered to a payer, the automatic payment a
timed-out payer makes, and moving the paid cards.

The payer chooses (REFERENCE §5): unique ids, payable cards only, at least the amount unless
surrendering every payable card (rainbow wilds included). "Nothing to pay" only with no cards.
"""

from __future__ import annotations

from .board import complete_colours, payable_cards
from .cards import Catalogue
from .receipt import receive_property, settle_upgrades
from .state import Tx, catalogue_for, ids_list
from .winning import completed, sync_sets

SELECTION_CAP = 8

# Preference classes for the automatic payment (RULINGS): bank, loose properties, upgrades,
# then cards of complete sets.
_BANK, _LOOSE, _UPGRADE, _SET = 0, 1, 2, 3


def owed_entry(state: dict, seat: int) -> dict | None:
    """The pending entry in which `seat` has accepted a charge and now owes a payment."""
    pending = state["pending"]
    if pending is None:
        return None
    for t in pending["targets"]:
        if t["seat"] == seat and t["state"] == "pay":
            return t
    return None


def payment_problem(state: dict, seat: int, cards: object) -> str | None:
    """Why `cards` is not an acceptable payment by `seat` right now, or None if it is."""
    if state["phase"] == "finished":
        return "Game is already finished"
    entry = owed_entry(state, seat)
    if entry is None:
        return "You owe no payment right now"
    if not ids_list(cards):
        return "Payment selection contains an invalid card"
    p = state["players"][seat]
    payable = payable_cards(p)
    if not cards:
        return None if not payable else "Select cards to pay with"
    if len(set(cards)) != len(cards):
        return "Payment cards must be unique"
    owned = set(payable)
    if any(c not in owned for c in cards):
        return "Payment selection contains an invalid card"
    amount = state["pending"]["amount"]
    value = catalogue_for(state).value
    if sum(value[c] for c in cards) < amount and len(cards) < len(payable):
        return f"You must pay at least {amount}M (or surrender every card you have)"
    return None


_WEIGHT = (1, 100, 10_000, 1_000_000)  # per card of each class; lower is preferred

# A group: cards that look alike to the payer — same place, same value — as
# (value, preference weight, [ids]). Choices are spelled with each group's first ids, so equal
# choices compare equal and the offered list holds distinct choices.
Group = tuple[int, int, list[int]]


def _survey(cat: Catalogue, p: dict, pure: bool) -> tuple[list[int], int, list[Group]]:
    """(every payable card, their total value, the valued ones in groups, biggest first)."""
    value = cat.value
    sets = complete_colours(cat, p, pure)
    places = [(p["bank"], "bank", _WEIGHT[_BANK])]
    places += [(zone, colour, _WEIGHT[_SET if colour in sets else _LOOSE])
               for colour, zone in p["zones"].items()]
    places += [(ups, "up:" + colour, _WEIGHT[_UPGRADE]) for colour, ups in p["upgrades"].items()]
    everything: list[int] = []
    groups: dict[tuple[str, int], Group] = {}
    for ids, place, weight in places:
        everything += ids
        for c in ids:
            v = value[c]
            if v:
                group = groups.get((place, v))
                if group is None:
                    groups[place, v] = (v, weight, [c])
                else:
                    group[2].append(c)
    ordered = sorted(groups.values(), key=lambda g: -g[0])
    return everything, sum(g[0] * len(g[2]) for g in ordered), ordered


def _minimal_covers(groups: list[Group], amount: int, cap: int) -> list[list[int]]:
    """Up to `cap` distinct minimal covering selections.

    Cards are taken in descending value and the walk stops the moment the amount is reached:
    the last card taken is the smallest, so dropping any card falls short."""
    n = len(groups)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + groups[i][0] * len(groups[i][2])
    found: list[list[int]] = []
    if cap > 0 and n and suffix[0] >= amount:
        _walk(groups, suffix, amount, cap, found, [], 0, 0)
    return found[:cap]


def _walk(groups: list[Group], suffix: list[int], amount: int, cap: int, found: list[list[int]],
          chosen: list[int], i: int, total: int) -> None:
    """`_minimal_covers`'s depth-first walk from group i, `chosen` holding the cards so far.
    A module function, not a closure: a closure that calls itself is a reference cycle, left
    for the garbage collector at every payment."""
    # Called only where group i exists and the cards from it on can still cover.
    v, _, ids = groups[i]
    below = suffix[i + 1]
    k = 0
    for k in range(1, len(ids) + 1):
        chosen.append(ids[k - 1])
        t = total + k * v
        if t >= amount:
            found.append(sorted(chosen))
            break
        if t + below >= amount and len(found) < cap:
            _walk(groups, suffix, amount, cap, found, chosen, i + 1, t)
    del chosen[len(chosen) - k:]
    if total + below >= amount and len(found) < cap:
        _walk(groups, suffix, amount, cap, found, chosen, i + 1, total)


def _cheapest_cover(groups: list[Group], amount: int) -> list[int]:
    """The automatic choice: 0/1 knapsack over totals below the debt — the smallest covering
    total, then the lowest preference cost — spelled with each group's first ids."""
    items = [(v, w, c) for v, w, ids in groups for c in ids]
    limit = amount + max(v for v, _, _ in items)
    inf = 1 << 62
    cost = [inf] * (limit + 1)
    mask = [0] * (limit + 1)
    cost[0] = 0
    for i, (v, w, _) in enumerate(items):
        bit = 1 << i
        for t in range(amount - 1, -1, -1):
            ct = cost[t]
            if ct != inf and ct + w < cost[t + v]:
                cost[t + v] = ct + w
                mask[t + v] = mask[t] | bit
    total = next(t for t in range(amount, limit + 1) if cost[t] != inf)
    taken = {c for i, (_, _, c) in enumerate(items) if mask[total] >> i & 1}
    return sorted(c for _, _, ids in groups for c in ids[:sum(1 for x in ids if x in taken)])


def _choices(state: dict, cat: Catalogue, seat: int, amount: int, cap: int
             ) -> tuple[list[int], list[list[int]]]:
    """(the automatic payment, up to `cap` other distinct covering selections)."""
    everything, total, groups = _survey(cat, state["players"][seat],
                                        state["ruleset"]["pureSetRequired"])
    if total < amount:
        return everything, []
    auto = _cheapest_cover(groups, amount)
    return auto, [sel for sel in _minimal_covers(groups, amount, cap + 1) if sel != auto][:cap]


def auto_payment(state: dict, cat: Catalogue, seat: int, amount: int) -> list[int]:
    """RULINGS: the legal selection with the smallest total covering the debt, preferring bank
    cards, then properties outside complete sets, then upgrades, then complete-set cards; if
    nothing covers it, everything."""
    return _choices(state, cat, seat, amount, 0)[0]


def covering_selections(state: dict, cat: Catalogue, seat: int, amount: int,
                        cap: int = SELECTION_CAP) -> list[list[int]]:
    """The bounded list of payments `legal_actions` offers: the automatic payment first, then
    distinct minimal covering selections; when the payer cannot cover, only "everything"."""
    auto, others = _choices(state, cat, seat, amount, cap - 1)
    return [auto, *others]


def execute_payment(tx: Tx, payer: int, payee: int, cards: list[int], amount: int,
                    kind: str) -> None:
    """Move a validated payment. Bank cards and upgrades land in the payee's bank (upgrades lose
    their tag); properties go through involuntary receipt into the payee's collection."""
    cat = tx.cat
    before_payee = completed(tx, payee)
    before_payer = completed(tx, payer)
    src = tx.p(payer)
    dst = tx.p(payee)
    where: dict[int, str] = dict.fromkeys(src["bank"], "bank")
    for colour, ups in src["upgrades"].items():
        where.update(dict.fromkeys(ups, "upgrade:" + colour))
    for colour, zone in src["zones"].items():
        where.update(dict.fromkeys(zone, colour))
    moves = []
    props: list[tuple[int, str]] = []
    for c in cards:
        loc = where[c]
        if loc == "bank":
            src["bank"].remove(c)
        elif loc.startswith("upgrade:"):
            colour = loc[8:]
            ups = src["upgrades"][colour]
            ups.remove(c)
            if not ups:
                del src["upgrades"][colour]
        else:
            props.append((c, loc))
            continue
        dst["bank"].append(c)
        moves.append([c, loc, "bank"])
    for c, colour in props:
        zone = src["zones"][colour]
        zone.remove(c)
        if not zone:
            del src["zones"][colour]
        moves.append([c, colour, receive_property(tx, payee, c, colour)])
    total = sum(cat.value[c] for c in cards)
    tx.emit({"type": "payment", "seat": payer, "to": payee, "amount": amount, "total": total,
             "kind": kind, "moves": moves,
             "cards": [cat.card(c, None if to == "bank" else to) for c, _, to in moves]})
    settle_upgrades(tx, payer)
    settle_upgrades(tx, payee)
    sync_sets(tx, payee, before_payee)
    sync_sets(tx, payer, before_payer, by=payee)
