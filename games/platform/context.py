"""Template context every page gets: the registered games, for the navigation and the footer."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.platform.interface import get_game, registered_games

_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _listed(names: list[str]) -> str:
    """"A, B and C"."""
    return names[0] if len(names) < 2 else f"{', '.join(names[:-1])} and {names[-1]}"


def games_nav(request: HttpRequest) -> dict[str, Any]:
    names = [get_game(k).name for k in registered_games()]
    return {"nav_games": [{"key": k, "name": n} for k, n in zip(registered_games(), names,
                                                                strict=True)],
            "site_games": _listed(names),
            "site_games_count": _COUNTS.get(len(names), str(len(names)))}
