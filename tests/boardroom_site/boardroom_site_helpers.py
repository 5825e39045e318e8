"""Helpers for Boardroom's site tests: a table against bots, and the socket's frames."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games.platform import services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.interface import get_game
from games.platform.models import Game, Table

ENGINE = get_game("boardroom")


def vs_bots(viewer: Viewer, levels: list[str] | None = None, **kwargs: Any) -> Game:
    table = services.table_play_vs_bots(viewer=viewer, name="Alice",
                                        levels=levels or ["medium", "medium", "easy"],
                                        game_kind="boardroom", turn_seconds=0, **kwargs)
    return services.current_game(table)


def _application() -> Any:
    from chudopoly_site.asgi import application  # late: it arms the in-process scheduler

    return application


def _session_cookie(viewer: Viewer | None) -> bytes:
    session = SessionStore()
    if viewer is not None:
        session[GUEST_SESSION_KEY] = viewer.guest_key
    session.create()
    return f"sessionid={session.session_key}".encode()


async def connect(code: str, viewer: Viewer | None) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(_session_cookie)(viewer)
    # As the page opens it: with the invite token, which a watcher of a private table needs.
    token = await database_sync_to_async(
        lambda: Table.objects.get(code=code).invite_token)()
    comm = WebsocketCommunicator(_application(), f"/ws/table/{code}/?invite={token}", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)])
    # The accept goes out with the board after the connect handler has rendered it (the first
    # render of a process loads the templates): more than connect's 1 s on a loaded machine.
    connected, _ = await comm.connect(timeout=30)
    assert connected
    return comm


async def first_frames(comm: WebsocketCommunicator) -> list[str]:
    """The board sent on connect, waited for however long the first render of a process takes
    (it loads the templates), then read until quiet like any other exchange (its 3 s quiet
    spell dates from before frames() waited for the frame it needs)."""
    return await frames(comm)


def anything(frame: str) -> bool:
    return True


async def frames(comm: WebsocketCommunicator, timeout: float = 1.0,
                 until: Callable[[str], bool] | None = anything) -> list[str]:
    """Everything the server sends: first up to the frame `until` holds for (the first frame,
    unless told), however long a loaded machine takes to send it, then until it goes quiet for
    `timeout` seconds (a quiet spell alone missed a slow render's frame)."""
    out: list[str] = []
    while until is not None and not any(until(frame) for frame in out):
        out.append(await comm.receive_from(timeout=30))
    while not await comm.receive_nothing(timeout=timeout):
        out.append(await comm.receive_from())
    return out


def showing(version: int) -> Callable[[str], bool]:
    """A frame that shows the table at `version`."""
    return lambda frame: version_in(frame) == version


def answered(frame: str) -> bool:
    """The frame that answers a move (its "ok" or its error)."""
    return error_code(frame) is not None


async def send(comm: WebsocketCommunicator, action: Any, version: int, **fields: Any) -> None:
    await comm.send_to(text_data=json.dumps({
        "kind": "act", "action": action if isinstance(action, str) else json.dumps(action),
        "expected_version": str(version), **fields}))


def error_code(html: str) -> str | None:
    match = re.search(r'id="frame-error"[^>]*data-code="([a-z_]+)"', html)
    return match.group(1) if match else None


def error_text(html: str) -> str:
    match = re.search(r'id="frame-error"[^>]*>([^<]*)<', html)
    return match.group(1).strip() if match else ""


def version_in(html: str) -> int | None:
    match = re.search(r'id="table-version" name="expected_version" value="(\d+)"', html)
    return int(match.group(1)) if match else None


def newest_version(html: str) -> int | None:
    """The newest version the frames show. A push for an earlier move (the bots') may still be
    on its way when a move's own frame is read, and comes first in the text: the page shows it
    and then the newer one, as a browser would."""
    found = [int(v) for v in re.findall(
        r'id="table-version" name="expected_version" value="(\d+)"', html)]
    return max(found) if found else None


def seat_named(game: Game, name: str) -> int:
    return next(i for i, p in enumerate(game.players) if p["name"] == name)
