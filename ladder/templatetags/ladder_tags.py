"""Display helpers for ladder and account pages."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def signed(value: Any) -> str:
    """A rating change as people read it: "+12", "−8", "±0"."""
    if value is None or value == "":
        return ""
    n = round(float(value))
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"−{-n}"
    return "±0"


@register.filter
def ordinal(value: Any) -> str:
    try:
        n = int(value)
    except (TypeError, ValueError):
        return ""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@register.filter
def rounded(value: Any) -> str:
    if value is None:
        return ""
    return str(round(float(value)))
