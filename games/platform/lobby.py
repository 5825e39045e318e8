"""Read side of the lobby: what the home page and each game's page list, and the broadcast
when it changes."""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Count
from django.template.loader import render_to_string

from games.platform.recent_reads import recent_reads

LOBBY_GROUP = "lobby"
PUBLIC_TABLES_SHOWN = 50
# Lists rendered for recent changes, by (game kind or None, change): a few changes' worth, as
# the sockets of a process may be handed two changes' messages interleaved.
RENDERS_KEPT = 16


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


def public_tables_html(game_kind: str | None, change: str | None = None, *,
                       max_age: float = 0.0) -> str:
    """The list as a socket swaps it into its page (out of band, onto `#public-tables`): one
    game's tables for its page, every game's for the home page (`game_kind` None).

    Every lobby socket of a process hears the same change, so the list of a change is read
    and rendered once per process and kind and the string shared. `change` None (a socket's
    heartbeat): the list this process read for the kind less than `max_age` seconds ago, for
    a change or another socket's heartbeat (games/platform/recent_reads.py), else afresh."""
    if change is None:
        html = recent_reads.fresh(("lobby", game_kind), max_age) if max_age > 0 else None
        if html is None:
            html = _render_noted(game_kind)
        return html
    key = (game_kind, change)
    with _renders_lock:  # rendering under the lock: a second socket waits for the string
        html = _renders.get(key)
        if html is None:
            html = _renders[key] = _render_noted(game_kind)
            while len(_renders) > RENDERS_KEPT:
                _renders.popitem(last=False)
        return html


def _render_noted(game_kind: str | None) -> str:
    read_at = time.monotonic()
    html = _render(game_kind)
    recent_reads.note(("lobby", game_kind), html, read_at)
    return html


_renders: OrderedDict[tuple[str | None, str], str] = OrderedDict()
_renders_lock = threading.Lock()


def _render(game_kind: str | None) -> str:
    # `game` set: the list leaves out each table's game name, as the game's page does.
    return render_to_string("games/_public_tables.html", {
        "tables": public_tables(game_kind), "game": game_kind, "oob": True})


def lobby_changed_on_commit(game_kind: str | None = None) -> None:
    """Tell every open list of public tables (the home page's, and `game_kind`'s page's, or
    every game's page's when None) to refresh, once the change is committed."""
    message = {"type": "lobby.changed", "change": uuid.uuid4().hex, "game_kind": game_kind}

    def send() -> None:
        async_to_sync(get_channel_layer().group_send)(LOBBY_GROUP, message)

    transaction.on_commit(send)
