"""Finished games for programs (scope game:read), in the export format of docs/export.md.

`GET /api/games/user/<username>`: that account's finished games, newest first, one a line
(NDJSON); `GET /api/game/export/<id>`: one. A running game is never exported: its log holds
every hand, the deck's order and the seed until it ends. Exports are public facts once a game
is over (anyone may download them from its replay page), so any account's may be read.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse

from games.api import ndjson
from games.api.auth import ApiError, api_view, json_response
from games.platform.interface import registered_games
from games.platform.models import Game
from ladder.models import PlayerResult
from ladder.replay import export_game

GAMES_DEFAULT = 50
GAMES_MAX = 300


def _count(raw: str | None) -> int:
    if raw is None or raw == "":
        return GAMES_DEFAULT
    if not raw.isdigit() or not 1 <= int(raw) <= GAMES_MAX:
        raise ApiError(400, f"`max` is a whole number from 1 to {GAMES_MAX}.",
                       code="bad_request")
    return int(raw)


@api_view(methods=("GET",), scopes=("game:read",))
def user_games(request: HttpRequest, username: str) -> HttpResponse:
    """Query: `max` (default 50, at most 300), `game` (one game kind)."""
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        raise ApiError(404, "No account has that name.", code="no_such_account")
    count = _count(request.GET.get("max"))
    kind = request.GET.get("game", "")
    if kind and kind not in registered_games():
        raise ApiError(400, f"`game` is one of {', '.join(registered_games())}.",
                       code="bad_game")
    results = PlayerResult.objects.filter(user_id=user.pk).order_by("-finished_at", "-pk")
    if kind:
        results = results.filter(game_kind=kind)
    ids = list(results.values_list("record__game_id", flat=True)[:count])
    games = {g.pk: g for g in Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED)}
    body = b"".join(ndjson.line(export_game(games[i])) for i in ids if i in games)
    return HttpResponse(body, content_type=ndjson.CONTENT_TYPE)


@api_view(methods=("GET",), scopes=("game:read",))
def game_export(request: HttpRequest, game_id: int) -> HttpResponse:
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        raise ApiError(404, "No finished game has that id.", code="not_found")
    return json_response(export_game(game))
