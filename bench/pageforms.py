"""The forms of a board game's decision panel that compose a move from what a player fills
in, read the way a player reads them: Boardroom's trade forms (a swap, a sale, a tile put up
for auction) and Commonwealth's deal offers and free amounts (a bid, a GO gift, a Jail
pledge). The page's buttons carry whole actions; these forms carry a base action in a hidden
input and the rest in their fields, and sending the bare base is refused.

Each form becomes one move for bench/liveplay.py's scripted seat: {"action": ..., "fields":
{...}?}, "fields" being what htmx's ws-send posts beside the action (Boardroom's named
fields: take, give, cash, start); Commonwealth's script (games/commonwealth/static/
commonwealth/board.js) writes its fields into the action itself, and so does this module.
"""

from __future__ import annotations

import functools
import html
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

# Forms whose hidden "action" is only a base (the page marks them so for its own scripts).
COMPOSED_CLASSES = ("br-trade-form", "cw-compose")
_FORM_RE = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
_SELECT_RE = re.compile(r"<select\b([^>]*)>(.*?)</select>", re.S)
_OPTION_RE = re.compile(r"<option\b([^>]*)>")
_INPUT_RE = re.compile(r"<input\b([^>]*)>")
_ATTR_RE = re.compile(r"""([a-zA-Z][\w-]*)(?:=(?:"([^"]*)"|'([^']*)'))?""")


@dataclass
class Form:
    """One composed form: its classes, its base action, and its fields."""

    classes: set[str]
    base: dict[str, Any]
    selects: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # name -> options
    inputs: list[dict[str, str]] = field(default_factory=list)  # visible inputs' attributes

    def inputs_at(self, path: str) -> list[dict[str, str]]:
        return [i for i in self.inputs if i.get("data-path") == path]

    def number(self, key: str, value: str) -> dict[str, str] | None:
        return next((i for i in self.inputs if i.get(key) == value), None)


def _attrs(text: str) -> dict[str, str]:
    out = {}
    for m in _ATTR_RE.finditer(text):
        raw = m.group(2) if m.group(2) is not None else m.group(3)
        out[m.group(1)] = html.unescape(raw) if raw is not None else ""
    return out


def strip_composed(fragment: str) -> str:
    """The fragment without its composed forms: their bases are not moves by themselves."""
    if not any(c in fragment for c in COMPOSED_CLASSES):
        return fragment
    return _FORM_RE.sub(lambda m: "" if _is_composed(m.group(1)) else m.group(0), fragment)


def _is_composed(form_attrs: str) -> bool:
    classes = _attrs(form_attrs).get("class", "").split()
    return any(c in classes for c in COMPOSED_CLASSES)


@functools.lru_cache(maxsize=2048)
def forms_in(fragment: str) -> tuple[Form, ...]:
    """Every composed form of a fragment (kept by its text, as liveplay's actions are)."""
    found = []
    for m in _FORM_RE.finditer(fragment):
        classes = set(_attrs(m.group(1)).get("class", "").split())
        if not classes & set(COMPOSED_CLASSES):
            continue
        body = m.group(2)
        form = Form(classes=classes, base={})
        for select in _SELECT_RE.finditer(body):
            name = _attrs(select.group(1)).get("name")
            if name:
                form.selects[name] = [_attrs(o) for o in _OPTION_RE.findall(select.group(2))]
        for raw in _INPUT_RE.findall(body):
            a = _attrs(raw)
            if a.get("type") != "hidden":
                form.inputs.append(a)
            elif a.get("name") == "action":
                form.base = json.loads(a.get("value") or "{}")
        if "type" in form.base:
            found.append(form)
    return tuple(found)


def _int(text: str | None, default: int = 0) -> int:
    try:
        return int(text or "")
    except ValueError:
        return default


