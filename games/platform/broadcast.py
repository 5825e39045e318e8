"""Group messages to the sockets of one table, always sent after the commit.

Nobody may see a state that was rolled back (zulip's send_event_on_commit), so every send goes
through `transaction.on_commit`. The messages carry ids and version numbers only: each consumer
reads the game itself and renders its own seat's view. Each update carries a fresh token: of the
sockets of one process that hear it, the first to claim the token shows it to all of them
(games/platform/table_sockets.py).
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def group_name(code: str) -> str:
    return f"table.{code}"


_held = threading.local()


Deliver = Callable[[str, dict[str, Any]], None]


@contextmanager
def held_updates(deliver: Deliver | None = None) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Hold this thread's group messages until the block ends, then send them (with
    `deliver`, if given: a socket hands them to its event loop without waiting).

    The socket that made a move renders its own board first, under the update's token, and
    only then lets the table hear of it: the mover's push does not queue behind the other
    sockets' (they share its read a moment later). Whatever happens in the block, the held
    messages are sent at its end."""
    messages: list[tuple[str, dict[str, Any]]] = []
    later: list[Callable[[], None]] = []
    _held.messages, _held.later = messages, later
    try:
        yield messages
    finally:
        _held.messages = _held.later = None
        for code, message in messages:
            (deliver or _deliver)(code, message)
        for work in later:
            work()


def after_push(work: Callable[[], None]) -> None:
    """Run `work` now, or, inside `held_updates`, once the held messages are sent.

    For the tasks a move schedules (a bot's turn, the next clock expiry): publishing one to
    Celery costs the web process a millisecond or two, which the mover's own board need not
    wait for. A process that dies in between loses the task, not the move: the periodic sweep
    finds any game whose bot or clock is overdue (games/platform/clocks.py)."""
    held = getattr(_held, "later", None)
    if held is not None:
        held.append(work)
        return
    work()


def _send(code: str, message: dict[str, Any]) -> None:
    held = getattr(_held, "messages", None)
    if held is not None:
        held.append((code, message))
        return
    _deliver(code, message)


def _deliver(code: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(code), message)


# This process, as the listeners of a table's group name theirs (see `listening`).
PROCESS = uuid.uuid4().hex
LISTENING = "table.listening"


def listening(*, socket: bool, reply: bool = False) -> dict[str, Any]:
    """The group message a listener sends when it joins a table's group (`socket`: a table
    socket, which its own process shows every update to directly; otherwise an API stream),
    or, with `reply`, a table's sockets' answer to one from another process. A web process
    sends its sockets' updates to the group only while something else listens to the table
    (games/platform/table_sockets.py): this is how it learns that something does."""
    return {"type": LISTENING, "process": PROCESS, "socket": socket, "reply": reply,
            "token": _token()}


def socket_answers(message: dict[str, Any]) -> bool:
    """Whether a table's sockets answer this group message: a listener in another process
    joined (one in this process is known to them already)."""
    return (message.get("type") == LISTENING and not message.get("reply")
            and message.get("process") != PROCESS)


def stream_answers(message: dict[str, Any]) -> bool:
    """Whether an API stream answers this group message: a table socket joined, in any
    process (its own process's sockets learn of the stream this way too)."""
    return (message.get("type") == LISTENING and not message.get("reply")
            and bool(message.get("socket")))


def _token() -> str:
    """A message's token, unique as a uuid4's hex: 32 random hex digits, without building a
    UUID object (its checks in Python cost more than the randomness, once a move)."""
    return os.urandom(16).hex()


def _update(version: int | None, **extra: Any) -> dict[str, Any]:
    return {"type": "table.update", "version": version, "token": _token(), **extra}


def update(version: int | None) -> dict[str, Any]:
    """A table update's group message (with a token of its own)."""
    return _update(version)


def table_changed_on_commit(code: str, *, version: int | None = None) -> None:
    """Every socket at the table re-renders what changed (seats, host, board)."""
    transaction.on_commit(lambda: _send(code, _update(version)))


def table_changed(code: str, *, version: int | None = None) -> None:
    """`table_changed_on_commit` for a change committed already."""
    _send(code, _update(version))


def chat_posted_on_commit(code: str, message_id: int) -> None:
    transaction.on_commit(lambda: _send(code, {"type": "table.chat", "id": message_id}))


def seat_moved_on_commit(code: str, seat_id: int) -> None:
    """The old device of a moved seat drops to spectator (its identity no longer matches)."""
    transaction.on_commit(lambda: _send(code, _update(None, moved_seat=seat_id)))
