"""Everything the seed leaves open, decided once as data: the board, the projects, the deck.

The seed fixes the rules (the Fund starts at 1,848, GO pays 50, chips cost 10, ...); it does
not say which of the 40 spaces are projects, what a project costs or pays, or what the 44
Chance cards say beyond their split. Those choices live here and nowhere else, so the rules
page (`describe()`), the engine and the simulations all read the same table. The numbers were
chosen by simulation: four careful players need about 15 rounds (75 turns), and the Fund ends
one game in ten or twenty (docs/commonwealth.md has the measurements).
"""

from __future__ import annotations

from typing import Any

# --- the seed's fixed numbers -----------------------------------------------------------------
FUND_START = 1848          # the Community Fund's opening balance
WAGE = 50                  # every player collects this when anyone reaches GO
MIN_DONATION = 5           # ... and then gives at least this to the Fund
CHIP_COST = 10             # placing a chip on the project you landed on
SHUTTLE_FARE = 50          # the Fund pays this for each Community Shuttle ride
JAIL_PENALTY = 50          # the Fund loses this every time someone goes to Jail
JAIL_FEE = 50              # the fee to leave Jail
JAIL_TURNS = 3             # tries at a 6 before the fee is due
AUCTION_START = 5          # the lowest opening bid
AUCTION_STEP = 5           # bids rise in multiples of this
CHIPS_PER_SEAT = 10        # placing all of them wins
FUND_CARD_MAX = 100        # no Chance card takes more than this from the Fund
BOARD_SIZE = 40
GO, JAIL, PARKING, GO_TO_JAIL = 0, 10, 20, 30
ACTION_FACES = ("2", "3", "4", "x2", "+1", "+2")

# --- the projects -----------------------------------------------------------------------------
# Eight colours of two, in board order. Per colour: price, chip slots, self-development fee,
# payout (the base amount; twice when the manager holds both of the colour).
COLOURS: list[dict[str, Any]] = [
    {"key": "brown", "name": "Brown", "price": 20, "slots": 2, "fee": 40, "payout": 20},
    {"key": "sky", "name": "Light blue", "price": 30, "slots": 3, "fee": 50, "payout": 25},
    {"key": "pink", "name": "Pink", "price": 40, "slots": 3, "fee": 60, "payout": 30},
    {"key": "orange", "name": "Orange", "price": 50, "slots": 3, "fee": 70, "payout": 35},
    {"key": "red", "name": "Red", "price": 60, "slots": 4, "fee": 80, "payout": 40},
    {"key": "yellow", "name": "Yellow", "price": 70, "slots": 4, "fee": 90, "payout": 45},
    {"key": "green", "name": "Green", "price": 80, "slots": 4, "fee": 100, "payout": 50},
    {"key": "navy", "name": "Dark blue", "price": 100, "slots": 5, "fee": 120, "payout": 60},
]
COLOUR_KEYS = [c["key"] for c in COLOURS]

PROJECT_NAMES = [
    "Seed Library", "Tool Lending Shed",
    "Bicycle Workshop", "Reading Room", "Night School",
    "Laundry Cooperative", "Free Clinic", "Bakery Collective",
    "Riverside Commons", "Union Hall", "Public Baths",
    "Solar Allotments", "Tram Depot", "Grain Exchange",
    "People's Observatory", "Harbour Lighthouse",
]

# Each side of the board between corners: project, Chance, project, Chance, Shuttle, project,
# Chance, project, Chance. Four Shuttles (the middle of each side) make a ride a real choice
# among four projects; the rest are Chance, the game's interaction.
_SIDE = ("project", "chance", "project", "chance", "shuttle",
         "project", "chance", "project", "chance")
CORNERS = {GO: "go", JAIL: "jail", PARKING: "parking", GO_TO_JAIL: "go_to_jail"}
CORNER_NAMES = {"go": "GO", "jail": "Jail / Just Visiting", "parking": "Free Parking",
                "go_to_jail": "Go to Jail"}

# What a phone's board prints on a space (about 29 px inside: words of at most six letters, or
# split by a soft hyphen), by space; the full name stays the
# space's accessible name and card.
SHORT_NAMES: tuple[str, ...] = (
    "GO", "Seeds", "Chance", "Tools", "Chance", "Shut\u00adtle 1", "Bikes", "Chance", "Books",
    "Chance", "Jail", "School", "Chance", "Laun\u00addry", "Chance", "Shut\u00adtle 2", "Clinic",
    "Chance", "Bakery", "Chance", "Park", "River", "Chance", "Union", "Chance", "Shut\u00adtle 3",
    "Baths", "Chance", "Solar", "Chance", "To Jail", "Tram", "Chance", "Grain", "Chance",
    "Shut\u00adtle 4", "Obser\u00advatory", "Chance", "Light\u00adhouse", "Chance",
)

