"""Websocket consumers: thin; they parse, call services and push rendered partials."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string

from games.lobby import LOBBY_GROUP, public_tables


class LobbyConsumer(WebsocketConsumer):
    """Keeps the home page's list of public tables live (htmx ws out-of-band swap)."""

    def connect(self) -> None:
        async_to_sync(self.channel_layer.group_add)(LOBBY_GROUP, self.channel_name)
        self.accept()

    def disconnect(self, code: int) -> None:
        async_to_sync(self.channel_layer.group_discard)(LOBBY_GROUP, self.channel_name)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The lobby socket is push-only; anything the browser sends is ignored.
        return

    def lobby_changed(self, event: dict[str, Any]) -> None:
        html = render_to_string("games/_public_tables.html",
                                {"tables": public_tables(), "oob": True})
        self.send(text_data=html)
