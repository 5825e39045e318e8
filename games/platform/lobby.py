"""Read side of the lobby: what the home page lists, and the broadcast when it changes."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Count

LOBBY_GROUP = "lobby"
PUBLIC_TABLES_SHOWN = 50


def public_tables(game_kind: str | None = None) -> list[dict[str, Any]]:
    """Public tables still open or playing, newest first, for the home page (every game's)
    or a game's page (`game_kind`'s)."""
    from games.platform.interface import get_game
    from games.platform.models import Table

    rows = Table.objects.filter(is_public=True,
                                status__in=[Table.Status.OPEN, Table.Status.PLAYING])
    if game_kind is not None:
        rows = rows.filter(game_kind=game_kind)
    rows = (rows
            .annotate(taken=Count("seats")).select_related("host")
            .order_by("-created_at")[:PUBLIC_TABLES_SHOWN])
    return [
        {
            "code": t.code,
            "url": t.get_absolute_url(),
            "name": f"{t.host.name}’s table" if t.host else f"Table {t.code}",
            "game": get_game(t.game_kind).name,
            "preset": t.ruleset_label or "Custom",
            "seats_taken": t.taken,
            "seats": t.max_seats,
            "running": t.status == Table.Status.PLAYING,
        }
        for t in rows
    ]


def lobby_changed_on_commit() -> None:
    """Tell every open home page to refresh its table list, once the change is committed."""

    def send() -> None:
        async_to_sync(get_channel_layer().group_send)(LOBBY_GROUP, {"type": "lobby.changed"})

    transaction.on_commit(send)
