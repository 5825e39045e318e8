"""The table websocket's frame format, validated strictly before anything else happens.

Browsers send JSON text frames. htmx's `ws-send` posts a form's fields as a JSON object (plus
a `HEADERS` object, which we ignore), so the format is built from form fields:

    {"kind": "act",  "action": <object or JSON text>, "expected_version": <int>,
     optional "decision": the page's token of what this seat was deciding (a move from an
        older version is still applied while that token holds: games/services.table_move),
     ...optional fields that fill in the action: "cards" (ids), "colour", "target",
        "take", "give", "answer"}
    {"kind": "chat", "text": "..."}

`action` is usually one of the legal actions the page rendered (a JSON string in a hidden input
or a <select> option); the optional fields let a form compose a payment or a discard from
checkboxes. A frame may also carry `seat`; it must then be the connection's own seat (a forged
seat is refused). Anything else — too big, not JSON, unknown keys, wrong types — is refused
with a reason and changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

MAX_FRAME_BYTES = 8 * 1024
MAX_CARDS = 64
TOP_LEVEL_KEYS = frozenset({"kind", "action", "expected_version", "decision", "seat", "cards",
                            "colour", "target", "take", "give", "answer", "cash", "start",
                            "text", "HEADERS"})
# The union of every game's action fields (Boardroom adds tile, amount, accept, kind, to, cash
# and start; Commonwealth project, seat, mine, theirs, first and a deal's two sides, give and
# get). Keys only the site's clocks may set (Boardroom's "clock") are never accepted.
ACTION_KEYS = frozenset({"type", "card", "colour", "target", "take", "give", "answer", "cards",
                         "tile", "amount", "accept", "kind", "to", "cash", "start",
                         "project", "seat", "mine", "theirs", "first", "get"})
INT_KEYS = ("card", "target", "take", "give", "tile", "amount", "to", "cash", "start",
            "project", "seat", "mine", "theirs")
NULLABLE_KEYS = ("take", "give", "card")  # "no tile" in a trade, "no card" kept
BOOL_KEYS = ("accept",)
STR_KEYS = ("colour", "answer", "type", "kind", "first")
SIDE_KEYS = ("give", "get")  # as an object: one side of a deal (projects, cash, jail_card)
FILL_KEYS = ("cards", "colour", "target", "take", "give", "answer", "cash", "start")


class FrameError(Exception):
    def __init__(self, message: str, code: str = "malformed") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass
class Frame:
    kind: str
    action: dict[str, Any] = field(default_factory=dict)
    expected_version: int = -1
    seat: int | None = None
    text: str = ""
    decision: str | None = None  # games/services.decision_token, as the page showed it


def _as_int(value: Any, name: str) -> int:
    if isinstance(value, bool):
        raise FrameError(f"{name} must be a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 12:
        return int(value.strip())
    raise FrameError(f"{name} must be a whole number")


def _storable(value: str) -> bool:
    """Text PostgreSQL can store: no NUL, no lone surrogates (JSON's "\\ud800" makes one)."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _as_str(value: Any, name: str, limit: int = 40) -> str:
    if not isinstance(value, str) or not value or len(value) > limit or not _storable(value):
        raise FrameError(f"{name} must be a short text")
    return value


def _int_list(value: Any, name: str) -> list[int]:
    if value is None or value == "":
        return []
    if not isinstance(value, list):
        value = [value]  # one checked box arrives as a bare value
    if len(value) > MAX_CARDS:
        raise FrameError(f"Too many {name}")
    return [_as_int(v, name) for v in value]


def _deal_side(value: dict[str, Any], name: str) -> dict[str, Any]:
    """One side of a deal: {"projects": [ids], "cash": n, "jail_card": bool}, each optional."""
    unknown = set(value) - {"projects", "cash", "jail_card"}
    if unknown:
        raise FrameError(f"Unknown field in {name}: {sorted(unknown)[0]}")
    side: dict[str, Any] = {}
    if "projects" in value:
        side["projects"] = _int_list(value["projects"], "projects")
    if "cash" in value:
        side["cash"] = _as_int(value["cash"], "cash")
    if "jail_card" in value:
        if not isinstance(value["jail_card"], bool):
            raise FrameError("jail_card must be true or false")
        side["jail_card"] = value["jail_card"]
    return side


def _clean_action(raw: Any) -> dict[str, Any]:
    if isinstance(raw, str):
        if len(raw) > MAX_FRAME_BYTES:
            raise FrameError("The action is too large")
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):  # "[[[[…" nests past the recursion limit
            raise FrameError("The action is not valid JSON") from None
    if not isinstance(raw, dict):
        raise FrameError("The action must be an object")
    unknown = set(raw) - ACTION_KEYS
    if unknown:
        raise FrameError(f"Unknown action field: {sorted(unknown)[0]}")
    if "type" not in raw:
        raise FrameError("The action needs a type")
    action: dict[str, Any] = {}
    for key, value in raw.items():
        if key in NULLABLE_KEYS and value is None:
            action[key] = None
        elif key in SIDE_KEYS and isinstance(value, dict):
            action[key] = _deal_side(value, key)
        elif key == "get":
            raise FrameError("get must be one side of a deal (projects, cash, jail_card)")
        elif key in BOOL_KEYS:
            if not isinstance(value, bool):
                raise FrameError(f"{key} must be true or false")
            action[key] = value
        elif key in INT_KEYS:
            action[key] = _as_int(value, key)
        elif key in STR_KEYS:
            action[key] = _as_str(value, key)
        elif key == "cards":
            action[key] = _int_list(value, "cards")
    return action


def parse_frame(text: str | None, bytes_data: bytes | None = None) -> Frame:
    """Parse and validate one frame, or raise FrameError with a reason for the sender."""
    if bytes_data is not None or text is None:
        raise FrameError("Send text frames only")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise FrameError("That message is too large", code="oversized")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # 8 KiB of "[" nests past the recursion limit
        raise FrameError("That message is not valid JSON") from None
    if not isinstance(data, dict):
        raise FrameError("A message must be a JSON object")
    unknown = set(data) - TOP_LEVEL_KEYS
    if unknown:
        raise FrameError(f"Unknown field: {sorted(unknown)[0]}")
    kind = data.get("kind", "act")
    seat = _as_int(data["seat"], "seat") if data.get("seat") not in (None, "") else None
    if kind == "chat":
        text_value = data.get("text")
        if not isinstance(text_value, str):
            raise FrameError("Chat text is missing")
        if not _storable(text_value):
            raise FrameError("Chat text holds characters that cannot be shown")
        return Frame(kind="chat", text=text_value, seat=seat)
    if kind != "act":
        raise FrameError("Unknown kind of message")
    if "action" not in data:
        raise FrameError("The move is missing")
    if "expected_version" not in data:
        raise FrameError("expected_version is missing")
    action = _clean_action(data["action"])
    for key in FILL_KEYS:
        if key in data and data[key] not in (None, ""):
            if key == "cards":
                action["cards"] = _int_list(data[key], "cards")
            elif key in INT_KEYS:
                action[key] = _as_int(data[key], key)
            else:
                action[key] = _as_str(data[key], key)
    if action["type"] in ("pay", "discard", "accept_pay") and "cards" not in action:
        action["cards"] = []  # a form with nothing ticked sends no "cards" field at all
    version = _as_int(data["expected_version"], "expected_version")
    # Empty: a spectator's page, or a seat with nothing to decide.
    raw = data.get("decision")
    decision = None if raw in (None, "") else _as_str(raw, "decision", limit=64)
    return Frame(kind="act", action=action, expected_version=version, seat=seat,
                 decision=decision)
