from __future__ import annotations

from django.urls import path, re_path

from games.platform import consumers

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    # Any name reaches the consumer, which closes an unknown game's socket with CLOSE_NO_GAME.
    path("ws/lobby/<str:game_kind>/", consumers.LobbyConsumer.as_asgi()),
    re_path(r"^ws/table/(?P<code>[A-Za-z0-9]{4})/$", consumers.TableConsumer.as_asgi()),
]
