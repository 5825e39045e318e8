"""Group messages to the sockets of one table, always sent after the commit.

Nobody may see a state that was rolled back (zulip's send_event_on_commit), so every send goes
through `transaction.on_commit`. The messages carry ids and version numbers only: each consumer
reads the game itself and renders its own seat's view. Each update carries a fresh token: the
sockets of one process that hear the same token share one read of the table
(games/snapshot_cache.py).
"""

from __future__ import annotations

import threading
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def group_name(code: str) -> str:
    return f"table.{code}"


_sent = threading.local()


def last_update_token() -> str | None:
    """The token of the last table update this thread sent: the socket that made a move pushes
    its own board under it, sharing the read with the other sockets of the table."""
    return getattr(_sent, "token", None)


def _send(code: str, message: dict[str, Any]) -> None:
    if "token" in message:
        _sent.token = message["token"]
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(code), message)


def _update(version: int | None, **extra: Any) -> dict[str, Any]:
    return {"type": "table.update", "version": version, "token": uuid.uuid4().hex, **extra}


def table_changed_on_commit(code: str, *, version: int | None = None) -> None:
    """Every socket at the table re-renders what changed (seats, host, board)."""
    transaction.on_commit(lambda: _send(code, _update(version)))


def chat_posted_on_commit(code: str, message_id: int) -> None:
    transaction.on_commit(lambda: _send(code, {"type": "table.chat", "id": message_id}))


def seat_moved_on_commit(code: str, seat_id: int) -> None:
    """The old device of a moved seat drops to spectator (its identity no longer matches)."""
    transaction.on_commit(lambda: _send(code, _update(None, moved_seat=seat_id)))