def _between(rng: random.Random, low: int, high: int, step: int = 1) -> int:
    """A value a player might type: low..high in steps, leaning to the low end."""
    if high <= low:
        return low
    top = low + (high - low) // 3 // step * step if high - low > 3 * step else high
    return low + rng.randrange(0, (top - low) // step + 1) * step


class Memory:
    """What one seat remembers of its own offers: Boardroom refuses the same tiles between
    the same seats again unless the offer got better by a margin the page does not show, so a
    player who was refused makes a different offer (never the same tiles twice)."""

    def __init__(self) -> None:
        self.offered: set[tuple[Any, ...]] = set()


_SEAT_CASH_RE = re.compile(r'id="player-(\d+)"[^>]*>.*?\bdata-deal-cash="(\d+)"', re.S)


def cash_by_seat(players: str) -> dict[int, int]:
    """What each seat may hand over in a deal now, in a players panel (#player-N's
    data-deal-cash: its cash less what the rules make it keep): where a Commonwealth deal
    form's cash field (data-cash-of) takes its limit, as the page's board.js does."""
    return {int(seat): int(cash) for seat, cash in _SEAT_CASH_RE.findall(players)}


def compose(form: Form, rng: random.Random, memory: Memory,
            cash: dict[int, int] | None = None) -> dict[str, Any] | None:
    """One move filled in from a composed form, or None when this form has nothing left to
    offer (every choice already tried). `cash`: each seat's, from the players panel."""
    t = form.base["type"]
    if "swap-form" in form.classes:
        return _swap(form, rng, memory)
    if "sell-form" in form.classes:
        return _sale(form, rng, memory)
    if "lot-form" in form.classes:
        start = form.number("name", "start")
        if start is None:
            return None
        value = _between(rng, _int(start.get("min")), _int(start.get("max")),
                         max(1, _int(start.get("step"), 1)))
        return {"action": dict(form.base), "fields": {"start": str(value)}}
    if t == "offer":
        return _deal(form, rng, cash or {})
    amount = form.number("data-path", "amount")
    if amount is not None:
        low, high = _int(amount.get("min")), _int(amount.get("max"))
        step = max(1, _int(amount.get("step"), 1))
        return {"action": {**form.base, "amount": _between(rng, low, high, step)}}
    return None


def _swap(form: Form, rng: random.Random, memory: Memory) -> dict[str, Any] | None:
    to = form.base.get("to")
    cash_box = form.number("name", "cash")
    cash_max = _int(cash_box.get("max")) if cash_box else 0
    takes = [o["value"] for o in form.selects.get("take", []) if o.get("value")]
    gives = [o.get("value", "") for o in form.selects.get("give", [])]
    choices = [(take, give) for take in takes for give in gives
               if ("swap", to, take, give) not in memory.offered
               and (give or cash_max > 0)]
    if not choices:
        return None
    take, give = rng.choice(choices)
    cash = _between(rng, 0 if give else 1, min(cash_max, 300))
    memory.offered.add(("swap", to, take, give))
    return {"action": dict(form.base), "fields": {"take": take, "give": give,
                                                  "cash": str(cash)}}


def _sale(form: Form, rng: random.Random, memory: Memory) -> dict[str, Any] | None:
    to = form.base.get("to")
    cash_box = form.number("name", "cash")
    cash_max = _int(cash_box.get("max")) if cash_box else 0
    gives = [o for o in form.selects.get("give", [])
             if o.get("value") and ("sell", to, o["value"]) not in memory.offered
             and _int(o.get("data-min")) <= cash_max]
    if not gives:
        return None
    give = rng.choice(gives)
    cash = _between(rng, _int(give.get("data-min")), cash_max)
    memory.offered.add(("sell", to, give["value"]))
    return {"action": dict(form.base), "fields": {"give": give["value"], "cash": str(cash)}}


def _deal(form: Form, rng: random.Random, cash: dict[int, int]) -> dict[str, Any] | None:
    """A deal as board.js builds it from the ticked boxes and typed amounts: something from
    each side where it can, and always a project or the Pardon card (the form cannot be sent
    with cash alone, which is no deal)."""
    action = {**form.base, "give": {"projects": [], "cash": 0, "jail_card": False},
              "get": {"projects": [], "cash": 0, "jail_card": False}}
    for side in ("give", "get"):
        projects = [_int(i.get("value")) for i in form.inputs_at(f"{side}.projects")]
        cash_box = form.inputs_at(f"{side}.cash")
        cash_max = 0
        if cash_box:
            limit = cash_box[0].get("max")
            cash_max = (_int(limit) if limit is not None
                        else cash.get(_int(cash_box[0].get("data-cash-of"), -1), 0))
        card = form.inputs_at(f"{side}.jail_card")
        pick = rng.random()
        if projects and pick < 0.45:
            action[side]["projects"] = [rng.choice(projects)]
        elif card and pick < 0.55:
            action[side]["jail_card"] = True
        elif cash_max > 0 and pick < 0.9:
            action[side]["cash"] = _between(rng, 1, min(cash_max, 150))
    if not any(action[s][k] for s in ("give", "get") for k in ("projects", "jail_card")):
        goods = [(side, "projects", _int(i.get("value"))) for side in ("give", "get")
                 for i in form.inputs_at(f"{side}.projects")]
        goods += [(side, "jail_card", True) for side in ("give", "get")
                  if form.inputs_at(f"{side}.jail_card")]
        if not goods:
            return None
        side, key, value = rng.choice(goods)
        action[side][key] = [value] if key == "projects" else value
    return {"action": action}
