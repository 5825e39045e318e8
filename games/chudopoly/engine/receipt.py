"""Cards a player did not choose to receive (paid, stolen, swapped, seized), and upgrades that
lose their set.

Involuntary receipt (REFERENCE §5) never overflows a zone. It tries, in order:
  1. the colour the card was sitting in, if legal for it;
  2. its other legal colours, fullest zone first;
  3. sliding a wild out of one of those full zones into another legal colour with room;
  4. banking the card as money at face value.
"""

from __future__ import annotations

from .board import zone_full, zone_is_set
from .state import Tx, zone_of


def receive_property(tx: Tx, seat: int, cid: int, preferred: str | None) -> str:
    """Put `cid` on `seat`'s board; returns the colour it landed in, or "bank"."""
    p = tx.p(seat)
    cat = tx.cat
    zones = p["zones"]
    legal = cat.colours[cid]
    ordered = [preferred] if preferred in legal else []
    for colour in sorted(legal, key=lambda c: -len(zones.get(c, ()))):
        if colour != preferred:
            ordered.append(colour)
    dest = next((c for c in ordered if not zone_full(p, c)), None)
    if dest is None:
        dest = _shift_wild_to_make_room(tx, seat, ordered)
    if dest is None:
        p["bank"].append(cid)
        tx.emit({"type": "banked_property", "seat": seat, "card": cat.card(cid),
                 "value": cat.value[cid], "to": "bank"})
        return "bank"
    zone_of(zones, dest).append(cid)
    return dest


def _shift_wild_to_make_room(tx: Tx, seat: int, ordered: list[str]) -> str | None:
    p = tx.p(seat)
    cat = tx.cat
    zones = p["zones"]
    for colour in ordered:
        zone = zones.get(colour)
        if not zone:
            continue
        for i, occupant in enumerate(zone):
            if not cat.is_wild[occupant]:
                continue
            alt = next((c for c in cat.colours[occupant] if c != colour and not zone_full(p, c)),
                       None)
            if alt is None:
                continue
            del zone[i]
            zone_of(zones, alt).append(occupant)
            tx.emit({"type": "move", "seat": seat, "card": cat.card(occupant, alt),
                     "from": colour, "to": alt, "forced": True})
            return colour
    return None


def bank_upgrade(tx: Tx, seat: int, cid: int, colour: str) -> None:
    tx.p(seat)["bank"].append(cid)
    tx.emit({"type": "upgrade_banked", "seat": seat, "card": tx.cat.card(cid), "colour": colour,
             "to": "bank"})


def settle_upgrades(tx: Tx, seat: int) -> None:
    """Upgrades may only sit on complete sets, and an FOC only above an Upgrade. Anything that
    no longer qualifies goes to the owner's bank (REFERENCE §4)."""
    p = tx.s["players"][seat]
    if not p["upgrades"]:
        return
    cat = tx.cat
    pure = tx.s["ruleset"]["pureSetRequired"]
    for colour in list(p["upgrades"]):
        ups = p["upgrades"][colour]
        if cat.key[ups[0]] == "upgrade" and zone_is_set(cat, p["zones"].get(colour), colour, pure):
            continue
        for u in tx.p(seat)["upgrades"].pop(colour):
            bank_upgrade(tx, seat, u, colour)


def merge_upgrades(tx: Tx, seat: int, colour: str, incoming: list[int]) -> None:
    """Seized upgrades join the thief's set of that colour; a duplicate kind goes to the thief's
    bank."""
    p = tx.p(seat)
    cat = tx.cat
    for u in incoming:
        have = [cat.key[x] for x in p["upgrades"].get(colour, ())]
        if cat.key[u] in have or (cat.key[u] == "foc" and "upgrade" not in have):
            bank_upgrade(tx, seat, u, colour)
        else:
            zone_of(p["upgrades"], colour).append(u)
