"""Small display helpers for the Chudopoly table templates."""

from __future__ import annotations

from typing import Any

from django import template

from games.chudopoly_board import colour_name as _colour_name
from games.engine.cards import COLOURS

register = template.Library()


@register.filter
def colour_name(key: str | None) -> str:
    return _colour_name(key)


@register.filter
def colour_bg(key: str | None) -> str:
    colour = COLOURS.get(key or "")
    return colour.bg if colour else "#777777"


@register.filter
def card_colours(card: dict[str, Any]) -> list[str]:
    """The colours a card shows: its zone if placed, else every colour it can go in."""
    if card.get("colour"):
        return [card["colour"]]
    return list(card.get("colours") or [])[:2]
