"""The board games' clocks, auto move and Continue as a player's socket sees them: a paused
game refuses moves with a reason and changes nothing; the toggle by the dice and the glow come
and go with the seat's setting, on every tab; an online table's deciding seat shows its clock,
and the board is handed the lot's deadline while nobody has bid."""

from __future__ import annotations

import pytest
from board_clock_helpers import act, online, position, seat_of, vs_bots
from boardroom_site_helpers import connect, error_code, error_text, first_frames, frames, send
from channels.db import database_sync_to_async
from django.test import Client

from games.platform import services
from games.platform.identity import GUEST_SESSION_KEY, Viewer
from games.platform.interface import get_game
from games.platform.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def bots_game_on_my_roll(viewer: Viewer) -> tuple[Game, int]:
    game = vs_bots(viewer)
    me = seat_of(game, viewer)
    return position(game, turn=me, phase="roll"), me


@database_sync_to_async
def pause(game: Game, viewer: Viewer) -> None:
    services.continue_link_create(table_id=game.table_id, viewer=viewer)


@database_sync_to_async
def toggle_by_post(game: Game, viewer: Viewer, on: str) -> int:
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = viewer.guest_key
    session.save()
    # With the invite token, as the page's forms carry it (a watcher of a private table).
    return client.post(f"/t/{game.table.code}/auto/",
                       {"on": on, "invite": game.table.invite_token},
                       headers={"HX-Request": "true"}).status_code


@database_sync_to_async
def reload(game: Game) -> Game:
    game.refresh_from_db()
    return game


async def test_a_move_in_a_paused_game_is_refused_with_a_reason(alice: Viewer) -> None:
    game, _ = await bots_game_on_my_roll(alice)
    await pause(game, alice)
    comm = await connect(game.table.code, alice)
    (first,) = await first_frames(comm)
    assert 'id="resume-here"' in first
    await send(comm, {"type": "roll"}, game.version)
    got = "\n".join(await frames(comm))
    assert error_code(got) == "paused"
    assert "Resume here" in error_text(got)
    assert (await reload(game)).version == game.version
    await comm.disconnect()


GLOW = 'id="auto-move" class="auto-move on"'


async def test_the_toggle_and_the_glow_follow_the_seat_on_every_tab(alice: Viewer) -> None:
    game, _ = await bots_game_on_my_roll(alice)
    comm = await connect(game.table.code, alice)
    (first,) = await first_frames(comm)
    # The dice glow while the seat's own toggle is on (site.css: #auto-move.on lights #dice).
    assert 'id="auto-move"' in first and 'aria-pressed="false"' in first
    assert GLOW not in first
    assert await toggle_by_post(game, alice, "1") == 204
    pushed = "\n".join(await frames(comm))
    assert GLOW in pushed and 'aria-pressed="true"' in pushed
    assert await toggle_by_post(game, alice, "0") == 204
    pushed = "\n".join(await frames(comm))
    assert GLOW not in pushed and 'aria-pressed="false"' in pushed
    await comm.disconnect()


async def test_a_watcher_sees_no_toggle_and_cannot_turn_one(alice: Viewer, bob: Viewer) -> None:
    game, _ = await bots_game_on_my_roll(alice)
    assert await toggle_by_post(game, bob, "1") == 409
    comm = await connect(game.table.code, bob)
    first = "\n".join(await first_frames(comm))  # a watcher also hears the watching count
    assert 'id="status"' in first and 'id="auto-move"' not in first
    await comm.disconnect()


@database_sync_to_async
def online_lot(alice: Viewer, bob: Viewer, carol: Viewer) -> Game:
    game = online(alice, (bob, "Bob"), (carol, "Carol"))
    game = position(game, turn=seat_of(game, alice), dice=[(1, 2)], phase="roll")
    me = seat_of(game, alice)
    return act(act(game, me, {"type": "roll"}), me, {"type": "decline", "tile": 3})


async def test_an_online_auction_shows_the_bidders_clock_and_hands_the_board_the_lot_deadline(
        alice: Viewer, bob: Viewer, carol: Viewer, monkeypatch: pytest.MonkeyPatch) -> None:
    game = await online_lot(alice, bob, carol)
    engine = get_game("boardroom")
    seen: list[dict] = []
    draw = engine.board_context

    def board_context(view, **kwargs):  # the board's template data, as the platform asks
        seen.extend(kwargs["seats"])
        return draw(view, **kwargs)

    monkeypatch.setattr(engine, "board_context", board_context)
    comm = await connect(game.table.code, bob)
    first = "\n".join(await first_frames(comm))
    bidder = str(game.state["auction"]["at"])
    assert f'data-deadline="{game.deadlines[bidder]["deadline"]}"' in first
    assert {m["lot_deadline"] for m in seen} == {game.deadlines["lot"]["deadline"]}
    await comm.disconnect()
