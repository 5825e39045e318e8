"""GET /api/bot/game/stream/<game id or table code>: one game for the token's seat, as NDJSON.

The stream listens on the table's channel-layer group, the one the table's sockets hear
(games/platform/broadcast.py): each group message says only that something changed, and the
stream reads the game again and sends the seat a `gameState` when what it shows changed (a
chat line becomes a `chatLine`). It opens with `gameFull` (the whole current state), so a
client that lost its connection (a web restart) opens it again and is up to date; `?since=`
is not needed. A quiet stream sends an empty line every KEEP_ALIVE_SECONDS, and then reads
the game once anyway: a group message lost on the way (Redis restarted) costs a few seconds,
never the game. The stream ends after the game's last `gameState`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.http import HttpRequest, HttpResponse

from games.api import ndjson
from games.api.auth import api_view
from games.api.game_state import GameRead, game_full, game_state, read_game, running
from games.api.seats import ApiSeat, held_seat
from games.platform.broadcast import group_name, listening, stream_answers
from games.platform.models import ChatMessage
from games.platform.services import seat_return

KEEP_ALIVE_SECONDS = 7.0
# Group messages waiting for the stream; past this the oldest are dropped (each only says
# "read again", so one is as good as many).
INBOX_SIZE = 64
CANCEL_TRIES = 10

log = logging.getLogger(__name__)


@api_view(methods=("GET",), scopes=("bot:play",))
async def game_stream(request: HttpRequest, ref: str) -> HttpResponse:
    # The request's own reads, as any view's (its connection is let go when it ends); the
    # stream's later reads each let theirs go (database_sync_to_async), so a stream open for
    # hours holds no connection.
    seat = await sync_to_async(held_seat)(request.user, ref)
    # The program is here: a seat a bot held while it was away (timed out, left) is its own
    # again, as a browser's table socket takes it back (games/platform/clocks.py). A HEAD
    # only asks, and changes nothing.
    if seat.away and request.method == "GET":
        await sync_to_async(seat_return)(table_id=seat.table_id, viewer=seat.viewer)
    return ndjson.stream_response(request, lambda: seat_events(seat))


def _holds(read: GameRead, seat: ApiSeat) -> bool:
    """Whether the account still holds the seat (it may have moved to another device)."""
    players = read.game.players or []
    seat_id = players[seat.seat].get("seat_id") if seat.seat < len(players) else None
    row = next((s for s in read.seats if s.pk == seat_id), None)
    return row is not None and row.game_seat == seat.seat and seat.viewer.owns(row)


# The reads of a game that the streams of this process share, by (game id, update token):
# every stream of a table hears each update with the same token (games/platform/broadcast.py),
# and one read of the game, made after the update's commit, serves them all. The read is a
# task of its own, so a stream that closes meanwhile does not cancel it for the others.
_shared_reads: dict[tuple[int, str], asyncio.Task[GameRead | None]] = {}
SHARED_READ_KEPT_SECONDS = 5.0


def _forget_read(key: tuple[int, str], task: asyncio.Task[GameRead | None]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved here too: every stream awaiting it may have closed
    asyncio.get_running_loop().call_later(SHARED_READ_KEPT_SECONDS, _shared_reads.pop,
                                          key, None)


async def game_read(game_id: int, token: str | None = None) -> GameRead | None:
    """The game as it is now, read once for every stream here that heard update `token`."""
    if not token:
        return await database_sync_to_async(read_game)(game_id)
    key = (game_id, token)
    task = _shared_reads.get(key)
    if task is None:
        task = asyncio.get_running_loop().create_task(
            database_sync_to_async(read_game)(game_id))
        _shared_reads[key] = task
        task.add_done_callback(lambda done: _forget_read(key, done))
    return await asyncio.shield(task)


def _chat_line(table_id: int, message_id: Any) -> dict[str, Any] | None:
    message = ChatMessage.objects.filter(pk=message_id, table_id=table_id).first()
    if message is None:
        return None
    return {"type": "chatLine", "username": message.name, "text": message.text,
            "at": message.created_at.isoformat()}


class _Inbox:
    """The stream's channel on the layer, read by a task of its own into a local queue: the
    stream waits on the queue with a timeout (for the keep-alive), never on the layer, whose
    receive must not be cancelled mid-way (channels-redis's pub/sub layer unsubscribes the
    channel when it is)."""

    def __init__(self, group: str) -> None:
        self.group = group
        self.layer = get_channel_layer()
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=INBOX_SIZE)
        self.channel = ""
        self.reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        if self.layer is None:
            return
        self.channel = await self.layer.new_channel("api-stream.")
        await self.layer.group_add(self.group, self.channel)
        await self.announce()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def rejoin(self) -> None:
        """Join the group again: a restarted Redis forgot who was in it."""
        if self.layer is not None and self.channel:
            await self.layer.group_add(self.group, self.channel)
            await self.announce()

    async def announce(self, *, reply: bool = False) -> None:
        """Tell the table's sockets that this stream listens: a web process sends their
        updates to the group only while something besides them does
        (games/platform/table_sockets.py)."""
        if self.layer is not None:
            await self.layer.group_send(self.group, listening(socket=False, reply=reply))

    async def _read(self) -> None:
        assert self.layer is not None
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer lost Redis: the keep-alive reads catch up
                log.warning("an API stream's channel could not be read", exc_info=True)
                await asyncio.sleep(1.0)
                continue
            if self.queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    self.queue.get_nowait()
            self.queue.put_nowait(message)

    async def next(self, timeout: float) -> dict[str, Any] | None:
        """The next group message, or None after `timeout` seconds of quiet."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None

    async def close(self) -> None:
        if self.reader is not None:
            # A channel-layer receive may swallow one cancellation (channels-redis in a
            # blocking read; see tests/conftest.py): cancel until it ends, never wait on it.
            for _ in range(CANCEL_TRIES):
                if self.reader.done():
                    break
                self.reader.cancel()
                await asyncio.wait({self.reader}, timeout=0.2)
        if self.layer is not None and self.channel:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(self.group, self.channel)


