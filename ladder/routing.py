from __future__ import annotations

from django.urls import path

from ladder import consumers

websocket_urlpatterns = [
    path("ws/queue/", consumers.QueueConsumer.as_asgi()),
]
