"""Daphne's once-a-second check of its connections, made only for those that changed.

Daphne walks every connection of the process once a second (`Server.application_checker`)
to find the ones whose browser left or whose application ended: two dict reads and a `done()`
a connection, some 600-750 calls a second at 200 sockets, for the one connection in a
thousand that changed. Here a connection is looked at when something happened to it: its
application ended (a done callback on the instance Daphne made for it) or it disconnected
(`protocol_disconnected`). Each second's check then does, for those and only those, exactly
what Daphne's does: cancels an application still running `application_close_timeout`
seconds after its connection closed (it stays noted until then), logs an application's
error and closes its connection if still open, and forgets a connection that has closed
and has no application running. A connection that never changes costs nothing after its
application starts.

Daphne's other walk, every 2 s (`timeout_checker`: the socket and connect timeouts, and a
ping to a socket quiet for `ping_interval`), must look at every connection by its clock,
changed or not; it reads the clock once a walk and makes a websocket's checks in the walk
itself, the same checks in the same order as `WebSocketProtocol.check_timeouts`, rather
than six calls a socket (a method, its `duration()` twice and `time.time()` thrice). Any
other connection (HTTP) is checked by its own method, as before.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Callable
from typing import Any

logger = logging.getLogger("daphne.server")  # where Daphne logs its own check

_installed = False


def install() -> None:
    """Check only the connections that changed from now on (idempotent). Call before
    Daphne's server runs; it imports Daphne's server, which needs the process's reactor."""
    global _installed
    if _installed:
        return
    from daphne import server
    from daphne.ws_protocol import WebSocketProtocol

    check_changed_only(server.Server, lambda: server.reactor)
    check_timeouts_in_the_walk(server.Server, WebSocketProtocol, lambda: server.reactor)
    _installed = True


def check_changed_only(server_class: Any, reactor: Callable[[], Any]) -> None:
    """Make `server_class` (Daphne's Server) note its changed connections and check only
    those; `reactor()` is the reactor its check is scheduled on."""
    kept_create_application = server_class.create_application
    kept_protocol_disconnected = server_class.protocol_disconnected

    def create_application(self: Any, protocol: Any, scope: dict[str, Any]) -> Any:
        queue = kept_create_application(self, protocol, scope)
        details = self.connections.get(protocol)
        instance = None if details is None else details.get("application_instance")
        if instance is not None:
            instance.add_done_callback(lambda _: noted(self).add(protocol))
        return queue

    def protocol_disconnected(self: Any, protocol: Any) -> None:
        kept_protocol_disconnected(self, protocol)
        noted(self).add(protocol)

    def application_checker(self: Any) -> None:
        """Daphne's check (daphne 4.2), for the connections noted since."""
        changed = noted(self)
        for protocol in list(changed):
            if not check_connection(self, protocol):
                changed.discard(protocol)
        reactor().callLater(1, self.application_checker)

    server_class.create_application = create_application
    server_class.protocol_disconnected = protocol_disconnected
    server_class.application_checker = application_checker


def check_timeouts_in_the_walk(server_class: Any, websocket_class: type,
                               reactor: Callable[[], Any]) -> None:
    """Make `server_class`'s timeout walk check each connection of `websocket_class`
    (Daphne's WebSocketProtocol, not a subclass) in the walk itself."""

    def timeout_checker(self: Any) -> None:
        """Daphne's (daphne 4.2), `check_timeouts` of a websocket made here."""
        now = time.time()
        timeout, connect_timeout = self.websocket_timeout, self.websocket_connect_timeout
        ping_interval = self.ping_interval
        for protocol in list(self.connections):
            if protocol.__class__ is not websocket_class:
                protocol.check_timeouts()
                continue
            opened_for = now - protocol.socket_opened
            if opened_for > timeout and timeout >= 0:
                protocol.serverClose()
            state = protocol.state
            if state == protocol.STATE_CONNECTING:
                if opened_for > connect_timeout:
                    protocol.serverReject()
            elif state == protocol.STATE_OPEN and now - protocol.last_ping > ping_interval:
                protocol._sendAutoPing()
                protocol.last_ping = time.time()
        reactor().callLater(2, self.timeout_checker)

    server_class.timeout_checker = timeout_checker


def noted(daphne_server: Any) -> set[Any]:
    """The connections of `daphne_server` to look at in the next check."""
    found: set[Any] | None = daphne_server.__dict__.get("_changed_connections")
    if found is None:
        found = daphne_server._changed_connections = set()
    return found


def check_connection(daphne_server: Any, protocol: Any) -> bool:
    """What Daphne's `application_checker` does for one connection; whether to look at it
    again next time (closed, its application still running within its close timeout)."""
    details = daphne_server.connections.get(protocol)
    if details is None:
        return False
    disconnected = details.get("disconnected", None)
    application_instance = details.get("application_instance", None)
    if (disconnected
            and time.time() - disconnected > daphne_server.application_close_timeout
            and application_instance and not application_instance.done()):
        logger.warning(
            "Application instance %r for connection %s took too long to shut down "
            "and was killed.", application_instance, repr(protocol))
        application_instance.cancel()
    if application_instance and application_instance.done():
        try:
            exception = application_instance.exception()
        except (concurrent.futures.CancelledError, asyncio.CancelledError):
            pass
        else:
            if exception:
                if isinstance(exception, KeyboardInterrupt):
                    daphne_server.stop()
                else:
                    logger.error("Exception inside application: %s", exception,
                                 exc_info=exception)
                    if not disconnected:
                        protocol.handle_exception(exception)
        del details["application_instance"]
        application_instance = None
    if not application_instance and disconnected:
        del daphne_server.connections[protocol]
        return False
    # Closed with its application still running: looked at again until it ends or is killed
    # (a cancel is a done callback too, but the look costs nothing).
    return bool(disconnected)