def _build() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    spaces: list[dict[str, Any]] = []
    projects: list[dict[str, Any]] = []
    shuttle_no = 0
    for index in range(BOARD_SIZE):
        if index in CORNERS:
            kind = CORNERS[index]
            spaces.append({"index": index, "kind": kind, "name": CORNER_NAMES[kind]})
            continue
        kind = _SIDE[index % 10 - 1]
        if kind == "project":
            pid = len(projects)
            colour = COLOURS[pid // 2]
            projects.append({"id": pid, "name": PROJECT_NAMES[pid], "colour": colour["key"],
                             "space": index, "price": colour["price"], "slots": colour["slots"],
                             "fee": colour["fee"], "payout": colour["payout"]})
            spaces.append({"index": index, "kind": "project", "project": pid,
                           "name": PROJECT_NAMES[pid]})
        elif kind == "shuttle":
            shuttle_no += 1
            spaces.append({"index": index, "kind": "shuttle",
                           "name": f"Community Shuttle {shuttle_no}"})
        else:
            spaces.append({"index": index, "kind": "chance", "name": "Chance"})
    return spaces, projects


SPACES, PROJECTS = _build()
SHUTTLES = [s["index"] for s in SPACES if s["kind"] == "shuttle"]
PROJECT_AT = {p["space"]: p["id"] for p in PROJECTS}
PARTNER = {p["id"]: p["id"] ^ 1 for p in PROJECTS}  # the other project of the colour

# --- the Chance deck --------------------------------------------------------------------------
# (kind, count, title, text, amount). Kinds: "free_chip", "remove_chip", "swap" (keep until
# used, 32 in all); "fund_loss" (10, each at most 100) and "go_to_jail" (immediate, 11);
# "jail_free" (1).
_KEEP = [
    ("free_chip", 8, "Volunteer Weekend",
     "Place one of your chips on any open slot of any managed project, free."),
    ("remove_chip", 16, "Recount",
     "Take one rival's chip off any project; it goes back to its owner."),
    ("swap", 8, "Reorganisation",
     "Swap one project you manage for one another player manages; chips stay on them."),
]
_FUND_LOSSES = [  # ten immediate cards, each taking at most FUND_CARD_MAX from the Fund
    ("Burst Water Main", 100), ("Storm Damage", 80), ("Audit Fees", 60), ("Roof Repairs", 60),
    ("Festival Overrun", 50), ("Lost Grant", 50), ("Printing Bill", 40), ("Broken Boiler", 40),
    ("Legal Advice", 30), ("Postage", 20),
]


def _deck() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for kind, count, title, text in _KEEP:
        for _ in range(count):
            cards.append({"kind": kind, "category": "keep", "title": title, "text": text})
    for title, amount in _FUND_LOSSES:
        cards.append({"kind": "fund_loss", "category": "immediate", "title": title,
                      "amount": amount,
                      "text": f"PLAY THIS CARD IMMEDIATELY. The Community Fund pays {amount} "
                              "to the Bank."})
    cards.append({"kind": "go_to_jail", "category": "immediate", "title": "Go to Jail",
                  "text": "PLAY THIS CARD IMMEDIATELY. Go directly to Jail; do not pass GO."})
    cards.append({"kind": "jail_free", "category": "jail_free", "title": "Pardon",
                  "text": "Keep face up until needed; may be traded or sold."})
    for cid, c in enumerate(cards):
        c["id"] = cid
    return cards


CARDS = _deck()
KEEP_KINDS = frozenset(("free_chip", "remove_chip", "swap"))
JAIL_FREE_CARD = next(c["id"] for c in CARDS if c["kind"] == "jail_free")
CARD_KIND = [c["kind"] for c in CARDS]


def describe() -> dict[str, Any]:
    """The whole table as JSON-readable data (the rules page renders from this)."""
    return {
        "fund_start": FUND_START, "wage": WAGE, "min_donation": MIN_DONATION,
        "chip_cost": CHIP_COST, "shuttle_fare": SHUTTLE_FARE, "jail_penalty": JAIL_PENALTY,
        "jail_fee": JAIL_FEE, "jail_turns": JAIL_TURNS, "auction_start": AUCTION_START,
        "auction_step": AUCTION_STEP, "chips_per_seat": CHIPS_PER_SEAT,
        "fund_card_max": FUND_CARD_MAX, "action_faces": list(ACTION_FACES),
        "colours": [dict(c) for c in COLOURS],
        "spaces": [dict(s) for s in SPACES],
        "projects": [dict(p) for p in PROJECTS],
        "cards": [dict(c) for c in CARDS],
    }
