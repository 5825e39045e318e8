"""Group messages to open queue pages, always sent after the commit.

Messages carry ids only; each queue socket reads its own ticket and renders its own status.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def queue_group(queue_id: int) -> str:
    return f"queue.q{queue_id}"


def ticket_group(ticket_id: int) -> str:
    return f"queue.t{ticket_id}"


def queue_changed_on_commit(queue_id: int) -> None:
    """Every page waiting in this queue re-renders its status (count, waited time, window)."""
    transaction.on_commit(lambda: _send(queue_group(queue_id), {"type": "queue.update"}))


def queue_changed_now(queue_id: int) -> None:
    _send(queue_group(queue_id), {"type": "queue.update"})


def ticket_matched_on_commit(ticket_id: int) -> None:
    """The pages of a matched ticket go to the new table."""
    transaction.on_commit(lambda: _send(ticket_group(ticket_id), {"type": "queue.matched"}))
