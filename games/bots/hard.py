"""Placeholder while the search bot is written."""

from __future__ import annotations

from typing import Any

from . import medium


def choose_action(view: dict[str, Any]) -> dict[str, Any]:
    return medium.choose_action(view)
