"""Filters for the home page's table lists."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template

register = template.Library()


@register.filter
def waiting(tables: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Public tables still waiting for players (sit down)."""
    return [t for t in tables if not t.get("running")]


@register.filter
def in_progress(tables: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Public tables whose game is under way (watch)."""
    return [t for t in tables if t.get("running")]
