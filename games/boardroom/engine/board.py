"""The Boardroom board as one data table: 40 tiles, their prices, rents and branch costs.

Everything the rules page, the engine and the bots know about a tile comes from `TILES`.
The numbers follow the usual progression of this family of games around the board (how they
were chosen: docs/boardroom.md). Positions count from start (0) in the direction of play.

Business rents are `(base, 1 branch, 2, 3, 4, holding)`; `branch` is the cost of one branch
(a holding costs one more branch on top of four). The bank's buyback is half the price.
"""

from __future__ import annotations

from typing import Any

SALARY = 200
EXCISE_DUTY = 100
AUDIT_BAIL = 50
LOGISTICS_RENT = (0, 25, 50, 120)  # by how many logistics tiles the owner holds
UTILITY_FACTOR = (0, 4, 10)  # times the dice total, by how many utilities the owner holds

AUDIT_TILE = 10  # tax audit / just visiting
TAX_OFFICE = 30  # sends the token to the audit

# (name, industry, price, rents (base, b1, b2, b3, b4, holding), branch cost)
_BUSINESSES: dict[int, tuple[str, str, int, tuple[int, ...], int]] = {
    1: ("Noodle Cart", "stalls", 60, (2, 40, 120, 220, 330, 430), 50),
    3: ("Pancake Kiosk", "stalls", 60, (2, 40, 120, 220, 330, 430), 50),
    4: ("Juice Stand", "stalls", 80, (4, 80, 240, 430, 590, 710), 50),
    6: ("Shoe Repair", "repairs", 100, (6, 120, 360, 640, 830, 1000), 50),
    8: ("Key Cutter", "repairs", 100, (6, 120, 360, 640, 830, 1000), 50),
    9: ("Watch Mender", "repairs", 120, (8, 160, 480, 840, 1050, 1260), 50),
    11: ("Copy Corner", "printing", 140, (10, 200, 600, 1040, 1260, 1510), 100),
    13: ("Poster Press", "printing", 140, (10, 200, 600, 1040, 1260, 1510), 100),
    14: ("Ink Works", "printing", 160, (12, 240, 720, 1220, 1450, 1740), 100),
    16: ("Thread Mill", "textiles", 180, (14, 280, 840, 1410, 1640, 1970), 100),
    18: ("Dye House", "textiles", 180, (14, 280, 840, 1410, 1640, 1970), 100),
    19: ("Tailor Studio", "textiles", 200, (16, 320, 960, 1580, 1820, 2180), 100),
    21: ("Bakery Plant", "food", 220, (18, 360, 1080, 1760, 2000, 2400), 150),
    23: ("Cheese Dairy", "food", 220, (18, 360, 1080, 1760, 2000, 2400), 150),
    24: ("Pickle Cannery", "food", 240, (20, 400, 1200, 1920, 2160, 2590), 150),
    26: ("Circuit Lab", "electronics", 260, (22, 440, 1320, 2080, 2320, 2780), 150),
    27: ("Battery Works", "electronics", 260, (22, 440, 1320, 2080, 2320, 2780), 150),
    29: ("Screen Assembly", "electronics", 280, (24, 480, 1440, 2230, 2470, 2960), 150),
    31: ("Steel Foundry", "heavy", 300, (26, 520, 1560, 2380, 2620, 3140), 200),
    32: ("Cable Plant", "heavy", 300, (26, 520, 1560, 2380, 2620, 3140), 200),
    34: ("Turbine Works", "heavy", 320, (28, 560, 1680, 2520, 2760, 3310), 200),
    36: ("Savings Bank", "finance", 360, (32, 640, 1920, 2780, 3010, 3610), 200),
    38: ("Insurance House", "finance", 360, (32, 640, 1920, 2780, 3010, 3610), 200),
    39: ("Stock Exchange", "finance", 400, (50, 1000, 3000, 4200, 4520, 5420), 200),
}
_OTHERS: dict[int, tuple[str, str, int]] = {  # kind, name, price (0: not for sale)
    0: ("start", "Start", 0),
    2: ("aid", "State aid", 0),
    5: ("logistics", "North Freight Depot", 200),
    7: ("market", "Market", 0),
    10: ("audit", "Tax audit", 0),
    12: ("utility", "Power Grid", 150),
    15: ("logistics", "River Port", 200),
    17: ("aid", "State aid", 0),
    20: ("forum", "Business forum", 0),
    22: ("market", "Market", 0),
    25: ("logistics", "Air Cargo Terminal", 200),
    28: ("utility", "City Water Supply", 150),
    30: ("tax_office", "Tax office", 0),
    33: ("aid", "State aid", 0),
    35: ("market", "Market", 0),
    37: ("excise", "Excise duty", 0),
}