async def seat_events(seat: ApiSeat, *,
                      keep_alive_seconds: float | None = None) -> AsyncIterator[bytes]:
    """The NDJSON lines of one seat's game stream (see the module's docstring)."""
    quiet = KEEP_ALIVE_SECONDS if keep_alive_seconds is None else keep_alive_seconds
    inbox = _Inbox(group_name(seat.code))
    # Listening before the first read: a move made in between is heard, not missed.
    await inbox.open()
    try:
        read = await game_read(seat.game_id)
        if read is None or not _holds(read, seat):
            yield ndjson.line({"type": "gone", "error": "You no longer hold this seat."})
            return
        yield ndjson.line(await database_sync_to_async(game_full)(read, seat.seat))
        shown = read.fingerprint
        if not running(read.game):
            return
        while True:
            message = await inbox.next(quiet)
            if message is None:
                yield ndjson.KEEP_ALIVE
                await inbox.rejoin()
            elif message.get("type") == "table.chat":
                chat = await database_sync_to_async(_chat_line)(seat.table_id,
                                                               message.get("id"))
                if chat is not None:
                    yield ndjson.line(chat)
                continue
            elif stream_answers(message):  # a table's socket joined
                await inbox.announce(reply=True)
                continue
            elif message.get("type") != "table.update":
                continue  # watcher counts and the like
            read = await game_read(seat.game_id, (message or {}).get("token"))
            if read is None or not _holds(read, seat):
                yield ndjson.line({"type": "gone", "error": "You no longer hold this seat."})
                return
            if read.fingerprint == shown:
                continue
            shown = read.fingerprint
            yield ndjson.line(await database_sync_to_async(game_state)(read, seat.seat))
            if not running(read.game):
                return
    finally:
        await inbox.close()
