"""Daphne's once-a-second check of its connections looks only at the ones that changed
(chudopoly_site/daphne_checks.py), and does for them what Daphne's walk of every connection
did: forgets a closed connection whose application ended, logs an application's error and
closes its connection, and kills an application still running too long after its close.

The server here has Daphne's connection bookkeeping (daphne 4.2's `create_application` and
`protocol_disconnected`, reduced); its reactor only notes the next check."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any

import pytest

from chudopoly_site import daphne_checks


class _Reactor:
    def __init__(self) -> None:
        self.later: list[tuple[float, Any]] = []

    def callLater(self, delay: float, call: Any) -> None:
        self.later.append((delay, call))


REACTOR = _Reactor()


class _Server:
    application_close_timeout = 10

    def __init__(self) -> None:
        self.connections: dict[Any, dict[str, Any]] = {}
        self.stopped = False

    def protocol_connected(self, protocol: Any) -> None:
        self.connections[protocol] = {"connected": time.time()}

    def protocol_disconnected(self, protocol: Any) -> None:
        if "disconnected" not in self.connections[protocol]:
            self.connections[protocol]["disconnected"] = time.time()

    def create_application(self, protocol: Any, app: Coroutine[Any, Any, None]) -> None:
        self.connections[protocol]["application_instance"] = asyncio.ensure_future(app)

    def application_checker(self) -> None:
        raise AssertionError("Daphne's walk of every connection")

    def stop(self) -> None:
        self.stopped = True


daphne_checks.check_changed_only(_Server, lambda: REACTOR)


class _Protocol:
    def __init__(self) -> None:
        self.errors: list[BaseException] = []

    def handle_exception(self, exception: BaseException) -> None:
        self.errors.append(exception)


async def _settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


def test_a_connection_that_never_changes_is_not_looked_at() -> None:
    async def main() -> None:
        server, protocol = _Server(), _Protocol()
        server.protocol_connected(protocol)
        server.create_application(protocol, asyncio.Event().wait())
        await _settle()
        assert daphne_checks.noted(server) == set()
        server.application_checker()
        assert protocol in server.connections
        assert REACTOR.later[-1][0] == 1, "the next check in a second, as Daphne's"
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()

    asyncio.run(main())


def test_a_closed_connection_is_forgotten_once_its_application_ends() -> None:
    async def main() -> None:
        server, protocol = _Server(), _Protocol()
        server.protocol_connected(protocol)
        ending = asyncio.Event()
        server.create_application(protocol, ending.wait())
        server.protocol_disconnected(protocol)
        server.application_checker()
        assert protocol in server.connections, "its application still runs"
        ending.set()
        await _settle()
        server.application_checker()
        assert protocol not in server.connections
        assert daphne_checks.noted(server) == set()

    asyncio.run(main())


def test_an_applications_error_is_logged_and_its_open_connection_told(
        caplog: pytest.LogCaptureFixture) -> None:
    async def failing() -> None:
        raise ValueError("the consumer failed")

    async def main() -> _Protocol:
        server, protocol = _Server(), _Protocol()
        server.protocol_connected(protocol)
        server.create_application(protocol, failing())
        await _settle()
        server.application_checker()
        assert "application_instance" not in server.connections[protocol]
        return protocol

    protocol = asyncio.run(main())
    assert [str(e) for e in protocol.errors] == ["the consumer failed"]
    assert "Exception inside application" in caplog.text


def test_an_application_running_too_long_after_its_close_is_killed_then_forgotten() -> None:
    async def main() -> None:
        server, protocol = _Server(), _Protocol()
        server.protocol_connected(protocol)
        server.create_application(protocol, asyncio.Event().wait())
        server.protocol_disconnected(protocol)
        server.connections[protocol]["disconnected"] -= server.application_close_timeout + 1
        server.application_checker()
        await _settle()
        server.application_checker()
        assert protocol not in server.connections

    asyncio.run(main())


class _Socket:
    """Daphne's websocket as its timeout check reads it, noting what the check does."""

    STATE_CONNECTING, STATE_OPEN, STATE_CLOSING = 0, 1, 2

    def __init__(self, server: Any, state: int, opened_ago: float, pinged_ago: float) -> None:
        self.server, self.state = server, state
        self.socket_opened = time.time() - opened_ago
        self.last_ping = time.time() - pinged_ago
        self.did: list[str] = []

    def serverClose(self) -> None:
        self.did.append("close")
        self.state = self.STATE_CLOSING

    def serverReject(self) -> None:
        self.did.append("reject")

    def _sendAutoPing(self) -> None:
        self.did.append("ping")


def _sockets(server: Any) -> list[_Socket]:
    return [_Socket(server, state, opened, pinged)
            for state in (_Socket.STATE_CONNECTING, _Socket.STATE_OPEN, _Socket.STATE_CLOSING)
            for opened in (1, 30, 100_000) for pinged in (1, 25)]


def test_the_timeout_walk_does_for_each_websocket_what_daphnes_own_check_does() -> None:
    from daphne.ws_protocol import WebSocketProtocol

    class _DaphnesSocket(_Socket):
        check_timeouts = WebSocketProtocol.check_timeouts
        duration = WebSocketProtocol.duration

    class _TimeoutServer(_Server):
        websocket_timeout, websocket_connect_timeout, ping_interval = 86400, 20, 20

    daphne_checks.check_timeouts_in_the_walk(_TimeoutServer, _Socket, lambda: REACTOR)
    server = _TimeoutServer()
    walked, theirs = _sockets(server), [_DaphnesSocket(server, s.state, 0, 0) for s in
                                        _sockets(server)]
    for ours, daphnes in zip(walked, theirs, strict=True):
        daphnes.socket_opened, daphnes.last_ping = ours.socket_opened, ours.last_ping
        server.connections[ours] = {}
        daphnes.check_timeouts()
    server.timeout_checker()
    assert [s.did for s in walked] == [s.did for s in theirs]
    assert ["close"] in [s.did for s in walked] and ["ping"] in [s.did for s in walked]
    assert ["reject"] in [s.did for s in walked]
    assert REACTOR.later[-1][0] == 2, "the next walk in two seconds, as Daphne's"


def test_the_timeout_walk_leaves_any_other_connection_to_its_own_check() -> None:
    class _Request:
        checked = 0

        def check_timeouts(self) -> None:
            self.checked += 1

    class _TimeoutServer(_Server):
        websocket_timeout, websocket_connect_timeout, ping_interval = 86400, 20, 20

    daphne_checks.check_timeouts_in_the_walk(_TimeoutServer, _Socket, lambda: REACTOR)
    server, request = _TimeoutServer(), _Request()
    server.connections[request] = {}
    server.timeout_checker()
    assert request.checked == 1
