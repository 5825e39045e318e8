"""The site's pages about its games: the home page's cards, each game's own page
(/games/<key>/) and the rules index (/rules). Everything comes from the game registry, so a
game added to the site gets its card, its page and its rules entry without a line here."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from chudopoly_site.errors import page_not_found
from games.platform import services
from games.platform.identity import viewer_from_request
from games.platform.interface import (
    game_picture,
    game_pitch,
    game_tagline,
    get_game,
    quick_play_words,
    registered_games,
)
from games.platform.lobby import public_tables

LADDER_TOP = 3  # players shown per ladder on a game's page


def game_entry(kind: str) -> dict[str, Any]:
    """What every page says of one game: name, pitch, picture, size and its addresses."""
    engine = get_game(kind)
    return {
        "key": kind, "name": engine.name, "pitch": game_pitch(engine),
        "tagline": game_tagline(engine),
        "picture": game_picture(engine), "quick_play_words": quick_play_words(engine),
        "players": f"{engine.min_seats}–{engine.max_seats} players",
        "url": reverse("games:game", args=[kind]),
        "rules_url": reverse("games:game_rules", args=[kind]),
        "queue_url": f"{reverse('ladder:queue')}?game={kind}",
    }


def game_entries() -> list[dict[str, Any]]:
    return [game_entry(kind) for kind in registered_games()]


def _ladder_tops(kind: str) -> list[dict[str, Any]]:
    """Each ladder of the game with its first players (ranked, then provisional)."""
    # The ladder app builds on the platform; asked here, at request time, like the table
    # page's ratings (presenters), so the platform's modules load without it.
    from ladder import queries
    from ladder.services import ladder_title, ladders

    return [{"name": ladder_title(kind, key), "url": queries.leaderboard_url(kind, key),
             "top": queries.ladder_top(key, kind, LADDER_TOP)}
            for key in ladders(kind)]


@require_safe
def game_page(request: HttpRequest, game_kind: str) -> HttpResponse:
    """One game: start it (Quick Play, bots and rules of your choice, a table, a quick match),
    its open tables and games to watch, its ladders and its rules."""
    if game_kind not in registered_games():
        return page_not_found(request)
    mine = services.games_to_continue(viewer_from_request(request))
    return render(request, "games/game_page.html", {
        "game": game_entry(game_kind), "tables": public_tables(game_kind),
        "ladders": _ladder_tops(game_kind),
        "continue_games": [g for g in mine if g["table"].game_kind == game_kind],
    })


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    """/rules: every game's rules page, one entry each."""
    return render(request, "games/rules_index.html", {"games": game_entries()})
