"""Read side of the lobby: what the home page lists, and the broadcast when it changes."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_GROUP = "lobby"


def public_tables() -> list[dict[str, Any]]:
    """Public tables for the home page; filled in by the tables app as it grows."""
    return []


def lobby_changed_on_commit() -> None:
    """Tell every open home page to refresh its table list, once the change is committed."""

    def send() -> None:
        async_to_sync(get_channel_layer().group_send)(LOBBY_GROUP, {"type": "lobby.changed"})

    transaction.on_commit(send)
