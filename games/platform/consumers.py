"""Websocket consumers: thin; they parse, call services and push rendered partials."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import SyncToAsync, async_to_sync
from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.exceptions import StopConsumer
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.template.loader import render_to_string

from chudopoly_site import held_connection, socket_reads, socket_writes
from chudopoly_site.client_address import client_address_of_scope
from games.platform import presenters, swaps
from games.platform.broadcast import (
    LISTENING,
    PROCESS,
    group_name,
    held_updates,
    listening,
    socket_answers,
    update,
)
from games.platform.checkins import open_sockets
from games.platform.clocks import SOCKET_CHECK_IN_SECONDS, seat_connected, seat_disconnected
from games.platform.frames import FrameError, parse_frame
from games.platform.heartbeat import HeartbeatMixin
from games.platform.identity import viewer_from_scope
from games.platform.interface import registered_games
from games.platform.invites import INVITE_PARAM, TableHidden, TooManyMisses, table_for_visitor
from games.platform.lobby import LOBBY_GROUP, public_tables_html
from games.platform.models import ChatMessage, Game, Seat, Table
from games.platform.recent_reads import recent_reads
from games.platform.services import Move, TableError, chat_post, normalize_code, table_move
from games.platform.snapshot_cache import snapshots
from games.platform.table_lane import Lane
from games.platform.table_sockets import table_sockets
from games.platform.watchers import watcher_joined, watcher_left

# REFERENCE §7: the server's frame rate limit is 40 messages per 5 seconds.
RATE_LIMIT_FRAMES = 40
RATE_LIMIT_SECONDS = 5.0
FLOOD_FACTOR = 2  # past twice the limit in one window the socket is closed
CLOSE_NO_TABLE = 4404
CLOSE_NO_GAME = 4404  # a lobby socket of a game the site does not have
SEAT_MOVED_NOTICE = ("Your seat moved to another device; this one now only watches. "
                     "Open the table there to play.")
CLOSE_FLOOD = 4429


log = logging.getLogger(__name__)

# One thread runs every table socket's handlers, in the order they arrived: the lane. A move
# shares the GIL only with the event loop, and the other seats' pushes of a move come right
# after it, in the same handler (table_sockets.py), before the next frame. A second lane, each
# table's sockets on one of the two, cost more CPU per move and a longer tail at 100 tables
# (docs/performance.md).
_TABLE_LANE = Lane("table-lane")


# What a table socket's queue is given when a frame it took from its reader failed.
SOCKET_FRAME_FAILED = "socket.frame_failed"

# A handler's frames and group messages, kept for the event loop (see _outbox).
Outbox = tuple[list[tuple["TableConsumer", dict[str, Any]]], list["GroupSend"]]


def _on_lane(consumer: TableConsumer, message: dict[str, Any],
             context: contextvars.Context | None = None) -> asyncio.Future[None]:
    """Run `message`'s handler on the table lane; done, on the loop, when it has run.

    Not asgiref's SyncToAsync: the lane hands the loop the handler's end and its frames in
    one wake-up (`_end_on_loop`) where SyncToAsync's future took a second, and a hand-off
    costs the loop no wrapper, context restoring or executor future of asgiref's
    (docs/performance.md). The lane keeps its database connection from handler to handler
    (chudopoly_site/held_connection.py), so not DatabaseSyncToAsync's either."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    _TABLE_LANE.run_soon(_run_on_lane, loop, done, context or contextvars.copy_context(),
                         consumer, message)
    return done


# Told on the loop, as a handler's frames are written, that it ended (with its error, if any).
Ended = Callable[[BaseException | None], None]


def _take_on_lane(consumer: TableConsumer, message: dict[str, Any],
                  context: contextvars.Context, ended: Ended) -> None:
    """Run a taken frame's handler on the table lane (`TableConsumer._take_text`), and call
    `ended` on the loop, in the same turn as its frames are written: no future, whose done
    callbacks would wait for a turn of the loop of their own."""
    _TABLE_LANE.run_soon(_run_on_lane, asyncio.get_running_loop(), ended, context, consumer,
                         message)


def _run_on_lane(loop: asyncio.AbstractEventLoop, done: asyncio.Future[None] | Ended,
                 context: contextvars.Context, consumer: TableConsumer,
                 message: dict[str, Any]) -> None:
    # What SyncToAsync tells its threads: a handler's async_to_sync (a group_add) runs its
    # coroutine on this loop, where the channel layer lives, and waits for it here.
    local = SyncToAsync.threadlocal
    local.main_event_loop, local.main_event_loop_pid = loop, os.getpid()
    local.task_context = None
    outbox: Outbox = ([], [])
    error: BaseException | None = None
    try:
        context.run(consumer._handle_holding_connection, message, outbox)
    except BaseException as exc:  # the consumer's own: raised where it awaits (dispatch)
        error = exc
    loop.call_soon_threadsafe(_end_on_loop, loop, done, outbox, error)


