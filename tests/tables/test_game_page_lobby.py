"""A game's page keeps its own list of public tables live over the lobby socket."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.platform import lobby, services
from games.platform.identity import Viewer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _application() -> Any:
    # Imported late: the ASGI module arms the in-process scheduler when it loads.
    from chudopoly_site.asgi import application

    return application


async def lobby_socket(path: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(_application(), path, headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    return comm


async def open_table(viewer: Viewer, game_kind: str, *, is_public: bool = True) -> Any:
    return await database_sync_to_async(services.table_create)(
        viewer=viewer, name="Alice", ruleset_spec={}, is_public=is_public,
        game_kind=game_kind)


async def test_a_game_pages_socket_gets_its_games_new_table_and_not_another_games(
        alice: Viewer, bob: Viewer) -> None:
    boardroom_page = await lobby_socket("/ws/lobby/boardroom/")
    chudopoly_page = await lobby_socket("/ws/lobby/chudopoly/")

    boardroom_table = await open_table(alice, "boardroom")
    html = await boardroom_page.receive_from(timeout=5)
    assert 'id="public-tables" hx-swap-oob="true"' in html
    assert boardroom_table.code in html and "1/4 seats" in html
    assert "Boardroom ·" not in html  # a game's page does not name its game on every line
    assert await chudopoly_page.receive_nothing(timeout=0.5)

    chudopoly_table = await open_table(bob, "chudopoly")
    html = await chudopoly_page.receive_from(timeout=5)
    assert chudopoly_table.code in html and boardroom_table.code not in html
    assert await boardroom_page.receive_nothing(timeout=0.5)
    await boardroom_page.disconnect()
    await chudopoly_page.disconnect()


async def test_the_home_pages_socket_still_gets_every_games_tables(alice: Viewer,
                                                                   bob: Viewer) -> None:
    home = await lobby_socket("/ws/lobby/")
    boardroom_table = await open_table(alice, "boardroom")
    assert boardroom_table.code in await home.receive_from(timeout=5)
    chudopoly_table = await open_table(bob, "chudopoly")
    html = await home.receive_from(timeout=5)
    assert chudopoly_table.code in html and boardroom_table.code in html
    assert "Boardroom ·" in html and "Chudopoly ·" in html
    await home.disconnect()


async def test_a_game_pages_list_shows_no_private_table_nor_its_invite(alice: Viewer,
                                                                       bob: Viewer) -> None:
    page = await lobby_socket("/ws/lobby/boardroom/")
    private = await open_table(alice, "boardroom", is_public=False)
    assert await page.receive_nothing(timeout=0.5)  # a private table changes no list
    public = await open_table(bob, "boardroom")
    html = await page.receive_from(timeout=5)
    assert public.code in html
    assert private.code not in html and private.invite_token not in html
    await page.disconnect()


async def test_one_change_renders_each_list_once_however_many_sockets_show_it(
        alice: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    rendered: list[str | None] = []
    render = lobby._render

    def counted(game_kind: str | None) -> str:
        rendered.append(game_kind)
        return render(game_kind)

    monkeypatch.setattr(lobby, "_render", counted)
    sockets = [await lobby_socket(path) for path in
               ["/ws/lobby/boardroom/", "/ws/lobby/boardroom/", "/ws/lobby/", "/ws/lobby/"]]
    table = await open_table(alice, "boardroom")
    frames = [await comm.receive_from(timeout=5) for comm in sockets]
    assert all(table.code in html for html in frames)
    assert frames[0] == frames[1] and frames[2] == frames[3]
    assert len(rendered) == 2 and set(rendered) == {"boardroom", None}
    for comm in sockets:
        await comm.disconnect()


async def test_a_lobby_socket_of_a_game_the_site_does_not_have_is_refused() -> None:
    comm = WebsocketCommunicator(_application(), "/ws/lobby/chess/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, code = await comm.connect(timeout=10)
    assert not connected and code == 4404
