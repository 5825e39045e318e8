"""Read-only questions about one player's board: zones, sets, rent, what can pay, net worth."""

from __future__ import annotations

from .cards import COLOUR_KEYS, COLOURS, Catalogue

SET_SIZE: dict[str, int] = {c.key: c.set_size for c in COLOURS.values()}
RENT_TABLE: dict[str, tuple[int, ...]] = {c.key: c.rents for c in COLOURS.values()}
HOUSE_BONUS = 3
FOC_BONUS = 4
COLOUR_INDEX = {c: i for i, c in enumerate(COLOUR_KEYS)}


def zone_full(p: dict, colour: str) -> bool:
    zone = p["zones"].get(colour)
    return zone is not None and len(zone) >= SET_SIZE[colour]


def zone_is_set(cat: Catalogue, zone: list[int] | None, colour: str, pure: bool) -> bool:
    """A full zone is a set; under pureSetRequired it also needs a card that is not a rainbow
    wild (two-colour wilds count as real)."""
    if not zone or len(zone) < SET_SIZE[colour]:
        return False
    if pure:
        rainbow = cat.rainbow
        return any(not rainbow[c] for c in zone)
    return True


def complete_colours(cat: Catalogue, p: dict, pure: bool) -> list[str]:
    size = SET_SIZE
    if not pure:
        return [c for c, z in p["zones"].items() if len(z) >= size[c]]
    return [c for c, z in p["zones"].items() if len(z) >= size[c] and zone_is_set(cat, z, c, pure)]


def rent_for(cat: Catalogue, p: dict, colour: str) -> int:
    zone = p["zones"].get(colour)
    if not zone:
        return 0
    table = RENT_TABLE[colour]
    rent = table[min(len(zone), len(table)) - 1]
    for u in p["upgrades"].get(colour, ()):
        rent += HOUSE_BONUS if cat.key[u] == "upgrade" else FOC_BONUS
    return rent


def payable_cards(p: dict) -> list[int]:
    """Everything a player can hand over: bank, every board card (rainbow wilds included) and
    every upgrade. Never the hand."""
    out = p["bank"][:]
    for zone in p["zones"].values():
        out.extend(zone)
    for ups in p["upgrades"].values():
        out.extend(ups)
    return out


def net_worth(cat: Catalogue, p: dict) -> int:
    value = cat.value
    total = sum(value[c] for c in p["bank"])
    for zone in p["zones"].values():
        total += sum(value[c] for c in zone)
    for ups in p["upgrades"].values():
        total += sum(value[c] for c in ups)
    return total


def find_property(p: dict, cid: int) -> str | None:
    for colour, zone in p["zones"].items():
        if cid in zone:
            return colour
    return None


def find_upgrade(p: dict, cid: int) -> str | None:
    for colour, ups in p["upgrades"].items():
        if cid in ups:
            return colour
    return None
