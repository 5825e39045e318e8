"""Paying a debt: the payment rule, the selections offered to a payer, the automatic payment a
timed-out payer makes, and moving the paid cards.

The payer chooses (REFERENCE §5): unique ids, payable cards only, at least the amount unless
surrendering every payable card (rainbow wilds included). "Nothing to pay" only with no cards.
"""

from __future__ import annotations

from .board import complete_colours, payable_cards
from .cards import Catalogue
from .receipt import receive_property, settle_upgrades
from .state import Tx, catalogue_for

SELECTION_CAP = 8
WALK_BUDGET = 120  # search nodes per listing; the list is a sample, never the whole space

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


def _is_id(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def payment_problem(state: dict, seat: int, cards: object) -> str | None:
    """Why `cards` is not an acceptable payment by `seat` right now, or None if it is."""
    if state["phase"] == "finished":
        return "Game is already finished"
    entry = owed_entry(state, seat)
    if entry is None:
        return "You owe no payment right now"
    if not isinstance(cards, list | tuple) or not all(_is_id(c) for c in cards):
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


def _classified(cat: Catalogue, p: dict, pure: bool) -> list[tuple[int, int, str]]:
    """(card, class, location) for every payable card, in a stable order."""
    sets = set(complete_colours(cat, p, pure))
    out = [(c, _BANK, "bank") for c in p["bank"]]
    for colour, zone in p["zones"].items():
        cls = _SET if colour in sets else _LOOSE
        out.extend((c, cls, colour) for c in zone)
    for colour, ups in p["upgrades"].items():
        out.extend((c, _UPGRADE, "up:" + colour) for c in ups)
    return out


_WEIGHT = (1, 100, 10_000, 1_000_000)  # per card of each class; lower is preferred


def auto_payment(state: dict, cat: Catalogue, seat: int, amount: int) -> list[int]:
    """RULINGS: the legal selection with the smallest total covering the debt, preferring bank
    cards, then properties outside complete sets, then upgrades, then complete-set cards; if
    nothing covers it, everything."""
    items = _classified(cat, state["players"][seat], state["ruleset"]["pureSetRequired"])
    if sum(cat.value[c] for c, _, _ in items) < amount:
        return [c for c, _, _ in items]
    return _alike_first(_groups(items, cat.value), set(_cheapest_cover(items, cat.value, amount)))


def _groups(items: list[tuple[int, int, str]], value: list[int]
            ) -> list[tuple[tuple[str, int], list[int]]]:
    """Payable cards with value, grouped by (place, value) — cards that look alike to the
    payer — biggest value first."""
    groups: dict[tuple[str, int], list[int]] = {}
    for c, _, loc in items:
        if value[c] > 0:
            groups.setdefault((loc, value[c]), []).append(c)
    return sorted(groups.items(), key=lambda kv: -kv[0][1])


def _alike_first(order: list[tuple[tuple[str, int], list[int]]], chosen: set[int]) -> list[int]:
    """The same choice, spelled with each group's first ids (so equal choices compare equal)."""
    return sorted(c for _, ids in order for c in ids[:sum(1 for x in ids if x in chosen)])


def _cheapest_cover(items: list[tuple[int, int, str]], value: list[int], amount: int
                    ) -> list[int]:
    if sum(value[c] for c, _, _ in items) < amount:
        return [c for c, _, _ in items]
    # 0/1 knapsack over totals below the debt: cost[t] is the preference cost of the best
    # selection totalling t, mask[t] its items. Zero-value cards only add cost: never chosen.
    limit = amount + max(value[c] for c, _, _ in items)
    inf = 1 << 62
    cost = [inf] * (limit + 1)
    mask = [0] * (limit + 1)
    cost[0] = 0
    for i, (c, cls, _) in enumerate(items):
        v = value[c]
        if v == 0:
            continue
        w, bit = _WEIGHT[cls], 1 << i
        for t in range(amount - 1, -1, -1):
            ct = cost[t]
            if ct != inf and ct + w < cost[t + v]:
                cost[t + v] = ct + w
                mask[t + v] = mask[t] | bit
    total = next(t for t in range(amount, limit + 1) if cost[t] != inf)
    chosen = mask[total]
    return [c for i, (c, _, _) in enumerate(items) if chosen >> i & 1]


def covering_selections(state: dict, cat: Catalogue, seat: int, amount: int,
                        cap: int = SELECTION_CAP) -> list[list[int]]:
    """The bounded list of payments `legal_actions` offers: the automatic payment first, then
    distinct minimal covering selections; when the payer cannot cover, only "everything"."""
    p = state["players"][seat]
    items = _classified(cat, p, state["ruleset"]["pureSetRequired"])
    if not items:
        return [[]]
    value = cat.value
    if sum(value[c] for c, _, _ in items) < amount:
        return [[c for c, _, _ in items]]
    # Alike cards form one group, so the list holds distinct choices rather than the same
    # choice with other ids. The automatic payment comes first.
    order = _groups(items, value)
    first = _alike_first(order, set(_cheapest_cover(items, value, amount)))
    out = [first]
    seen = {tuple(first)}
    n = len(order)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + order[i][0][1] * len(order[i][1])
    chosen: list[int] = []
    budget = [WALK_BUDGET]

    # Minimal covers: take cards in descending value and stop the moment the amount is
    # reached; the last card taken is the smallest, so dropping any card falls short.
    def walk(i: int, total: int) -> None:
        budget[0] -= 1
        if budget[0] < 0 or len(out) >= cap or i >= n or total + suffix[i] < amount:
            return
        (_, v), ids = order[i]
        for k in range(1, len(ids) + 1):
            chosen.append(ids[k - 1])
            if total + k * v >= amount:
                sel = tuple(sorted(chosen))
                if sel not in seen and len(out) < cap:
                    seen.add(sel)
                    out.append(list(sel))
                break
            walk(i + 1, total + k * v)
        del chosen[len(chosen) - k:]
        walk(i + 1, total)

    walk(0, 0)
    return out


def execute_payment(tx: Tx, payer: int, payee: int, cards: list[int], amount: int,
                    kind: str) -> None:
    """Move a validated payment. Bank cards and upgrades land in the payee's bank (upgrades lose
    their tag); properties go through involuntary receipt into the payee's collection."""
    from .winning import completed, sync_sets

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
