from __future__ import annotations

from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
]