# What a phone's board prints on a tile (about 29 px inside: words of at most six letters) to
# tell the tiles apart; the full name stays the tile's accessible name and card.
SHORT_NAMES: tuple[str, ...] = (
    "Start", "Noodle", "Aid", "Kiosk", "Juice", "N. Depot", "Shoe", "Market", "Keys", "Watch",
    "Audit", "Copy", "Power", "Poster", "Ink", "Port", "Thread", "Aid", "Dye", "Tailor",
    "Forum", "Bakery", "Market", "Cheese", "Pickle", "Cargo", "Lab", "Cells", "Water",
    "Screen", "Tax", "Steel", "Cable", "Aid", "Turb.", "Market", "Bank", "Excise", "Insure",
    "Stocks",
)

INDUSTRY_NAMES = {
    "stalls": "Street stalls", "repairs": "Repair shops", "printing": "Printing",
    "textiles": "Textiles", "food": "Food factories", "electronics": "Electronics",
    "heavy": "Heavy industry", "finance": "Finance",
}


def _build() -> tuple[dict[str, Any], ...]:
    tiles = []
    for pos in range(40):
        if pos in _BUSINESSES:
            name, industry, price, rents, branch = _BUSINESSES[pos]
            tiles.append({"pos": pos, "kind": "business", "name": name, "industry": industry,
                          "price": price, "rents": list(rents), "branch_cost": branch,
                          "buyback": price // 2})
        else:
            kind, name, price = _OTHERS[pos]
            tile: dict[str, Any] = {"pos": pos, "kind": kind, "name": name}
            if price:
                tile.update(price=price, buyback=price // 2)
            tiles.append(tile)
    return tuple(tiles)


TILES: tuple[dict[str, Any], ...] = _build()

# Fast lookups (tuples indexed by position) for the hot paths of the engine and the bots.
KIND: tuple[str, ...] = tuple(t["kind"] for t in TILES)
PRICE: tuple[int, ...] = tuple(t.get("price", 0) for t in TILES)
BUYBACK: tuple[int, ...] = tuple(t.get("buyback", 0) for t in TILES)
BRANCH_COST: tuple[int, ...] = tuple(t.get("branch_cost", 0) for t in TILES)
RENTS: tuple[tuple[int, ...], ...] = tuple(tuple(t.get("rents", ())) for t in TILES)
INDUSTRY: tuple[str | None, ...] = tuple(t.get("industry") for t in TILES)
INDUSTRIES: dict[str, tuple[int, ...]] = {}
for _t in TILES:
    if _t["kind"] == "business":
        INDUSTRIES.setdefault(_t["industry"], ())
        INDUSTRIES[_t["industry"]] += (_t["pos"],)
GROUP: tuple[tuple[int, ...], ...] = tuple(
    INDUSTRIES[t["industry"]] if t["kind"] == "business" else () for t in TILES)
LOGISTICS: tuple[int, ...] = tuple(t["pos"] for t in TILES if t["kind"] == "logistics")
UTILITIES: tuple[int, ...] = tuple(t["pos"] for t in TILES if t["kind"] == "utility")
OWNABLE: tuple[int, ...] = tuple(t["pos"] for t in TILES if "price" in t)
IS_OWNABLE: tuple[bool, ...] = tuple("price" in t for t in TILES)
BUSINESSES: tuple[int, ...] = tuple(t["pos"] for t in TILES if t["kind"] == "business")


def board_table() -> list[dict[str, Any]]:
    """The 40 tiles as JSON-able data (a fresh copy), for the rules page and the bots."""
    return [{**t, **({"rents": list(t["rents"])} if "rents" in t else {})} for t in TILES]


def tile_name(pos: int) -> str:
    return TILES[pos]["name"]
