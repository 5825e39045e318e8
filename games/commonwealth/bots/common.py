"""What the medium and hard bots both read from a view: whose chips, whose projects, money."""

from __future__ import annotations

from typing import Any

from games.commonwealth.engine import data


def me(view: dict[str, Any]) -> dict[str, Any]:
    return view["players"][view["viewer"]]


def placed(view: dict[str, Any], seat: int) -> int:
    return view["players"][seat]["placed"]


def leader(view: dict[str, Any], exclude: int | None = None) -> int:
    """The rival with most chips placed (ties: the earlier seat)."""
    seats = [p["seat"] for p in view["players"] if p["seat"] != exclude]
    return max(seats, key=lambda s: (placed(view, s), -s))


def mine(view: dict[str, Any], seat: int | None = None) -> list[int]:
    seat = view["viewer"] if seat is None else seat
    return [p["id"] for p in view["projects"] if p["manager"] == seat]


def partner_manager(view: dict[str, Any], pid: int) -> int | None:
    return view["projects"][data.PARTNER[pid]]["manager"]


def open_own(view: dict[str, Any]) -> list[int]:
    return [pid for pid in mine(view) if view["projects"][pid]["open"] > 0]


def of_type(view: dict[str, Any], t: str) -> list[dict[str, Any]]:
    return [a for a in view["legal"] if a["type"] == t]


def project_value(view: dict[str, Any], pid: int, seat: int) -> int:
    """What managing `pid` is worth to `seat`: its price, its open slots (self-development
    room), and the payout doubling when the seat would hold both of the colour."""
    pr = data.PROJECTS[pid]
    value = pr["price"] + 10 * view["projects"][pid]["open"]
    if partner_manager(view, pid) == seat:
        value += 2 * pr["payout"]
    return value