def _end_on_loop(loop: asyncio.AbstractEventLoop, done: asyncio.Future[None] | Ended,
                 outbox: Outbox, error: BaseException | None) -> None:
    """On the loop: write the handler's frames, start its group messages, and let its socket
    go on to its next message."""
    _write_frames(loop, *outbox)
    if not isinstance(done, asyncio.Future):
        done(error)  # a taken frame's (_take_on_lane)
    elif done.cancelled():  # the socket closed meanwhile
        if error is not None:
            log.warning("a table socket's handler failed after it closed: %r", error)
    elif error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


def _log_failed_send(future: concurrent.futures.Future[Any] | asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a table's group message was not sent: %r", future.exception())


def _log_failed_frame(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a frame to a table's socket was not sent: %r", task.exception())


# What the running handler has for the event loop, by thread (a handler runs on the table
# lane, or on the thread SQLite's sync consumers share): its frames
# (TableConsumer._send_soon) and its group messages (TableConsumer._deliver_soon), handed
# over together when it ends.
_outbox = threading.local()

GroupSend = Callable[[], Coroutine[Any, Any, None]]


def _write_frames(loop: asyncio.AbstractEventLoop,
                  frames: list[tuple[TableConsumer, dict[str, Any]]],
                  sends: Sequence[GroupSend] = ()) -> None:
    """On the loop: write a handler's frames in turn, and start its group messages.

    A socket under Daphne is written here and now (`_write_now`: nothing to wait for, so no
    task a handler); any other (a test's communicator) in a task, in order. A socket is always
    written the one way, so its frames keep their order."""
    later: list[tuple[TableConsumer, dict[str, Any]]] = []
    for consumer, message in frames:
        write = consumer._write_now
        if write is None:
            later.append((consumer, message))
            continue
        try:
            write(message)
        except Exception:
            log.warning("a frame to a table's socket was not sent", exc_info=True)
    if later:
        task = loop.create_task(_write_in_turn(later))
        task.add_done_callback(_log_failed_frame)
    for send in sends:
        loop.create_task(send()).add_done_callback(_log_failed_send)


async def _write_in_turn(frames: list[tuple[TableConsumer, dict[str, Any]]]) -> None:
    """Write a handler's frames in order; one socket's failure does not keep the others'."""
    for consumer, message in frames:
        try:
            await consumer._asgi_send(message)
        except Exception:
            log.warning("a frame to a table's socket was not sent", exc_info=True)


# A heartbeat's read of a table that is gone.
TABLE_GONE: tuple[Any, ...] = ()


def table_fingerprint(table_id: int) -> tuple[Any, ...]:
    """What TableConsumer._fingerprint makes of the table's rows (the table, its seats, its
    latest game), read in one query: the table with its seats joined and its latest game's
    three columns as subqueries. TABLE_GONE when there is no such table."""
    latest = Game.objects.filter(table_id=OuterRef("pk")).order_by("-number")
    rows = list(Table.objects.filter(pk=table_id)
                .annotate(game_pk=Subquery(latest.values("pk")[:1]),
                          game_version=Subquery(latest.values("version")[:1]),
                          game_status=Subquery(latest.values("status")[:1]))
                .order_by("seats__position")
                .values_list("updated_at", "status", "host_id", "game_pk", "game_version",
                             "game_status", "seats__pk", "seats__away", "seats__name"))
    if not rows:
        return TABLE_GONE
    updated_at, status, host_id, game_pk, version, game_status = rows[0][:6]
    return (updated_at, status, host_id,
            tuple(row[6:] for row in rows if row[6] is not None),
            (game_pk, version, game_status) if game_pk is not None else None)


class LobbyConsumer(HeartbeatMixin, WebsocketConsumer):
    """Keeps a list of public tables live (htmx ws out-of-band swap): every game's on the home
    page (/ws/lobby/), one game's on that game's page (/ws/lobby/<game>/)."""

    last_html = ""
    game_kind: str | None = None  # None: every game's tables

    def connect(self) -> None:
        game_kind = self.scope["url_route"]["kwargs"].get("game_kind")
        if game_kind is not None and game_kind not in registered_games():
            self.close(code=CLOSE_NO_GAME)
            return
        self.game_kind = game_kind
        async_to_sync(self.channel_layer.group_add)(LOBBY_GROUP, self.channel_name)
        self.accept()

    def disconnect(self, code: int) -> None:
        async_to_sync(self.channel_layer.group_discard)(LOBBY_GROUP, self.channel_name)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The lobby socket is push-only; anything the browser sends is ignored.
        return

    def lobby_changed(self, event: dict[str, Any]) -> None:
        changed = event.get("game_kind")
        if self.game_kind is not None and changed not in (None, self.game_kind):
            return  # another game's table: this game's list is as it was
        self._send_if_new(public_tables_html(self.game_kind, event.get("change")))

    def socket_heartbeat(self, event: dict[str, Any]) -> None:
        # Join again (a restarted Redis forgot the group) and send the list if it changed.
        # The list read by this process less than half a heartbeat ago serves (lobby.py).
        async_to_sync(self.channel_layer.group_add)(LOBBY_GROUP, self.channel_name)
        self._send_if_new(public_tables_html(self.game_kind,
                                             max_age=self.heartbeat_seconds / 2))

    def _send_if_new(self, html: str) -> None:
        if html != self.last_html:
            self.last_html = html
            self.send(text_data=html)


class TableConsumer(HeartbeatMixin, WebsocketConsumer):
    """One browser tab at one table. It acts for the seat its session owns (or watches).

    Frames in: see games/platform/frames.py. Frames out: HTML fragments with hx-swap-oob, rendered
    from this seat's view only. After a move the service broadcasts {"version": n} to the group and
    every consumer (this one included) re-renders its own seat's partials.
    """

    table: Table
    code: str
    seen: tuple[Any, ...] | None = None  # what the last push showed (see _fingerprint)
    # (game id, engine seat) as this socket's last push showed them; see _game_seat
    mine: tuple[int | None, int | None] = (None, None)
    snapshot: presenters.TableSnapshot | None = None  # the read the last push showed
    # The (game id, engine seat) the screen in `sent` shows: another gets a whole screen.
    shown_for: tuple[int | None, int | None] | None = None

    # The server's send as a plain call, when it is Daphne's (socket_writes.plain_send).
    _write_now: Callable[[dict[str, Any]], None] | None = None

    # A browser's frames taken straight from the connection's reader (socket_reads.py): the
    # connection's protocol while it hands them over, how many of their handlers have not
    # ended, the future dispatch waits on for them when it must (made only then), and the
    # error one of them raised, which dispatch raises in the consumer's own task.
    _reads_from: Any = None
    _taken_running = 0
    _taken_waiter: asyncio.Future[None] | None = None
    _taken_error: BaseException | None = None
    _dispatching = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self._asgi_send = send  # the server's own send, for _send_soon
        self._write_now = socket_writes.plain_send(send)
        connection = socket_writes.daphne_connection(send)
        if connection is not None and not settings.DATABASES["default"]["ENGINE"].endswith(
                "sqlite3"):
            self._reads_from = connection[1]
            socket_reads.take_texts(self._reads_from, self._take_text)
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self._reads_from is not None:  # the protocol holds this consumer: let go
                socket_reads.take_texts(self._reads_from, None)
                self._reads_from = None

    def _take_text(self, text: str) -> bool:
        """Handle a browser's text frame now, as dispatch would, when this consumer is doing
        nothing but wait for the browser (the server's queue is empty: socket_reads checks),
        or after the frames it took so: the lane runs them in order. False: queue it."""
        context = self._receive_context
        if context is None or self._dispatching or self._taken_error is not None:
            return False
        self.heard()
        self.loop = asyncio.get_running_loop()
        self._taken_running += 1
        _take_on_lane(self, {"type": "websocket.receive", "text": text}, context.copy(),
                      self._taken_ended)
        return True

    def _taken_ended(self, error: BaseException | None) -> None:
        """On the loop, as a taken frame's handler's frames are written."""
        self._taken_running -= 1
        if error is not None and self._taken_error is None:
            # Raised in the consumer's task, as a queued frame's error is: Daphne logs it
            # and closes the connection (dispatch, SOCKET_FRAME_FAILED).
            self._taken_error = error
            if self._reads_from is not None:
                self._reads_from.application_queue.put_nowait({"type": SOCKET_FRAME_FAILED})
        waiter = self._taken_waiter
        if not self._taken_running and waiter is not None:
            self._taken_waiter = None
            if not waiter.done():
                waiter.set_result(None)

    @property
    def base_send(self) -> Callable[[dict[str, Any]], None]:
        """Where SyncConsumer.send puts every frame: _send_soon. Made on each call, not kept
        as an attribute: a bound method kept on its own object is a reference cycle, and the
        consumer would wait for the collector when it closes (see websocket_disconnect)."""
        return self._send_soon

    @base_send.setter
    def base_send(self, send: Callable[[dict[str, Any]], Any]) -> None:
        """Channels' __call__ sets its own wrapper of the server's send here; _send_soon
        writes with the server's send itself (_asgi_send)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Handle one message on the process's table lane (one thread, first come first
        served). SQLite (one writer at a time) keeps the thread every sync consumer of the
        process shares by default."""
        self._dispatching = True  # the browser's frames wait in the queue meanwhile
        try:
            if self._taken_running:  # one message at a time: a frame taken is one
                waiter = self._taken_waiter = asyncio.get_running_loop().create_future()
                await waiter
            kind = message.get("type")
            if kind == SOCKET_FRAME_FAILED:
                assert self._taken_error is not None
                raise self._taken_error
            self.heard()  # the heartbeat waits for a quiet spell (games/platform/heartbeat.py)
            self.loop = asyncio.get_running_loop()
            if kind == "table.update" and self._left_to_others(message):
                return  # not worth a thread (see table_update)
            if kind == LISTENING:
                self._listener_joined(message)
                return
            if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
                await DatabaseSyncToAsync(self._handle)(message)  # the shared thread
            else:
                await _on_lane(self, message)
            if kind == "websocket.disconnect":
                raise StopConsumer  # here on the loop, not in the thread: see websocket_disconnect
        finally:
            self._dispatching = False

    def _handle_holding_connection(self, message: dict[str, Any], outbox: Outbox) -> None:
        held_connection.ready()
        try:
            self._handle(message, outbox)
        finally:
            held_connection.after()

    def _handle(self, message: dict[str, Any], outbox: Outbox | None = None) -> None:
        """Run the message's handler, keeping its frames and group messages for the loop: in
        `outbox` when given (the lane hands them over with the handler's end, `_on_lane`),
        else handed over here when it ends."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        frames, sends = outbox if outbox is not None else ([], [])
        _outbox.frames, _outbox.sends = frames, sends
        try:
            handler(message)
            self._check_in()
        finally:
            _outbox.frames = _outbox.sends = None
            if outbox is None and (frames or sends):
                # One wake-up of the loop per handler: each costs the handler's thread a write
                # to the loop's pipe and the loop a turn (a move made two).
                self.loop.call_soon_threadsafe(_write_frames, self.loop, frames, sends)

    def _check_in(self) -> None:
        """Tell the clocks this process's sockets are alive, every SOCKET_CHECK_IN_SECONDS at
        most, all in one write (games/platform/checkins.py): a socket that stops checking in
        belonged to a process that died (games/platform/clocks.py)."""
        open_sockets.check_in_if_due(SOCKET_CHECK_IN_SECONDS)

    def connect(self) -> None:
        self.code = normalize_code(self.scope["url_route"]["kwargs"]["code"])
        self.viewer = viewer_from_scope(self.scope)
        # A private table's socket needs its invite token (or a seat) like its page; a miss
        # is counted and answered like a code that does not exist (games/platform/invites.py).
        token = parse_qs(self.scope.get("query_string", b"").decode("latin1")).get(INVITE_PARAM)
        try:
            table = table_for_visitor(self.code, self.viewer, token[0] if token else None,
                                      client_address_of_scope(self.scope))
        except (TableHidden, TooManyMisses):
            self.close(code=CLOSE_NO_TABLE)
            return
        self.table = table
        # The screen this socket last sent, partial by partial: each one's base, what the
        # next push compares with and reads the next HTML after (see _changes).
        self.sent: dict[str, swaps.Base] = {}
        self.log_cache: presenters.LogCache = {}
        self.partial_memo: presenters.PartialMemo = {}
        # Its own partials by the marks of its last few screens (presenters.keep_own).
        self.own_kept: presenters.KeptOwn = []
        self.frames: deque[float] = deque()
        self.group = table.group_name
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self._deliver_soon(self.code, listening(socket=True))
        self.accept()
        # Counted for the disconnect grace; coming back to a running game takes the seat back
        # from the bot that held it (games/platform/clocks.py).
        if self.viewer.known:
            # Checked in from now on with the process's other sockets (a watcher has no row, and
            # the write finds none for it).
            open_sockets.opened(self.channel_name)
            with contextlib.suppress(TableError):
                seat_connected(table_id=table.pk, viewer=self.viewer, channel=self.channel_name)
        self.push(full=True)
        table_sockets.add(table.pk, self)
        if self.seat_id is None:  # a spectator: everyone's "N watching" goes up
            self.watching = True
            self._announce_watchers(watcher_joined(table.code))

    def _announce_watchers(self, count: int) -> None:
        async_to_sync(self.channel_layer.group_send)(
            self.group, {"type": "table.watchers", "count": count})

    def table_watchers(self, event: dict[str, Any]) -> None:
        self.send(text_data=render_to_string("games/_watchers.html",
                                             {"watchers": event.get("count", 0), "oob": True}))

    def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """Channels' own raises StopConsumer here, on the handler thread. The exception then
        crosses SyncToAsync, whose future and frames hold it in a reference cycle with this
        consumer and everything it keeps (what it sent, its memos, its snapshot): all of it
        waited for the collector's next full pass, which after a few hundred sockets had
        closed stopped every socket of the process for 400 ms and more
        (docs/performance.md). Raised by dispatch on the event loop, it dies with its frames
        and the consumer is freed as it closes."""
        for group in self.groups:
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)
        self.disconnect(message["code"])

    def disconnect(self, code: int) -> None:
        if hasattr(self, "table"):
            table_sockets.remove(self.table.pk, self)
        if hasattr(self, "group") and getattr(self, "watching", False):
            self.watching = False
            with contextlib.suppress(Exception):  # the count is a courtesy, never a failure
                self._announce_watchers(watcher_left(self.table.code))
        if hasattr(self, "group"):
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
            open_sockets.closed(self.channel_name)
            if self.viewer.known:
                seat_disconnected(table_id=self.table.pk, viewer=self.viewer,
                                  channel=self.channel_name)

    # --- incoming -------------------------------------------------------------------------
    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        now = time.monotonic()
        while self.frames and now - self.frames[0] > RATE_LIMIT_SECONDS:
            self.frames.popleft()
        self.frames.append(now)
        if len(self.frames) > RATE_LIMIT_FRAMES:
            if len(self.frames) > RATE_LIMIT_FRAMES * FLOOD_FACTOR:
                # Still sending long after being told to stop: a script, not a person.
                self.close(code=CLOSE_FLOOD)
                return
            self.send_error("Too many messages; wait a few seconds.", "rate_limited")
            return
        try:
            frame = parse_frame(text_data, bytes_data)
        except FrameError as exc:
            self.send_error(exc.message, exc.code)
            return
        if frame.kind == "chat":
            try:
                chat_post(table_id=self.table.pk, viewer=self.viewer, text=frame.text)
            except TableError as exc:
                self.send_error(exc.message, exc.code)
                return
            self.send(text_data=render_to_string("games/_chat_form.html", {"oob": True}))
            return
        game_id, seat = self._game_seat()
        if game_id is None:
            self.send_error("The game has not started yet.", "not_started")
            return
        if seat is None:
            self.send_error("You are watching this table; take a seat to play.", "spectator")
            return
        if frame.seat is not None and frame.seat != seat:
            self.send_error("That is not your seat.", "forged")
            return
        with held_updates(deliver=self._deliver_here_first):
            try:
                # Made first on the table's newest rows in this process, if a move left them
                # (services._move_on_known): one round trip when nothing else moved meanwhile.
                move = table_move(game_id=game_id, seat=seat, action=frame.action,
                                  expected_version=frame.expected_version, viewer=self.viewer,
                                  expected_decision=frame.decision,
                                  known=snapshots.latest(self.table.pk))
            except TableError as exc:
                self.send_error(exc.message, exc.code)
                # The sender may be looking at an old board: bring it up to date.
                self.push()
                return
            # The mover sees their move at once, before the table hears of it (see
            # held_updates); the group message then finds this socket up to date. The "ok"
            # rides in the same frame.
            self.push(also=presenters.render_error("", "ok"), move=move)

    def _deliver_here_first(self, code: str, message: dict[str, Any]) -> None:
        """The table's other sockets in this process show the mover's update now, in this
        handler (games/platform/table_sockets.py); then the group hears of it, for sockets
        elsewhere (ours find it already shown)."""
        if message.get("type") == "table.update" and code == self.code:
            self.show_to_others(message)
            if (message.get("version") is not None
                    and not table_sockets.heard_elsewhere(self.table.pk)):
                return  # nothing else listens: the group would only echo it back
        self._deliver_soon(code, message)

    def _deliver_soon(self, code: str, message: dict[str, Any]) -> None:
        """Send a group message from the event loop without waiting for Redis's answer: the
        table lane goes on to the next frame meanwhile. Inside a handler it goes with the
        handler's frames, after them (`_handle`): a move's other seats in this process were
        shown it already, and the sockets elsewhere hear of it when the handler ends. A
        message lost on the way (Redis down) is caught up by the sockets' heartbeats
        (games/platform/heartbeat.py)."""
        layer = self.channel_layer
        if layer is None:
            return
        group = group_name(code)

        def send() -> Coroutine[Any, Any, None]:
            return layer.group_send(group, message)

        sends = getattr(_outbox, "sends", None)
        if sends is not None:
            sends.append(send)
            return
        asyncio.run_coroutine_threadsafe(send(), self.loop).add_done_callback(_log_failed_send)

    def _send_soon(self, message: dict[str, Any]) -> None:
        """Keep a frame for the event loop, which gets every frame of a handler at once when
        the handler ends (`_handle`). SyncConsumer's send waits for the loop to take each
        frame; waking the loop once per frame, as this did, also handed it the GIL once per
        frame, and a move's handler, which pushes every seat of the table, waited on it each
        time. Frames keep their order: the loop writes a handler's frames in turn as the
        handler ends, handlers' ends first come first served (`_write_frames`)."""
        frames = getattr(_outbox, "frames", None)
        if frames is None:  # not in a handler: on its own
            self.loop.call_soon_threadsafe(_write_frames, self.loop, [(self, message)])
            return
        frames.append((self, message))

    # --- group messages -------------------------------------------------------------------
    def table_update(self, event: dict[str, Any]) -> None:
        """Show the update here and, when this socket took it on for the table's other sockets
        in this process (see dispatch), there too."""
        try:
            self._show_update(event)
        finally:
            if event.get("version") is not None:
                self.show_to_others(event)

    def show_to_others(self, event: dict[str, Any]) -> None:
        """Push an update to this table's other sockets in this process that have not shown it.
        Every socket's handlers run on the one handler thread, so theirs cannot run meanwhile;
        one socket's failure is logged and does not keep the update from the rest."""
        # The read this socket's last push showed, when it shows this update (or a later
        # one): one read of the table serves every seat.
        snapshot = self.snapshot if self._already_shown(event) else None
        for other in table_sockets.others(self.table.pk, self):
            other.heard()
            try:
                other._show_update(event, snapshot)
            except Exception:
                log.exception("a table update was not shown to another socket of the table")
            if snapshot is None and other._already_shown(event):
                snapshot = other.snapshot

    def _show_update(self, event: dict[str, Any], snapshot: Any = None) -> None:
        if self._already_shown(event):
            return
        moved = event.get("moved_seat")
        had_it = moved is not None and moved == getattr(self, "seat_id", None)
        self.push(snapshot=snapshot)
        if had_it and getattr(self, "seat_id", None) != moved:
            # This device's seat was just claimed on another one: say so at once, rather
            # than let the player find out when a move is refused.
            self.send(text_data=presenters.render_error(SEAT_MOVED_NOTICE, "seat_moved"))

    def _listener_joined(self, event: dict[str, Any]) -> None:
        """On the loop: something joined the table's group (broadcast.listening). Another
        process's socket or an API stream anywhere makes this process send the table's
        updates to the group from now on (table_sockets.heard_elsewhere), and the group hears
        the newest version shown here at once, in case an update went unsent while the news
        was on its way; another process's newcomer is answered, so that it learns of this
        process too. A socket of this process needs none of it: it is shown every update."""
        if not hasattr(self, "table"):
            return
        if event.get("process") == PROCESS and event.get("socket"):
            return
        token = event.get("token")
        if not token or not table_sockets.claim(self.table.pk, token):
            return  # another socket of the table here took it on
        if socket_answers(event):
            self._send_to_group(listening(socket=True, reply=True))
        if table_sockets.listened_elsewhere(self.table.pk):
            self._send_to_group(update(table_sockets.newest_version(self.table.pk)))

    def _send_to_group(self, message: dict[str, Any]) -> None:
        """On the loop: send the table's group a message without waiting for it."""
        if self.channel_layer is not None:
            self.loop.create_task(self.channel_layer.group_send(self.group, message)
                                  ).add_done_callback(_log_failed_send)

    def _left_to_others(self, event: dict[str, Any]) -> bool:
        """Whether this socket need not handle an update: a push already showed it (most often
        the mover's own, or one another socket of the table showed it here), or another socket
        of the table in this process took it on for all (table_sockets.claim). An update
        without a version (a seat moved) is each socket's own."""
        if self._already_shown(event):
            return True
        token = event.get("token")
        if event.get("version") is None or not token or not hasattr(self, "table"):
            return False
        return not table_sockets.claim(self.table.pk, token)

    def _already_shown(self, event: dict[str, Any]) -> bool:
        """Whether a push already showed this update's move or a later one (read after its
        commit): a socket that fell behind catches up once, not once per move it missed, and
        the mover's own push (after its move) is not repeated."""
        version = event.get("version")
        seen_game = self.seen[4] if self.seen else None
        return (version is not None and seen_game is not None
                and seen_game[2] == Game.Status.RUNNING and version <= seen_game[1])

    def table_chat(self, event: dict[str, Any]) -> None:
        message = ChatMessage.objects.filter(pk=event.get("id"), table=self.table).first()
        if message is not None:
            self.send(text_data=presenters.render_chat_line(message))

    def socket_heartbeat(self, event: dict[str, Any]) -> None:
        """A quiet spell (games/platform/heartbeat.py): join the group again, and push if the
        table moved on. The table's state comes from a read this process made less than half
        a heartbeat ago when there is one (a push's, another of its sockets' heartbeat's:
        games/platform/recent_reads.py), else from one query; a push, with its snapshot
        read, only when it differs from what this socket last showed."""
        if not hasattr(self, "group"):
            return
        self._join_again()
        shared_for = self.heartbeat_seconds / 2
        if recent_reads.fresh(("listening", self.table.pk), shared_for) is None:
            # What the table's listeners elsewhere learn from (broadcast.listening) is this
            # process's, not this socket's: one of its sockets says it for all.
            recent_reads.note(("listening", self.table.pk), True)
            self._deliver_soon(self.code, listening(socket=True))
        key = ("table", self.table.pk)
        found = recent_reads.fresh(key, shared_for)
        if found is None:
            read_at = time.monotonic()
            found = table_fingerprint(self.table.pk)
            recent_reads.note(key, found, read_at)
        if found != TABLE_GONE and found != self.seen:
            self.push()

    def _join_again(self) -> None:
        """Join the table's group (a restarted Redis forgot it) without waiting for Redis's
        answer: the join goes with the handler's frames, as its group messages do
        (_deliver_soon). A move whose message went out between the heartbeat's read and the
        join is shown by the next heartbeat."""
        layer, group, channel = self.channel_layer, self.group, self.channel_name
        if layer is None:
            return

        def join() -> Coroutine[Any, Any, None]:
            return layer.group_add(group, channel)

        sends = getattr(_outbox, "sends", None)
        if sends is None:
            async_to_sync(layer.group_add)(group, channel)
            return
        sends.append(join)

    @staticmethod
    def _fingerprint(table: Table, seats: list[Seat], game: Game | None) -> tuple[Any, ...]:
        return (table.updated_at, table.status, table.host_id,
                tuple((s.pk, s.away, s.name) for s in seats),
                (game.pk, game.version, game.status) if game is not None else None)

    def _game_seat(self) -> tuple[int | None, int | None]:
        """The game and seat a move from this socket is for: the seat its last push showed,
        with no query (the move checks under the game's lock that the seat is still this
        viewer's), or, when that push showed no seat of theirs, a fresh look (they may have
        sat down since)."""
        if self.mine[1] is not None:
            return self.mine
        return self._my_game_seat()

    def _my_game_seat(self) -> tuple[int | None, int | None]:
        """The current game and the engine seat this session owns in it (None: watching).

        The same answer as presenters.load_screen gives, from one small query (the seat rides
        along as subqueries): a move needs only this, not the rendered board.
        """
        games = Game.objects.filter(table_id=self.table.pk).order_by("-number")
        if self.viewer.known:
            mine = (Seat.objects.filter(table_id=self.table.pk).filter(self.viewer.seat_filter())
                    .order_by("pk"))
            games = games.annotate(my_seat_id=Subquery(mine.values("pk")[:1]),
                                   my_game_seat=Subquery(mine.values("game_seat")[:1]))
        game = games.only("pk", "players").first()
        if game is None:
            return None, None
        seat_id, game_seat = getattr(game, "my_seat_id", None), getattr(game, "my_game_seat", None)
        if seat_id is None or game_seat is None:
            return game.pk, None
        players = game.players
        if game_seat < len(players) and players[game_seat].get("seat_id") == seat_id:
            return game.pk, game_seat
        return game.pk, None

    # --- outgoing -------------------------------------------------------------------------
    def push(self, *, full: bool = False, also: str = "", move: Move | None = None,
             snapshot: presenters.TableSnapshot | None = None) -> None:
        """Render this seat's partials and send what changed on its screen since the last
        push, element by element (games/platform/swaps.py), with `also` appended: one frame
        rather than two.

        From `snapshot` when another socket of the table just read it (show_to_others);
        otherwise this socket reads the table, the mover from the rows its move left behind
        (presenters.snapshot_after_move), and keeps the read as the table's newest
        (games/platform/snapshot_cache.py)."""
        mark, self.seat_mark = self.seat_mark, None  # set again once this push is sent
        if snapshot is not None and not full and not also and self.shown_for == self.mine:
            # Another socket's push read the snapshot: when this seat's own partials read as
            # its last push showed them, the version line and the partials every seat reads
            # alike say all that changed, with no screen of its own (presenters.quick_parts).
            # Or as they read on a screen before the last one (a seat that answered a charge
            # waits again): they go as that screen rendered them (presenters.quick_push).
            found = presenters.quick_push(snapshot, self.viewer, mark, self.own_kept,
                                          self._browser_values())
            quick = None
            if found is not None:
                quick, mark = found
            seen = snapshot.shared.get("fingerprint")
            if quick is not None and seen is not None:
                self.snapshot, self.table, self.seen = snapshot, snapshot.table, seen
                if self._send_changes(quick, whole=False):
                    self.seat_mark = mark
                    return
                # Its changes failed: nothing went, and the whole screen goes (below).
        read_at: float | None = None
        if snapshot is None:
            read_at = time.monotonic()
            if move is not None:
                snapshot = presenters.snapshot_after_move(move, snapshots.latest(self.table.pk))
            else:
                snapshot = presenters.load_snapshot(self.table.pk)
            snapshots.put(self.table.pk, snapshot)
        self.snapshot = snapshot
        self.table = snapshot.table
        screen = presenters.screen_from(snapshot, self.viewer, self.log_cache)
        self.mine = (screen.game.pk if screen.game else None, screen.seat)
        self.seat_id = screen.me.pk if screen.me else None
        parts = presenters.render_all(screen, oob=True, extra=self._browser_values(),
                                      memo=self.partial_memo)
        if full or self.shown_for != self.mine:
            # No screen to build on, or one of another game or seat: the whole screen.
            self.sent = {}
            self.shown_for = self.mine
        if full:
            parts["chat-log"] = presenters.render_chat(self.table, oob=True)
        # The same for every viewer of the snapshot: made once on it.
        seen = snapshot.shared.get("fingerprint")
        if seen is None:
            seen = snapshot.shared["fingerprint"] = self._fingerprint(
                screen.table, screen.seats, screen.game)
        self.seen = seen
        if read_at is not None:  # the table as this push read it: a heartbeat's answer too
            recent_reads.note(("table", self.table.pk), seen, read_at)
        if self._send_changes(parts, also):
            lobby = self.partial_memo.get("lobby")
            self.seat_mark = presenters.seat_mark(screen, lobby[0] if lobby else None)
            presenters.keep_own(self.own_kept, self.seat_mark, screen, parts)

    # What the seat's own partials on this socket were last rendered from (see push).
    seat_mark: presenters.SeatMark | None = None

    def _send_changes(self, parts: dict[str, str], also: str = "", *, whole: bool = True
                      ) -> bool:
        """Send what changed of `parts` since this socket's last push, with `also`; False
        when the changes failed: then the socket forgets its screen and `parts` go whole,
        or, unless `whole` (parts that are not the whole screen), nothing goes."""
        ok = True
        try:
            changed = [change for key, html in parts.items()
                       if (change := self._changes(key, html))]
        except Exception:
            # What this socket keeps of its screen is updated partial by partial: the ones
            # before the failure would pass for sent. Forget it all and send the whole screen,
            # so that this frame and the next ones say everything (the version too).
            log.exception("table %s: the changes of a push failed; the whole screen goes",
                          self.table.pk)
            self.sent = {}
            if not whole:
                return False
            changed = [html for html in parts.values() if html]
            ok = False
        if also:
            changed.append(also)
        if changed:
            self.send(text_data="\n".join(changed))
        return ok

    _browser_values_made: dict[str, str] | None = None

    def _browser_values(self) -> dict[str, str]:
        """The browser's own values the lobby's forms read (its CSRF cookie, the address it
        reached the site at): they come from the socket's handshake, so they are read once a
        socket, not once a push (four a move), and the same dict serves every push."""
        made = self._browser_values_made
        if made is None:
            csrf = (self.scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME, "")
            made = self._browser_values_made = {
                "csrf_value": csrf, "invite_origin": presenters.origin_of(self.scope)}
        return made

    def _changes(self, key: str, html: str) -> str:
        """What this push sends of partial `key`, now `html`: nothing when the screen this
        socket last sent shows it already, else the swaps from that screen, or the whole
        partial when it has none or they would not say it. What the socket keeps is the new
        HTML's base (digests, ids and tags, no HTML: swaps.Base), shared by the sockets sent
        the same HTML, read once (swaps.trees) after the base it replaces."""
        sent = self.sent.get(key)
        if sent is not None and sent.digest == hash(html):  # a partial's digest is its HTML's
            return ""  # shown already: no need to look it up among the trees
        new = swaps.trees.of(html, like=(key,), after=sent)
        self.sent[key] = new.base
        if sent is None:
            return html  # nothing to build on
        if len(html) < swaps.SMALL:  # not worth it
            return html
        # Its ids are looked for in the screen's other partials as last sent, the chat log
        # apart (see swaps.swaps).
        found = swaps.swaps(sent, new, self.sent, (key, "chat-log"))
        return html if found is None else "\n".join(found)

    def send_error(self, message: str, code: str) -> None:
        self.send(text_data=presenters.render_error(message, code))
