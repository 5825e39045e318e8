"""Every /api/ endpoint (docs/api.md; their description: games/api/openapi.py)."""

from __future__ import annotations

from django.urls import path, re_path

from challenges import api as challenges
from challenges import event_stream
from games.api import account, errors, export, game_stream, moves, openapi

app_name = "api"

urlpatterns = [
    path("openapi.json", openapi.openapi_json, name="openapi"),
    path("account", account.account, name="account"),
    path("challenge", challenges.challenge_list, name="challenge_list"),
    path("challenge/<int:challenge_id>/<str:answer>", challenges.challenge_answer,
         name="challenge_answer"),
    path("challenge/<str:username>", challenges.challenge_create, name="challenge_create"),
    path("stream/event", event_stream.event_stream, name="stream_event"),
    path("bot/game/stream/<str:ref>", game_stream.game_stream, name="game_stream"),
    path("bot/queue/<str:game_kind>", challenges.bot_queue, name="bot_queue"),
    path("bot/queue/<str:game_kind>/leave", challenges.bot_queue_leave, name="bot_queue_leave"),
    path("bot/game/<str:ref>/move", moves.move, name="game_move"),
    path("bot/game/<str:ref>/chat", moves.chat, name="game_chat"),
    path("bot/game/<str:ref>/resign", moves.resign, name="game_resign"),
    path("games/user/<str:username>", export.user_games, name="user_games"),
    path("game/export/<int:game_id>", export.game_export, name="game_export"),
    # Last: any other /api/ path is a JSON 404, not the site's page.
    re_path(r"^.*$", errors.not_found, name="not_found"),
]
