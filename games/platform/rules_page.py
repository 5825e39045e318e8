"""The rules pages: /rules/<game> is each game's own page (its template and data, from the
game interface); /rules lists them all (game_pages.rules_index). The platform adds what it
decides itself: the clock limits."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.platform import services
from games.platform.interface import default_game, get_game, registered_games


def clock_limits() -> dict[str, Any]:
    return {
        "turn_default": services.TURN_SECONDS_DEFAULT,
        "turn_max": services.TURN_SECONDS_MAX,
        "turn_min": services.TURN_SECONDS_MIN_HUMANS,
        "response_default": services.RESPONSE_SECONDS_DEFAULT,
        "response_max": services.RESPONSE_SECONDS_MAX,
        "response_min": services.RESPONSE_SECONDS_MIN_HUMANS,
    }


def rules_context(game_kind: str | None = None) -> dict[str, Any]:
    engine = get_game(game_kind or default_game())
    return {**engine.rules_context(), "clocks": clock_limits(), "game_name": engine.name}


@require_safe
def rules(request: HttpRequest, game_kind: str) -> HttpResponse:
    if game_kind not in registered_games():
        return _further_page(request, game_kind)
    engine = get_game(game_kind)
    return render(request, engine.rules_template, rules_context(engine.key))


def _further_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's further rules page (Chudopoly's "Monopoly Deal" page): a game may list some in
    an optional `rules_pages` attribute (slug -> template) with `rules_page_context(slug)`."""
    for key in registered_games():
        engine = get_game(key)
        template = getattr(engine, "rules_pages", {}).get(slug)
        if template:
            context = {**engine.rules_page_context(slug), "clocks": clock_limits(),
                       "game_name": engine.name}
            return render(request, template, context)
    raise Http404("No such game")
