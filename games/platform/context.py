"""Template context every page gets: the registered games, for the navigation's rules links."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.platform.interface import get_game, registered_games


def games_nav(request: HttpRequest) -> dict[str, Any]:
    return {"nav_games": [{"key": k, "name": get_game(k).name} for k in registered_games()]}
