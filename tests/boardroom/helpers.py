"""Small helpers so the rule tests read like the rules."""

from __future__ import annotations

from typing import Any

from games.boardroom.engine import apply, legal_actions


def act(st: dict[str, Any], seat: int, type_: str | None = None, **kw: Any) -> dict[str, Any]:
    """The state after `seat` plays {"type": type_, **kw} (or `kw` alone when it has a type)."""
    return apply(st, seat, {"type": type_, **kw} if type_ else kw).state


def act_ev(st: dict[str, Any], seat: int, type_: str, **kw: Any
           ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    applied = apply(st, seat, {"type": type_, **kw})
    return applied.state, applied.events


def types(st: dict[str, Any], seat: int) -> set[str]:
    return {a["type"] for a in legal_actions(st, seat)}


def family(st: dict[str, Any], seat: int, type_: str, **match: Any) -> dict[str, Any] | None:
    for a in legal_actions(st, seat):
        if a["type"] == type_ and all(a.get(k) == v for k, v in match.items()):
            return a
    return None
